package dev.floe.bench;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Measures backfills of many small slices: {@code floe backfill} ({@link
 * dev.floe.flink.backfill.Backfill#run}, one shared local Flink cluster, at several
 * max-concurrencies) against the baseline measured in the same run, a loop of {@code floe run}
 * calls in one JVM (each run starting and stopping its own MiniCluster). Prints total and per-slice
 * times and the ratios. Run it with {@code benchmarks/run.sh backfill}; it is never part of the
 * build's tests.
 *
 * <p>Results go to stdout (Markdown), progress to stderr.
 */
public final class BackfillBenchmark {

  private BackfillBenchmark() {}

  public static void main(String[] args) throws Exception {
    BackfillOptions options;
    try {
      options = BackfillOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.print(BackfillOptions.USAGE);
      System.exit(2);
      return;
    }
    PrintStream out = System.out;
    printEnvironment(out, options, args);
    Path root = BenchRuntime.workDir(options.workDir(), "floe-bench-backfill-");
    int exitCode = 0;
    try {
      BenchRuntime.resetHeapPeaks();
      BackfillRounds.Outcome outcome = new BackfillRounds(root, options, System.err).run();
      out.printf(
          Locale.ROOT, "%n### %,d slices × %,d rows%n%n", options.slices(), options.rowsPerSlice());
      BackfillResultTable.print(out, outcome.results());
      printFooter(out, options, outcome);
    } catch (Exception | Error e) {
      // A wrong result or a failed run ends the benchmark with no table for it.
      System.err.println("Benchmark stopped: " + e.getMessage());
      e.printStackTrace();
      exitCode = 1;
    } finally {
      if (options.keep()) {
        System.err.println("Catalogs kept under " + root);
      } else {
        BenchRuntime.deleteTree(root);
      }
    }
    // Flink's MiniCluster leaves non-daemon threads behind; the results are out, so end here.
    System.exit(exitCode);
  }

  private static void printEnvironment(PrintStream out, BackfillOptions options, String[] args) {
    BenchRuntime.printHeader(
        out,
        "Floe backfill benchmark",
        options.loop()
            ? "floe run loop: a local MiniCluster per run; backfill: one shared local cluster"
            : "backfill: one shared local cluster");
    out.printf(
        Locale.ROOT,
        "- range: %,d day slices × %,d rows (one staging Parquet file per day), job mode"
            + " overwrite%s, parallelism %d per slice%n",
        options.slices(),
        options.rowsPerSlice(),
        options.checks() ? " with checks not_null + unique + row_count" : " without checks",
        options.parallelism());
    out.printf(
        Locale.ROOT,
        "- every path on a fresh embedded catalog with the same staging rows; %d warm-up round(s)"
            + " of ≤ %d slices, then %d measured round(s), median reported%n",
        options.warmup(),
        options.warmupSlices(),
        options.repeat());
    out.println("- args: " + (args.length == 0 ? "(defaults)" : String.join(" ", args)));
  }

  /**
   * The footer's sentences on the baseline and the backfill paths: what ran, and how many Flink
   * jobs each ran over the range, counted from the options by {@link
   * BackfillOptions#backfillFlinkJobs}, the rule {@link BackfillPath#verify} holds every run to.
   */
  static String whatRan(BackfillOptions options) {
    StringBuilder text = new StringBuilder();
    if (options.loop()) {
      text.append(
          String.format(
              Locale.ROOT,
              "Baseline: `SliceJob.run` (what `floe run` calls) for each of the %,d slices in turn,"
                  + " in this JVM with no shared cluster open, so each run starts and stops a"
                  + " MiniCluster of its own: %,d Flink jobs.%n",
              options.slices(),
              options.loopFlinkJobs()));
    } else {
      text.append(
          "Baseline: none ran (--no-loop): the `floe run` loop was not measured, so no path has a"
              + " time vs baseline."
              + System.lineSeparator());
    }
    int rest = Math.max(0, options.slices() - 1);
    List<String> jobs = new ArrayList<>();
    for (int perJob : options.slicesPerJob()) {
      int afterSample = BackfillOptions.flinkJobsAfterSample(options.slices(), perJob);
      jobs.add(
          String.format(
              Locale.ROOT,
              "%,d Flink %s (2 for the sample, %,d for the other %,d %s)%s",
              options.backfillFlinkJobs(perJob),
              options.backfillFlinkJobs(perJob) == 1 ? "job" : "jobs",
              afterSample,
              rest,
              rest == 1 ? "slice" : "slices",
              options.slicesPerJob().size() == 1 && perJob == 1
                  ? ""
                  : " with --slices-per-job " + perJob));
    }
    text.append(
        String.format(
            Locale.ROOT,
            "Backfill: `Backfill.run` plans the range, runs the sample slice (the last) on main and"
                + " once more into a scratch branch, compares both, drops the branch, then runs the"
                + " other %,d %s with at most max-concurrency in flight, all on one shared local"
                + " cluster of max-concurrency × %d slots: %s.%n",
            rest,
            rest == 1 ? "slice" : "slices",
            options.parallelism(),
            String.join("; ", jobs)));
    return text.toString();
  }

  private static void printFooter(
      PrintStream out, BackfillOptions options, BackfillRounds.Outcome outcome) {
    out.println();
    out.print(whatRan(options));
    if (options.slicesPerJob().stream().anyMatch(n -> n > 1)) {
      out.println(
          "slices-per-job N: the other slices in Flink jobs of up to N consecutive slices each"
              + " (`--slices-per-job`), one query planned per job, every slice still its own"
              + " commit; each slice's reported time is its job's.");
    }
    out.println(
        "s per slice: the path's total over its slices, fixed costs included. Median slice job s:"
            + " each slice's run as it reported its own time (the backfill's sample: its run on"
            + " main); the backfill's plan, cluster start and the sample's second run fall outside"
            + " it, and with several slices in flight it exceeds s per slice.");
    BackfillPathResult single = BackfillPathResult.singleOf(outcome.results());
    if (single != null) {
      out.printf(
          Locale.ROOT,
          "Single run (issue 15 goal 1's throughput, measured here): the range's %,d rows staged"
              + " as one day in %d files and loaded by one `SliceJob.run` at parallelism %d with a"
              + " MiniCluster of its own: %,.0f rows/s. Goal 7: a backfill's rows/s ≥ 0.7× that"
              + " (rows/s vs single run), overhead s per slice = (backfill total − rows ÷ single"
              + " rows/s) ÷ slices < 0.1.%n",
          options.totalRows(),
          options.singleParallelism(),
          options.singleParallelism(),
          single.rowsPerSecond());
    }
    BackfillPathResult baseline = BackfillPathResult.baselineOf(outcome.results());
    if (outcome.cliRun() != null) {
      out.printf(
          Locale.ROOT,
          "One `bin/floe run` process for one slice (a new JVM per slice, as a shell loop over the"
              + " command would pay) took %.2f s wall, %.1f s CPU (other procs %.2f cores)%s.%n",
          outcome.cliRun().wallSeconds(),
          outcome.cliRun().cpuSeconds(),
          outcome.cliRun().otherCores(),
          baseline == null
              ? ""
              : String.format(
                  Locale.ROOT,
                  ": %.1f× the in-process loop's %.3f s per slice",
                  outcome.cliRun().wallSeconds() / baseline.secondsPerSlice(),
                  baseline.secondsPerSlice()));
      if (outcome.cliArchiveRun() != null) {
        out.printf(
            Locale.ROOT,
            "The first such process wrote bin/floe's class-data archive for `run` (once per build of"
                + " the jar) and took %.2f s wall, %.1f s CPU; the figure above is a second"
                + " process, on a fresh catalog.%n",
            outcome.cliArchiveRun().wallSeconds(),
            outcome.cliArchiveRun().cpuSeconds());
      }
    } else {
      out.println("`bin/floe run` in a new JVM: not measured (" + outcome.cliSkipped() + ").");
    }
    out.printf(
        Locale.ROOT,
        "Heap: max %.1f GiB; peak used ≤ %.1f GiB (sum of pool peaks).%n",
        BenchRuntime.maxHeapGib(),
        BenchRuntime.heapPeakBytes() / 1073741824.0);
    out.println(
        "Every run was verified, warm-up included: each slice committed with its rows and the"
            + " content hash of its staging day; read back from the target, every slice's content"
            + " hash equals its staging day's, total-records is the range's, and the target holds"
            + " exactly one snapshot per slice and no branch but main (backfill: each snapshot"
            + " carries the backfill id).");
  }
}
