package dev.floe.bench;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Measures how the cost of a copy-on-write {@code mode: merge} grows with the target: for each
 * target size and key layout it builds a keyed, day-partitioned {@code bench.dim}, merges a fixed
 * batch (half updates of existing keys from a few days, half new keys), and compares it with the
 * baseline measured in the same run, a full rewrite of the merged table ({@code mode: swap}).
 * Prints the medians, the merge/baseline ratio and each one's growth against the smallest target.
 * Run it with {@code benchmarks/run.sh merge}; it is never part of the build's tests.
 *
 * <p>Results go to stdout (Markdown), progress to stderr.
 */
public final class MergeBenchmark {

  private MergeBenchmark() {}

  public static void main(String[] args) throws Exception {
    MergeOptions options;
    try {
      options = MergeOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.print(MergeOptions.USAGE);
      System.exit(2);
      return;
    }
    PrintStream out = System.out;
    printEnvironment(out, options, args);
    Path root = BenchRuntime.workDir(options.workDir(), "floe-bench-merge-");
    List<MergeResult> results = new ArrayList<>();
    try {
      for (long rows : options.targetRows()) {
        for (Layout layout : options.layouts()) {
          BenchRuntime.resetHeapPeaks();
          Path home = root.resolve(layout.text() + "-" + rows);
          MergeSizeBenchmark.Outcome outcome =
              new MergeSizeBenchmark(home, layout, rows, options, out, System.err).run();
          results.add(outcome.result());
          out.printf(Locale.ROOT, "%n### %s layout, %,d target rows%n%n", layout.text(), rows);
          MergeResultTable.print(out, List.of(outcome.result()));
          printFooter(out, options, outcome);
          if (!options.keep()) {
            BenchRuntime.deleteTree(home); // the next size needs the disk more than this one
          }
        }
      }
      out.printf("%n### All sizes%n%n");
      List<MergeResult> ordered = new ArrayList<>(results);
      ordered.sort(
          (a, b) ->
              a.layout() != b.layout()
                  ? a.layout().compareTo(b.layout())
                  : Long.compare(a.targetRows(), b.targetRows()));
      MergeResultTable.print(out, ordered);
    } finally {
      if (options.keep()) {
        System.err.println("Catalogs kept under " + root);
      } else {
        BenchRuntime.deleteTree(root);
      }
    }
    // Flink's MiniCluster leaves non-daemon threads behind; the results are out, so end here.
    System.exit(0);
  }

  private static void printEnvironment(PrintStream out, MergeOptions options, String[] args) {
    BenchRuntime.printHeader(out, "Floe merge benchmark: copy-on-write cost vs target size");
    out.printf(
        Locale.ROOT,
        "- target bench.dim: key id, %d day partitions, %s, zstd Parquet, format v2; layouts: %s%n",
        options.days(),
        options.rowsPerFile() == 0
            ? "one file per day"
            : String.format(
                Locale.ROOT,
                "files of %,d rows (clustered: at most; random: about)",
                options.rowsPerFile()),
        String.join(", ", options.layouts().stream().map(Layout::text).toList()));
    out.printf(
        Locale.ROOT,
        "- batch: %,d keys = %,d updates (newer version, every other id from the first rows of the"
            + " %d newest days of the clustered layout) + %,d new keys (newest day)%n",
        options.batchKeys(),
        options.updateKeys(),
        options.hotDays(),
        options.newKeys());
    out.printf(
        Locale.ROOT,
        "- merge: `mode: merge`, key [id], ordering version; baseline: `mode: swap` of the same"
            + " merged result (anti-join + batch, broadcast) into a copy of the table%n");
    out.printf(
        Locale.ROOT,
        "- parallelism %d, %d warm-up + %d measured runs per path, median of RunResult.elapsedMillis"
            + " reported%n",
        options.parallelism(),
        options.warmup(),
        options.repeat());
    out.println("- args: " + (args.length == 0 ? "(defaults)" : String.join(" ", args)));
  }

  private static void printFooter(
      PrintStream out, MergeOptions options, MergeSizeBenchmark.Outcome outcome) {
    MergeResult r = outcome.result();
    MergeDetail d = r.detail();
    out.println();
    out.printf(
        Locale.ROOT,
        "Merge: %,d keys, %,d inserted, %,d updated; read %d and rewrote %d of %d files (%.1f %% of"
            + " the files rewritten). Baseline: reads all %d files in %d read split(s) (Iceberg's"
            + " default planning) and writes the whole table.%n",
        d.keys(),
        d.inserted(),
        d.updated(),
        d.filesRead(),
        d.filesRewritten(),
        d.filesInScope(),
        100.0 * d.filesRewritten() / Math.max(1, d.filesInScope()),
        r.files(),
        outcome.splits());
    out.printf(
        Locale.ROOT,
        "Heap: max %.1f GiB; peak used while measuring this size ≤ %.1f GiB (sum of pool peaks).%n",
        BenchRuntime.maxHeapGib(),
        BenchRuntime.heapPeakBytes() / 1073741824.0);
    out.println(
        "Every run was verified: the merge's counts, its snapshot (parent, lineage, batch hash,"
            + " total-records, deleted files = rewritten files), the rebuild's content hash"
            + (options.deepVerify()
                ? "; after the last round both tables were re-read and their rows compared with the"
                    + " expected merge result."
                : " (no deep re-read: --no-deep-verify)."));
  }
}
