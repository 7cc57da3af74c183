package dev.floe.catalog.effects;

/**
 * What became of one effect in one call: what the run output and {@code --json} report.
 *
 * @param key run key and effect name
 * @param url the URL template (never with an environment value filled in)
 * @param outcome what happened
 * @param attempts POSTs made by this call (0 when nothing was sent)
 * @param httpStatus the last HTTP status received, or null
 * @param error why the last POST failed, or null
 */
public record Delivery(
    OutboxKey key, String url, Outcome outcome, int attempts, Integer httpStatus, String error) {

  public enum Outcome {
    /** POSTed now and answered with a 2xx. */
    SENT("sent"),
    /** Every attempt of this delivery failed; the row is {@code failed}. */
    FAILED("failed"),
    /** Sent before (by an earlier run of the same run key): not sent again. */
    ALREADY_SENT("already sent"),
    /** Failed before; only {@code floe effects --retry} sends it again. */
    FAILED_EARLIER("failed earlier"),
    /** Another process holds the claim and is sending it. */
    IN_FLIGHT("in flight elsewhere"),
    /** Effects are off for this run (a backfill); recorded as skipped, not sent. */
    SKIPPED("skipped"),
    /** A dry run: what a real run would send. */
    WOULD_SEND("would send"),
    /** A dry run: a real run could not send it as it stands (an unset environment variable). */
    WOULD_FAIL("would fail"),
    /** Interrupted between attempts; still pending, a rerun sends it. */
    INTERRUPTED("pending");

    private final String text;

    Outcome(String text) {
      this.text = text;
    }

    public String text() {
      return text;
    }
  }

  /** True when the effect has not reached its receiver and an operator may need to act. */
  public boolean needsAttention() {
    return outcome == Outcome.FAILED
        || outcome == Outcome.WOULD_FAIL
        || outcome == Outcome.FAILED_EARLIER
        || outcome == Outcome.INTERRUPTED;
  }

  static Delivery of(OutboxEntry entry, Outcome outcome, int attempts) {
    return new Delivery(
        entry.key(), entry.url(), outcome, attempts, entry.httpStatus(), entry.lastError());
  }
}
