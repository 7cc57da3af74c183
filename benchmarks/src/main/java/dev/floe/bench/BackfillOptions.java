package dev.floe.bench;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * What the backfill benchmark measures. Parsed by hand, like {@link BenchOptions}.
 *
 * @param slices day slices of the range (one staging file each)
 * @param rowsPerSlice rows of every slice
 * @param concurrency the {@code --max-concurrency} values of the backfill paths, in table order
 * @param slicesPerJob the {@code --slices-per-job} values of the backfill paths, each measured with
 *     every {@code concurrency}
 * @param parallelism Flink parallelism of every slice's job, in every path
 * @param repeat measured rounds (every path once per round, each on a fresh catalog); the median is
 *     reported
 * @param warmup unmeasured rounds first, each over {@link #warmupSlices()} slices
 * @param checks give the job not_null, unique and row_count checks (off: the bare load)
 * @param cliRun also time one {@code bin/floe run} process for one slice (a fresh JVM)
 * @param workDir where the catalogs go; null means a fresh temp directory
 * @param keep keep the catalogs afterwards
 * @param waitQuiet before each measured run, wait (up to 3 min) until other processes are idle
 * @param loop measure the {@code floe run} loop baseline (one MiniCluster per slice)
 * @param single measure goal 1's throughput in the same run: the whole range's rows as ONE slice
 *     loaded by one {@code floe run}, each backfill compared with its rows/s
 * @param singleParallelism Flink parallelism of that single run (goal 1 measures it at 2)
 */
record BackfillOptions(
    int slices,
    long rowsPerSlice,
    List<Integer> concurrency,
    List<Integer> slicesPerJob,
    int parallelism,
    int repeat,
    int warmup,
    boolean checks,
    boolean cliRun,
    Path workDir,
    boolean keep,
    boolean waitQuiet,
    boolean loop,
    boolean single,
    int singleParallelism) {

  /** A warm-up round loads this many slices at most: enough to warm the JIT, not a full range. */
  static final int WARMUP_SLICES = 4;

  static final String USAGE =
      """
      Usage: benchmarks/run.sh backfill [--slices 100] [--rows-per-slice 10k]
                                        [--concurrency 1,2] [--parallelism 1] [--repeat 1]
                                        [--warmup 1] [--checks] [--no-cli] [--dir DIR] [--keep]
                                        [--no-wait-quiet] [--no-loop] [--no-single]
                                        [--single-parallelism 2] [--slices-per-job 1]
        --slices          day slices in the range (one staging file per day)
        --rows-per-slice  rows of each slice; 10_000, 10000 and 10k are accepted
        --concurrency     --max-concurrency of the backfill paths, comma-separated
        --slices-per-job  --slices-per-job of the backfill paths, comma-separated (each with
                          every --concurrency)
        --parallelism     Flink parallelism of each slice's job, in every path
        --repeat          measured rounds, each path on a fresh catalog (median reported)
        --warmup          unmeasured rounds first (each over at most 4 slices)
        --checks          give the job not_null + unique + row_count checks
        --no-cli          skip timing one `bin/floe run` process for one slice
        --dir             put the catalogs under DIR instead of a temp directory
        --keep            do not delete the catalogs afterwards
        --no-wait-quiet   do not wait for other processes to go idle before each measured run
        --no-loop         skip the `floe run` loop baseline (a MiniCluster per slice)
        --no-single       skip the single run of the whole range's rows as one slice
        --single-parallelism  Flink parallelism of that single run
      """;

  BackfillOptions {
    concurrency = List.copyOf(concurrency);
    slicesPerJob = List.copyOf(slicesPerJob);
  }

  static BackfillOptions defaults() {
    return new BackfillOptions(
        100,
        10_000,
        List.of(1, 2),
        List.of(1),
        1,
        1,
        1,
        false,
        true,
        null,
        false,
        true,
        true,
        true,
        2);
  }

  static BackfillOptions parse(String... args) {
    Builder b = new Builder(defaults());
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--slices" -> b.slices = atLeast(value(args, ++i, arg), arg, 1);
        case "--rows-per-slice" ->
            b.rowsPerSlice = BenchOptions.parseRowCount(value(args, ++i, arg));
        case "--concurrency" -> b.concurrency = positives(value(args, ++i, arg), arg);
        case "--slices-per-job" -> b.slicesPerJob = positives(value(args, ++i, arg), arg);
        case "--parallelism" -> b.parallelism = atLeast(value(args, ++i, arg), arg, 1);
        case "--repeat" -> b.repeat = atLeast(value(args, ++i, arg), arg, 1);
        case "--warmup" -> b.warmup = atLeast(value(args, ++i, arg), arg, 0);
        case "--checks" -> b.checks = true;
        case "--no-cli" -> b.cliRun = false;
        case "--dir" -> b.workDir = Path.of(value(args, ++i, arg));
        case "--keep" -> b.keep = true;
        case "--no-wait-quiet" -> b.waitQuiet = false;
        case "--no-loop" -> b.loop = false;
        case "--no-single" -> b.single = false;
        case "--single-parallelism" -> b.singleParallelism = atLeast(value(args, ++i, arg), arg, 1);
        default -> throw new IllegalArgumentException("Cannot use argument '" + arg + "'");
      }
    }
    return b.build();
  }

  /** Slices of a warm-up round. */
  int warmupSlices() {
    return Math.min(slices, WARMUP_SLICES);
  }

  /** Flink jobs the {@code floe run} loop runs over the range: one per slice. */
  int loopFlinkJobs() {
    return slices;
  }

  /**
   * Flink jobs one backfill of the range runs at {@code slicesPerJob}: the sample slice twice (on
   * main, then into a scratch branch), then {@link #flinkJobsAfterSample} for the other slices.
   */
  int backfillFlinkJobs(int slicesPerJob) {
    return 2 + flinkJobsAfterSample(slices, slicesPerJob);
  }

  /**
   * Flink jobs a backfill runs for the {@code slices - 1} slices after its sample: they are
   * consecutive, so jobs of up to {@code slicesPerJob} slices each (one job per slice at 1).
   */
  static int flinkJobsAfterSample(int slices, int slicesPerJob) {
    int rest = slices - 1;
    return (rest + slicesPerJob - 1) / slicesPerJob;
  }

  /** Rows of the whole range. */
  long totalRows() {
    return Math.multiplyExact(rowsPerSlice, slices);
  }

  /** Distinct values in the order given: {@code 2,1,2} measures 2 then 1. */
  private static List<Integer> positives(String text, String option) {
    LinkedHashSet<Integer> values = new LinkedHashSet<>();
    for (String part : text.split(",")) {
      values.add(atLeast(part, option, 1));
    }
    return List.copyOf(values);
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException("Cannot use " + option + ": it needs a value");
    }
    return args[i];
  }

  private static int atLeast(String text, String option, int min) {
    try {
      int n = Integer.parseInt(text.trim().replace("_", ""));
      if (n < min) {
        throw new IllegalArgumentException(
            "Cannot use " + option + " " + text.trim() + ": must be >= " + min);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Cannot read " + option + " '" + text + "'", e);
    }
  }

  /** A mutable copy, so parse() can set one field at a time. */
  private static final class Builder {
    int slices;
    long rowsPerSlice;
    List<Integer> concurrency;
    List<Integer> slicesPerJob;
    int parallelism;
    int repeat;
    int warmup;
    boolean checks;
    boolean cliRun;
    Path workDir;
    boolean keep;
    boolean waitQuiet;
    boolean loop;
    boolean single;
    int singleParallelism;

    Builder(BackfillOptions o) {
      slices = o.slices;
      rowsPerSlice = o.rowsPerSlice;
      concurrency = o.concurrency;
      slicesPerJob = o.slicesPerJob;
      parallelism = o.parallelism;
      repeat = o.repeat;
      warmup = o.warmup;
      checks = o.checks;
      cliRun = o.cliRun;
      workDir = o.workDir;
      keep = o.keep;
      waitQuiet = o.waitQuiet;
      loop = o.loop;
      single = o.single;
      singleParallelism = o.singleParallelism;
    }

    BackfillOptions build() {
      return new BackfillOptions(
          slices,
          rowsPerSlice,
          concurrency,
          slicesPerJob,
          parallelism,
          repeat,
          warmup,
          checks,
          cliRun,
          workDir,
          keep,
          waitQuiet,
          loop,
          single,
          singleParallelism);
    }
  }
}
