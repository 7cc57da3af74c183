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
            + " rows/s vs single run | overhead s per slice |"
            + " median slice job s | CPU/wall | other procs (cores) |");
    out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    BackfillPathResult baseline = BackfillPathResult.baselineOf(results);
    BackfillPathResult single = BackfillPathResult.singleOf(results);
    results.forEach(r -> out.println(row(r, baseline, single)));
  }

  static String row(BackfillPathResult r, BackfillPathResult baseline) {
    return row(r, baseline, null);
  }

  static String row(BackfillPathResult r, BackfillPathResult baseline, BackfillPathResult single) {
    boolean compared = single != null && r != single;
    return String.format(
        Locale.ROOT,
        "| %s | %,d | %,d | %.2f | %.3f | %,.0f | %s | %s | %s | %.3f | %.2f | %.2f |",
        r.name(),
        r.slices(),
        r.rows(),
        r.totalSeconds(),
        r.secondsPerSlice(),
        r.rowsPerSecond(),
        baseline == null ? "—" : String.format(Locale.ROOT, "%.2f×", r.vsBaseline(baseline)),
        compared ? String.format(Locale.ROOT, "%.2f×", r.vsSingle(single)) : "—",
        compared ? String.format(Locale.ROOT, "%.3f", r.overheadPerSlice(single)) : "—",
        r.medianSliceJobSeconds(),
        r.runs().medianCpuSeconds() / r.totalSeconds(),
        r.runs().medianOtherCores());
  }
}
