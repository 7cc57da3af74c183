package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PathResultTest {

  @Test
  void medianIsTheMiddleValueOrTheMeanOfTheTwoMiddleOnes() {
    assertThat(PathResult.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
    assertThat(PathResult.median(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(2.5);
  }

  @Test
  void theEmptySliceHasNoThroughput() {
    PathResult empty = new PathResult("empty", 0, List.of(new Sample(2.0, 2.0, 0.0, 0.0)));
    PathResult full = new PathResult("full", 1_000, List.of(new Sample(2.0, 2.0, 0.0, 0.0)));

    assertThat(empty.rowsPerSecond()).isNaN();
    assertThat(full.rowsPerSecond()).isEqualTo(500.0);
  }

  @Test
  void aNoOpRerunHoldsTheSlicesRowsButWritesNoneSoHasNoThroughput() {
    PathResult raw = new PathResult("raw", 1_000, List.of(new Sample(1.0, 2.0, 0.0, 0.0)));
    PathResult rerun = new PathResult("rerun", 1_000, 0, List.of(new Sample(0.01, 0.02, 0.0, 0.0)));

    assertThat(rerun.rows()).isEqualTo(1_000);
    assertThat(rerun.rowsPerSecond()).isNaN();
    assertThat(rerun.throughputVs(raw)).isNaN();
    assertThat(raw.throughputVs(rerun)).isNaN();
  }

  @Test
  void maxOtherCoresIsTheBusiestRunAndIgnoresRunsThatCouldNotMeasureIt() {
    PathResult r =
        new PathResult(
            "floe",
            1_000,
            List.of(
                new Sample(1.0, 2.0, 0.0, 0.1),
                new Sample(1.0, 2.0, 0.0, Double.NaN),
                new Sample(1.0, 2.0, 0.0, 1.4)));
    PathResult unmeasured =
        new PathResult("floe", 1_000, List.of(new Sample(1.0, 2.0, 0.0, Double.NaN)));

    assertThat(r.maxOtherCores()).isEqualTo(1.4);
    assertThat(unmeasured.maxOtherCores()).isNaN();
  }

  @Test
  void throughputVsALimitIsRowsPerSecondOverTheLimitsAndMemoryIsTheHighestRun() {
    PathResult limit = new PathResult("raw", 1_000, List.of(new Sample(1.0, 2.0, 0.0, 0.0)));
    PathResult floe =
        new PathResult(
            "floe",
            1_000,
            List.of(
                new Sample(4.0, 2.0, 0.0, 0.0, 100, 300),
                new Sample(2.0, 2.0, 0.0, 0.0, 200, 250)));

    assertThat(floe.throughputVs(limit))
        .isCloseTo(1 / 3.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(floe.throughputVs(null)).isNaN();
    assertThat(floe.heapPeakBytes()).isEqualTo(200);
    assertThat(floe.rssPeakBytes()).isEqualTo(300);
    assertThat(limit.heapPeakBytes()).isEqualTo(-1);
  }
}
