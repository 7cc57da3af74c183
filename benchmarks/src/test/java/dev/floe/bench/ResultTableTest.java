package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResultTableTest {

  private static PathResult result(String name, long rows, long written, double seconds) {
    return new PathResult(name, rows, written, List.of(new Sample(seconds, seconds, 0.0, 0.0)));
  }

  private static List<String> rows(List<PathResult> group) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ResultTable.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), List.of(group));
    return bytes.toString(StandardCharsets.UTF_8).lines().skip(2).toList();
  }

  @Test
  void aPathThatWritesNoRowsShowsItsTimeButNoRowsPerSecondOrThroughputRatios() {
    List<String> table =
        rows(
            List.of(
                result("floe (no checks)", 10_000_000, 10_000_000, 4.0),
                result(SliceBenchmark.NO_OP_RERUN, 10_000_000, 0, 0.04),
                result(ResultTable.BASELINE, 10_000_000, 10_000_000, 4.0),
                result(RawAppenderPath.NAME, 10_000_000, 10_000_000, 1.0),
                result(ReadWritePath.NAME, 10_000_000, 10_000_000, 2.0)));

    assertThat(table.get(0))
        .startsWith(
            "| floe (no checks) | 10,000,000 | 4.00 | 4.00–4.00 | 2,500,000 | 1.00× | 0.25 | 0.50 |");
    // The rerun's time and time ratio stay; it is not credited with the rows it did not write.
    assertThat(table.get(1))
        .startsWith(
            "| floe no-op rerun (no checks) | 10,000,000 | 0.04 | 0.04–0.04 | — | 0.01× | — | — |");
  }
}
