package dev.floe.bench;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Measures Floe's write path against Iceberg's own Flink SQL {@code INSERT OVERWRITE} for slices of
 * N rows and prints the medians and ratios. Run it with {@code benchmarks/run.sh}; it is never part
 * of the build's tests (project rule: speed goals live in benchmarks, not in timed tests).
 *
 * <p>Paths, each on the same catalog, source data and parallelism:
 *
 * <ol>
 *   <li>Floe {@code SliceJob.run} with checks not_null + unique(order_id) + row_count;
 *   <li>the same job without checks;
 *   <li>Iceberg's Flink SQL {@code INSERT OVERWRITE ... WHERE order_date = day} (the baseline);
 *   <li>Floe with an empty slice: the fixed cost of a run.
 * </ol>
 *
 * Results go to stdout (Markdown), progress to stderr.
 */
public final class WritePathBenchmark {

  private WritePathBenchmark() {}

  public static void main(String[] args) throws Exception {
    BenchOptions options;
    try {
      options = BenchOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.print(BenchOptions.USAGE);
      System.exit(2);
      return;
    }
    PrintStream out = System.out;
    printEnvironment(out, options, args);
    Path root = BenchRuntime.workDir(options.workDir(), "floe-bench-");
    List<SliceBenchmark.Outcome> outcomes = new ArrayList<>();
    try {
      for (long rows : options.rows()) {
        BenchRuntime.resetHeapPeaks();
        SliceBenchmark.Outcome outcome =
            new SliceBenchmark(
                    root.resolve("rows-" + rows), rows, options, outcomes.isEmpty(), System.err)
                .run();
        outcomes.add(outcome);
        out.printf(Locale.ROOT, "%n### %,d rows%n%n", rows);
        ResultTable.print(out, List.of(outcome.results()));
        printFooter(out, options, outcome);
      }
      if (outcomes.size() > 1) {
        out.printf("%n### All sizes%n%n");
        ResultTable.print(out, outcomes.stream().map(SliceBenchmark.Outcome::results).toList());
      }
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

  private static void printEnvironment(PrintStream out, BenchOptions options, String[] args) {
    BenchRuntime.printHeader(out, "Floe write-path benchmark");
    out.printf(
        Locale.ROOT,
        "- parallelism %d%s, %d warm-up + %d measured runs per path, median reported%n",
        options.parallelism(),
        options.splitPerFile() ? ", one read split per staging file" : "",
        options.warmup(),
        options.repeat());
    out.println("- args: " + (args.length == 0 ? "(defaults)" : String.join(" ", args)));
  }

  private static void printFooter(
      PrintStream out, BenchOptions options, SliceBenchmark.Outcome outcome) {
    out.println();
    out.printf(
        Locale.ROOT,
        "Source: %d staging file(s) in %d read split(s)%s. Iceberg's Flink source infers its"
            + " parallelism from the split count, so the slice is read by %d task(s) in every"
            + " loading path; Floe's writers run with parallelism %d (chained to the source only"
            + " when both match), the baseline's writer with its input's.%n",
        options.parallelism(),
        outcome.sourceSplits(),
        options.splitPerFile()
            ? " (--split-per-file)"
            : " (Iceberg's default packing: up to 128 MB per split)",
        outcome.sourceSplits(),
        options.parallelism());
    if (!Double.isNaN(outcome.coldSeconds())) {
      out.printf(
          Locale.ROOT,
          "Cold start: the JVM's first Floe run (warm-up, not in the table) took %.2f s; every"
              + " `floe run` from the command line starts a fresh JVM.%n",
          outcome.coldSeconds());
    }
    out.printf(
        Locale.ROOT,
        "Kryo fallback in Floe runs: none. SliceJob runs with pipeline.generic-types=false, where a"
            + " fallback fails the job, and all %d Floe runs succeeded%s.%n",
        outcome.floeRuns(),
        outcome.kryoSamples() < 0
            ? ""
            : String.format(
                Locale.ROOT, "; Kryo frames in its profiled runs: %d", outcome.kryoSamples()));
    out.printf(
        Locale.ROOT,
        "Heap: max %.1f GiB; peak used while measuring this size ≤ %.1f GiB (sum of pool peaks).%n",
        BenchRuntime.maxHeapGib(),
        BenchRuntime.heapPeakBytes() / 1073741824.0);
    out.println(
        "Every run was verified: a new snapshot holding exactly the slice's rows (Floe: run id,"
            + " floe.rows, content hash and total-records; baseline: added- and total-records).");
  }
}
