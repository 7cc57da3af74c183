package dev.floe.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Prints results as a Markdown table, so a run's output can go into the README unchanged. Ratios
 * are against paths measured in the same run: absolute numbers depend on the machine, the ratios
 * much less. "time vs baseline" is time over Iceberg's Flink SQL overwrite's time (lower is
 * better); "vs raw" and "vs read+write" are rows/s over the limit's rows/s (higher is better; issue
 * 15's goal 1 is ≥ 0.8 vs raw).
 */
final class ResultTable {
  static final String BASELINE = "iceberg sql overwrite";

  private ResultTable() {}

  /** One table; each group (one slice size) is compared with its own baseline and limits. */
  static void print(PrintStream out, List<List<PathResult>> groups) {
    out.println(
        "| path | rows | median s | min–max s | rows/s | time vs baseline | vs raw | vs read+write"
            + " | CPU/wall | GC s | heap peak GiB | RSS peak GiB | other procs (cores) |");
    out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (List<PathResult> group : groups) {
      PathResult baseline = find(group, BASELINE);
      PathResult raw = find(group, RawAppenderPath.NAME);
      PathResult readWrite = find(group, ReadWritePath.NAME);
      group.forEach(r -> row(out, r, baseline, raw, readWrite));
    }
  }

  static PathResult find(List<PathResult> group, String name) {
    return group.stream().filter(r -> r.name().equals(name)).findFirst().orElse(null);
  }

  private static void row(
      PrintStream out, PathResult r, PathResult baseline, PathResult raw, PathResult readWrite) {
    out.printf(
        Locale.ROOT,
        "| %s | %,d | %.2f | %.2f–%.2f | %s | %s | %s | %s | %.2f | %.2f | %s | %s | %.2f |%n",
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
        ratio(r.throughputVs(raw)),
        ratio(r.throughputVs(readWrite)),
        r.medianCpuSeconds() / r.medianSeconds(),
        r.medianGcSeconds(),
        gib(r.heapPeakBytes()),
        gib(r.rssPeakBytes()),
        r.medianOtherCores());
  }

  private static String ratio(double value) {
    return Double.isNaN(value) ? "—" : String.format(Locale.ROOT, "%.2f", value);
  }

  static String gib(long bytes) {
    return bytes < 0 ? "—" : String.format(Locale.ROOT, "%.2f", bytes / 1073741824.0);
  }
}
