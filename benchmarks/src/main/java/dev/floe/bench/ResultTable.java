package dev.floe.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Prints results as a Markdown table, so a run's output can go into the README unchanged. Ratios
 * are against the baseline measured in the same run: absolute numbers depend on the machine, the
 * ratios much less.
 */
final class ResultTable {
  static final String BASELINE = "iceberg sql overwrite";

  private ResultTable() {}

  static void print(PrintStream out, List<PathResult> results) {
    PathResult baseline =
        results.stream().filter(r -> r.name().equals(BASELINE)).findFirst().orElse(null);
    out.println(
        "| path | rows | median s | min–max s | rows/s | time vs baseline | CPU/wall | GC s | other procs (cores) |");
    out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (PathResult r : results) {
      out.printf(
          Locale.ROOT,
          "| %s | %,d | %.2f | %.2f–%.2f | %s | %s | %.2f | %.2f | %.2f |%n",
          r.name(),
          r.rows(),
          r.medianSeconds(),
          r.minSeconds(),
          r.maxSeconds(),
          Double.isNaN(r.rowsPerSecond())
              ? "—"
              : String.format(Locale.ROOT, "%,.0f", r.rowsPerSecond()),
          baseline == null
              ? "—"
              : String.format(Locale.ROOT, "%.2f×", r.medianSeconds() / baseline.medianSeconds()),
          r.medianCpuSeconds() / r.medianSeconds(),
          r.medianGcSeconds(),
          r.medianOtherCores());
    }
  }
}
