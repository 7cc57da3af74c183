package dev.floe.bench;

import java.util.List;

/**
 * One path's measured rounds over the whole range.
 *
 * @param slices slices of the range
 * @param baseline whether the other paths are compared with this one
 * @param runs the measured rounds (rows = the whole range's)
 * @param sliceJobSeconds every slice's own job time over the measured rounds, as the runs reported
 *     it (a backfill's sample counts its run on main only)
 */
record BackfillPathResult(
    int slices, boolean baseline, PathResult runs, List<Double> sliceJobSeconds) {

  BackfillPathResult {
    sliceJobSeconds = List.copyOf(sliceJobSeconds);
  }

  String name() {
    return runs.name();
  }

  long rows() {
    return runs.rows();
  }

  /** Median wall time of loading the whole range. */
  double totalSeconds() {
    return runs.medianSeconds();
  }

  /**
   * What each slice costs on average: the per-slice overhead is what a backfill must keep small.
   */
  double secondsPerSlice() {
    return totalSeconds() / slices;
  }

  double rowsPerSecond() {
    return rows() / totalSeconds();
  }

  /** This path's total time as a multiple of the baseline's, measured in the same run. */
  double vsBaseline(BackfillPathResult baselineResult) {
    return totalSeconds() / baselineResult.totalSeconds();
  }

  double medianSliceJobSeconds() {
    return PathResult.median(sliceJobSeconds);
  }

  /**
   * Rows/s as a share of {@code single}'s, the whole range loaded as one slice (issue 15 goal 7: ≥
   * 0.7).
   */
  double vsSingle(BackfillPathResult single) {
    return rowsPerSecond() / single.rowsPerSecond();
  }

  /**
   * What each slice costs beyond its rows: this path's total minus the time {@code single} takes
   * for the same rows, over the slices (issue 15 goal 7: < 0.1 s).
   */
  double overheadPerSlice(BackfillPathResult single) {
    return (totalSeconds() - rows() / single.rowsPerSecond()) / slices;
  }

  /** The one-slice run of the range's rows among {@code results}, or null when not measured. */
  static BackfillPathResult singleOf(List<BackfillPathResult> results) {
    return results.stream()
        .filter(r -> r.name().startsWith(SingleRunPath.NAME))
        .findFirst()
        .orElse(null);
  }

  /** The baseline among {@code results}, or null when it was not measured. */
  static BackfillPathResult baselineOf(List<BackfillPathResult> results) {
    return results.stream().filter(BackfillPathResult::baseline).findFirst().orElse(null);
  }
}
