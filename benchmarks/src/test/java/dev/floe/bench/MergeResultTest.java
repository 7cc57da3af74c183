package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class MergeResultTest {
  private static final MergeDetail FIVE_FILES = new MergeDetail(10, 10, 5, 5, 0, 0, 5, 5, 100);

  @Test
  void mergeIsComparedWithItsOwnBaselineAndTheSmallestTargetOfItsLayout() {
    MergeResult small = result(Layout.CLUSTERED, 100_000, 2.0, 4.0);
    MergeResult large = result(Layout.CLUSTERED, 5_000_000, 3.0, 40.0);
    MergeResult random = result(Layout.RANDOM, 5_000_000, 30.0, 40.0);
    MergeResult randomSmall = result(Layout.RANDOM, 1_000_000, 10.0, 12.0);
    List<MergeResult> all = List.of(small, large, random, randomSmall);

    assertThat(large.mergeVsBaseline()).isCloseTo(0.075, within(1e-9));
    assertThat(MergeResult.vsSmallest(all, large, MergeResult::mergeSeconds)).isEqualTo(1.5);
    assertThat(MergeResult.vsSmallest(all, large, MergeResult::baselineSeconds)).isEqualTo(10.0);
    assertThat(MergeResult.vsSmallest(all, small, MergeResult::mergeSeconds)).isEqualTo(1.0);
    // Each layout against its own smallest target, whatever the order of the list.
    assertThat(MergeResult.vsSmallest(all, random, MergeResult::mergeSeconds)).isEqualTo(3.0);
  }

  @Test
  void aTableRowShowsCountsMediansAndRatios() {
    MergeResult small = result(Layout.CLUSTERED, 100_000, 2.0, 4.0);
    MergeResult large = result(Layout.CLUSTERED, 5_000_000, 3.0, 40.0);

    assertThat(MergeResultTable.row(List.of(small, large), large))
        .isEqualTo(
            "| clustered | 5,000,000 | 100 | 2.0 | 5 | 5 | 3.00 | 2.00–4.00 | 40.00 | 39.00–41.00"
                + " | 0.08× | 1.50× | 10.00× | 0.10 / 0.10 |");
  }

  /** Three runs per path around the given medians. */
  private static MergeResult result(Layout layout, long rows, double merge, double baseline) {
    return new MergeResult(
        layout,
        rows,
        100,
        2 * 1048576,
        FIVE_FILES,
        new PathResult("merge", 10, samples(merge - 1, merge, merge + 1)),
        new PathResult("full rewrite (swap)", rows, samples(baseline - 1, baseline, baseline + 1)));
  }

  private static List<Sample> samples(double... seconds) {
    return java.util.Arrays.stream(seconds).mapToObj(s -> new Sample(s, s, 0, 0.1)).toList();
  }
}
