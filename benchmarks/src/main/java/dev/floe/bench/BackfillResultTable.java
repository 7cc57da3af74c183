package dev.floe.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Prints the backfill benchmark's results as a Markdown table. Every path is compared with the
 * {@code floe run} loop measured in the same run: absolute times depend on the machine, the ratios
 * much less.
 */
final class BackfillResultTable {

  private BackfillResultTable() {}

  static void print(PrintStream out, List<BackfillPathResult> results) {
    out.println(
        "| path | slices | rows | total s | s per slice | rows/s | time vs baseline |"
            + " median slice job s | CPU/wall | other procs (cores) |");
    out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    BackfillPathResult baseline = BackfillPathResult.baselineOf(results);
    results.forEach(r -> out.println(row(r, baseline)));
  }

  static String row(BackfillPathResult r, BackfillPathResult baseline) {
    return String.format(
        Locale.ROOT,
        "| %s | %,d | %,d | %.2f | %.3f | %,.0f | %s | %.3f | %.2f | %.2f |",
        r.name(),
        r.slices(),
        r.rows(),
        r.totalSeconds(),
        r.secondsPerSlice(),
        r.rowsPerSecond(),
        baseline == null ? "—" : String.format(Locale.ROOT, "%.2f×", r.vsBaseline(baseline)),
        r.medianSliceJobSeconds(),
        r.runs().medianCpuSeconds() / r.totalSeconds(),
        r.runs().medianOtherCores());
  }
}
