package dev.floe.flink.backfill;

/**
 * Hears a backfill's progress, e.g. to draw a progress bar. Called from the backfill's worker
 * threads, one call at a time.
 */
public interface BackfillListener {
  BackfillListener NONE = new BackfillListener() {};

  /** The plan is made; nothing has run yet. */
  default void planned(BackfillPlan plan) {}

  /** A slice's job starts. */
  default void sliceStarted(PlannedSlice slice) {}

  /** The sample check finished, passed or not. */
  default void sampleChecked(SampleCheck check) {}

  /**
   * A slice ended.
   *
   * @param done slices ended so far, skipped ones included
   * @param total slices of the range
   */
  default void sliceFinished(SliceOutcome outcome, int done, int total) {}
}
