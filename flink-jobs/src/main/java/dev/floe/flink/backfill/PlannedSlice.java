package dev.floe.flink.backfill;

import dev.floe.catalog.window.SliceLoad;

/**
 * One slice of a backfill as planned.
 *
 * @param value the {@code --slice} value, e.g. {@code 2026-01-05}
 * @param label the lineage label, e.g. {@code order_date=[2026-01-05,2026-01-06)}
 * @param runKey the run key a run of this slice records
 * @param sample whether this is the sample slice, run and validated first
 * @param finished the load of this backfill the slice holds already (a resumed backfill skips it),
 *     or null
 * @param runAgainBecause why a slice this backfill loaded before runs again (its sources changed
 *     since, or something changed the slice), or null
 */
public record PlannedSlice(
    String value,
    String label,
    String runKey,
    boolean sample,
    SliceLoad finished,
    String runAgainBecause) {

  /** A slice this backfill never loaded, or loaded and still holds ({@code finished}). */
  public PlannedSlice(
      String value, String label, String runKey, boolean sample, SliceLoad finished) {
    this(value, label, runKey, sample, finished, null);
  }

  public boolean isFinished() {
    return finished != null;
  }
}
