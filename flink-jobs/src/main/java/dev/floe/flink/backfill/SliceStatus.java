package dev.floe.flink.backfill;

/** How one slice of a backfill ended. */
public enum SliceStatus {
  /** A new snapshot replaced the slice. */
  COMMITTED("committed"),
  /** The slice already held exactly this content; nothing committed. */
  NO_OP("no-op"),
  /** This backfill had loaded the slice already (a resumed backfill). */
  SKIPPED("skipped"),
  /** The run failed; nothing of it was committed. */
  FAILED("failed"),
  /** Never started: the sample failed or {@code --fail-fast} stopped the backfill. */
  NOT_RUN("not run"),
  /** A dry run: a real backfill would run this slice. */
  PLANNED("would run");

  private final String text;

  SliceStatus(String text) {
    this.text = text;
  }

  public String text() {
    return text;
  }
}
