package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class WritePathGoalsTest {

  private static PathResult result(String name, long written, double seconds, double otherCores) {
    return new PathResult(
        name, 1_000_000, written, List.of(new Sample(seconds, seconds, 0.0, otherCores)));
  }

  private static List<String> goals(double rerunOtherCores) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    WritePathBenchmark.printGoals(
        new PrintStream(bytes, true, StandardCharsets.UTF_8),
        List.of(
            result("floe (no checks)", 1_000_000, 4.0, 0.0),
            result(SliceBenchmark.NO_OP_RERUN, 0, 0.04, 0.0),
            result(SliceBenchmark.NO_OP_RERUN_NEW_SOURCE, 0, 2.0, rerunOtherCores),
            result(RawAppenderPath.NAME, 1_000_000, 1.0, 0.05),
            result(ReadWritePath.NAME, 1_000_000, 2.0, 0.0)));
    return bytes.toString(StandardCharsets.UTF_8).lines().toList();
  }

  @Test
  void goalFiveIsJudgedForTheSkippedRerunAndForTheRerunWhoseJobComparesContent() {
    List<String> lines = goals(0.0);

    assertThat(lines).hasSize(3);
    assertThat(lines.get(0))
        .startsWith("Goal 1 ")
        .endsWith(": 0.25× raw, 0.50× read+write: not met.");
    assertThat(lines.get(1))
        .contains("the rerun of an untouched source, which Floe ends from lineage")
        .endsWith("first load 4.00 s ÷ rerun 0.04 s = 100.00×: met.");
    assertThat(lines.get(2))
        .contains("the rerun after a new source snapshot with the same rows, whose job runs")
        .endsWith("first load 4.00 s ÷ rerun 2.00 s = 2.00×: not met.");
  }

  @Test
  void aVerdictFromRunsWhereOtherProcessesTookMoreThanTheLimitSaysItIsNotReliable() {
    List<String> lines = goals(1.4);

    // Only the goal that compared the busy run says so.
    assertThat(lines.get(0)).endsWith("read+write: not met.");
    assertThat(lines.get(1)).endsWith("= 100.00×: met.");
    assertThat(lines.get(2))
        .endsWith(
            "= 2.00×: not met (machine busy: other processes used 1.40 cores during a compared"
                + " run; verdict not reliable).");
  }

  @Test
  void aVerdictAtTheLimitOrWithoutAMeasurementHasNoWarning() {
    PathResult atLimit = result("a", 1, 1.0, SliceBenchmark.MAX_OTHER_CORES);
    PathResult unmeasured = result("b", 1, 1.0, Double.NaN);

    assertThat(WritePathBenchmark.verdict(true, atLimit, unmeasured)).isEqualTo("met");
    assertThat(WritePathBenchmark.verdict(false, unmeasured)).isEqualTo("not met");
  }
}
