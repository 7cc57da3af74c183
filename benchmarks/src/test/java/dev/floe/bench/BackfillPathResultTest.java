package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class BackfillPathResultTest {

  private static BackfillPathResult result(
      String name, boolean baseline, List<Double> wallSeconds, List<Double> jobSeconds) {
    List<Sample> samples =
        wallSeconds.stream().map(s -> new Sample(s, s * 1.5, 0.1, 0.05)).toList();
    return new BackfillPathResult(
        100, baseline, new PathResult(name, 1_000_000, samples), jobSeconds);
  }

  @Test
  void perSliceCostAndThroughputComeFromTheMedianTotal() {
    BackfillPathResult r = result("loop", true, List.of(250.0, 200.0, 300.0), List.of(2.0));

    assertThat(r.totalSeconds()).isEqualTo(250.0);
    assertThat(r.secondsPerSlice()).isEqualTo(2.5);
    assertThat(r.rowsPerSecond()).isEqualTo(4_000.0);
  }

  @Test
  void eachPathIsComparedWithTheBaselineOfTheSameRun() {
    BackfillPathResult loop = result("loop", true, List.of(200.0), List.of(2.0));
    BackfillPathResult backfill = result("backfill", false, List.of(50.0), List.of(0.5));

    assertThat(BackfillPathResult.baselineOf(List.of(backfill, loop))).isSameAs(loop);
    assertThat(backfill.vsBaseline(loop)).isEqualTo(0.25);
    assertThat(loop.vsBaseline(loop)).isEqualTo(1.0);
    assertThat(BackfillPathResult.baselineOf(List.of(backfill))).isNull();
  }

  @Test
  void theMedianSliceJobIsTakenOverEverySliceOfEveryRound() {
    BackfillPathResult r =
        result("backfill", false, List.of(10.0, 12.0), List.of(0.9, 0.4, 0.5, 0.6, 3.0));

    assertThat(r.medianSliceJobSeconds()).isEqualTo(0.6);
  }

  @Test
  void theTableRowShowsTheRatioAndPerSliceNumbers() {
    BackfillPathResult loop =
        result("floe run loop (baseline)", true, List.of(200.0), List.of(1.9));
    BackfillPathResult backfill =
        result("floe backfill, max-concurrency 2", false, List.of(50.0), List.of(0.8));

    assertThat(BackfillResultTable.row(backfill, loop))
        .isEqualTo(
            "| floe backfill, max-concurrency 2 | 100 | 1,000,000 | 50.00 | 0.500 | 20,000 |"
                + " 0.25× | — | — | 0.800 | 1.50 | 0.05 |");
    assertThat(BackfillResultTable.row(loop, loop)).contains("| 1.00× |");
    assertThat(BackfillResultTable.row(backfill, null)).contains("| — |");
  }

  @Test
  void goalSevenComparesEachBackfillWithTheOneSliceRunOfTheSameRows() {
    // The single run loads the 1,000,000 rows in 10 s: 100,000 rows/s.
    BackfillPathResult single =
        new BackfillPathResult(
            1,
            false,
            new PathResult(
                SingleRunPath.NAME + ", parallelism 2",
                1_000_000,
                List.of(new Sample(10.0, 15.0, 0.1, 0.05))),
            List.of(10.0));
    BackfillPathResult backfill = result("backfill", false, List.of(25.0), List.of(0.2));

    assertThat(BackfillPathResult.singleOf(List.of(backfill, single))).isSameAs(single);
    assertThat(backfill.vsSingle(single)).isEqualTo(0.4);
    // 25 s − 10 s for the rows, over 100 slices.
    assertThat(backfill.overheadPerSlice(single)).isCloseTo(0.15, within(1e-9));
    assertThat(BackfillResultTable.row(backfill, null, single)).contains("| 0.40× | 0.150 |");
    assertThat(BackfillResultTable.row(single, null, single)).contains("| — | — |");
  }
}
