package dev.floe.catalog.effects;

import java.util.Locale;

/** Where an effect stands in the outbox. */
public enum EffectStatus {
  /** Recorded, not sent yet (or being sent: see the row's lease). */
  PENDING,
  /** Delivered: a 2xx answer. Never sent again for the same key. */
  SENT,
  /** Every attempt of a delivery failed; {@code floe effects --retry} sends it again. */
  FAILED,
  /**
   * Effects were off for the run that committed (a backfill without {@code --allow-effects}):
   * recorded so that a later rerun of the slice does not send what the backfill held back.
   */
  SKIPPED;

  /** How the outbox, the CLI and --json spell it. */
  public String text() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static EffectStatus parse(String text) {
    return valueOf(text.toUpperCase(Locale.ROOT));
  }
}
