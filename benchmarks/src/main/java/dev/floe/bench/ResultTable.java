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

  /** One table; each group (one slice size) is compared with its own baseline. */
  static void print(PrintStream out, List<List<PathResult>> groups) {
    out.println(
        "| path | rows | median s | min–max s | rows/s | time vs baseline | CPU/wall | GC s | other procs (cores) |");
    out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (List<PathResult> group : groups) {
      PathResult baseline =
          group.stream().filter(r -> r.name().equals(BASELINE)).findFirst().orElse(null);
      group.forEach(r -> row(out, r, baseline));
    }
  }

  private static void row(PrintStream out, PathResult r, PathResult baseline) {
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
