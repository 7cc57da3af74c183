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
}
