package dev.floe.flink.effects;

import dev.floe.catalog.effects.Delivery;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What became of a run's effects: one {@link Delivery} per effect, or a note saying why none was
 * considered (a dry run, an audit branch, effects off).
 *
 * @param deliveries one per effect handled
 * @param note why nothing (or not everything) was sent, or null
 * @param unsettled the note says an effect may be owed and not filed (the outbox could not be
 *     reached): a warning, as for an effect that was not delivered
 */
public record EffectsReport(List<Delivery> deliveries, String note, boolean unsettled) {
  public static final EffectsReport NONE = new EffectsReport(List.of(), null);

  public EffectsReport {
    deliveries = List.copyOf(deliveries);
  }

  /** A report whose note, if any, is for information only. */
  public EffectsReport(List<Delivery> deliveries, String note) {
    this(deliveries, note, false);
  }

  static EffectsReport note(String note) {
    return new EffectsReport(List.of(), note);
  }

  /** A report whose note says effects may be owed and not filed: {@link #warnings()} lists it. */
  static EffectsReport unsettled(List<Delivery> deliveries, String note) {
    return new EffectsReport(deliveries, note, true);
  }

  /** This report's deliveries, then {@code next}'s; both notes, this one's first. */
  EffectsReport then(EffectsReport next) {
    if (isEmpty()) {
      return next;
    }
    List<Delivery> all = new ArrayList<>(deliveries);
    all.addAll(next.deliveries);
    String both = note == null ? next.note : next.note == null ? note : note + "; " + next.note;
    return new EffectsReport(all, both, unsettled || next.unsettled);
  }

  public boolean isEmpty() {
    return deliveries.isEmpty() && note == null;
  }

  /**
   * Effects that have not reached their receiver, or may be owed and not filed: the run still
   * succeeds, with a warning.
   */
  public List<String> warnings() {
    List<String> warnings = deliveryWarnings();
    if (unsettled) {
      warnings.add(note + "; the commit stands");
    }
    return warnings;
  }

  /** {@link #lines()}, then the warnings the lines do not already say: one backfill slice's. */
  public List<String> linesAndWarnings() {
    List<String> parts = lines();
    parts.addAll(deliveryWarnings());
    return parts;
  }

  private List<String> deliveryWarnings() {
    List<String> warnings = new ArrayList<>();
    for (Delivery delivery : deliveries) {
      if (delivery.needsAttention()) {
        warnings.add(
            String.format(
                "effect %s was not delivered (%s%s: %s); the commit stands."
                    + " Resend it with `floe effects --pending --retry`",
                delivery.key().effect(),
                delivery.outcome().text(),
                attemptsMade(delivery),
                delivery.error()));
      }
    }
    return warnings;
  }

  /**
   * What this call's POSTs were, for a warning: none before a failure, or how many; nothing for an
   * effect that failed earlier (this call made none, the earlier ones are in the outbox).
   */
  private static String attemptsMade(Delivery delivery) {
    if (delivery.attempts() > 0) {
      return " after " + delivery.attempts() + " attempt(s)";
    }
    return delivery.outcome() == Delivery.Outcome.FAILED ? " before any POST" : "";
  }

  /** One line per effect, e.g. {@code notify_bi sent (1 attempt, HTTP 200)}. */
  public List<String> lines() {
    List<String> lines = new ArrayList<>();
    for (Delivery delivery : deliveries) {
      StringBuilder line =
          new StringBuilder(delivery.key().effect()).append("  ").append(delivery.outcome().text());
      if (delivery.attempts() > 0) {
        line.append(" (").append(delivery.attempts()).append(" attempt(s)");
        if (delivery.httpStatus() != null) {
          line.append(", HTTP ").append(delivery.httpStatus());
        } else if (delivery.error() != null) {
          line.append(", ").append(delivery.error());
        }
        line.append(')');
      } else if (delivery.error() != null) {
        line.append(" (").append(delivery.error()).append(')');
      }
      lines.add(line.toString());
    }
    if (note != null) {
      lines.add(note);
    }
    return lines;
  }

  /** The report as --json shows it. */
  public Map<String, Object> toMap() {
    List<Map<String, Object>> effects = new ArrayList<>();
    for (Delivery delivery : deliveries) {
      Map<String, Object> map = new LinkedHashMap<>();
      map.put("name", delivery.key().effect());
      map.put("outbox_key", delivery.key().idempotencyKey());
      map.put("status", delivery.outcome().text());
      map.put("attempts", delivery.attempts());
      map.put("http_status", delivery.httpStatus());
      map.put("error", delivery.error());
      map.put("url", delivery.url());
      effects.add(map);
    }
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("deliveries", effects);
    map.put("note", note);
    return map;
  }
}
