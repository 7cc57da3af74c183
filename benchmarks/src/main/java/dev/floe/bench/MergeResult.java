package dev.floe.bench;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One target size and layout: what the merge touched and both paths' measured runs.
 *
 * @param layout how keys lie in the target's files
 * @param targetRows rows of the target before the merge
 * @param files data files of the target
 * @param bytes their total size
 * @param detail the merge's counts (the same in every run)
 * @param merge the merge's runs
 * @param baseline the full rewrite's runs
 */
record MergeResult(
    Layout layout,
    long targetRows,
    int files,
    long bytes,
    MergeDetail detail,
    PathResult merge,
    PathResult baseline) {

  /** Merge time as a multiple of the full rewrite's, measured in the same run. */
  double mergeVsBaseline() {
    return merge.medianSeconds() / baseline.medianSeconds();
  }

  /**
   * A result's value as a multiple of the same value for the smallest target of the same layout in
   * {@code all}: how the cost grows with the target.
   */
  static double vsSmallest(
      List<MergeResult> all, MergeResult result, ToDoubleFunction<MergeResult> value) {
    MergeResult smallest =
        all.stream()
            .filter(r -> r.layout() == result.layout())
            .min((a, b) -> Long.compare(a.targetRows(), b.targetRows()))
            .orElse(result);
    return value.applyAsDouble(result) / value.applyAsDouble(smallest);
  }

  static double mergeSeconds(MergeResult r) {
    return r.merge().medianSeconds();
  }

  static double baselineSeconds(MergeResult r) {
    return r.baseline().medianSeconds();
  }
}
