package dev.floe.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Prints the merge benchmark's results as a Markdown table. Merge time is compared with the full
 * rewrite measured in the same run, and with the merge into the smallest target of its layout:
 * ratios, because absolute times depend on the machine.
 */
final class MergeResultTable {

  private MergeResultTable() {}

  static void print(PrintStream out, List<MergeResult> results) {
    out.println(
        "| layout | target rows | files | table MiB | files read | files rewritten | merge s |"
            + " merge min–max s | baseline s | baseline min–max s | merge / baseline |"
            + " merge vs smallest | baseline vs smallest | other procs (cores) |");
    out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (MergeResult r : results) {
      out.println(row(results, r));
    }
  }

  static String row(List<MergeResult> all, MergeResult r) {
    return String.format(
        Locale.ROOT,
        "| %s | %,d | %,d | %.1f | %,d | %,d | %.2f | %.2f–%.2f | %.2f | %.2f–%.2f | %.2f× | %.2f× |"
            + " %.2f× | %.2f / %.2f |",
        r.layout().text(),
        r.targetRows(),
        r.files(),
        r.bytes() / 1048576.0,
        r.detail().filesRead(),
        r.detail().filesRewritten(),
        r.merge().medianSeconds(),
        r.merge().minSeconds(),
        r.merge().maxSeconds(),
        r.baseline().medianSeconds(),
        r.baseline().minSeconds(),
        r.baseline().maxSeconds(),
        r.mergeVsBaseline(),
        MergeResult.vsSmallest(all, r, MergeResult::mergeSeconds),
        MergeResult.vsSmallest(all, r, MergeResult::baselineSeconds),
        r.merge().medianOtherCores(),
        r.baseline().medianOtherCores());
  }
}
