package dev.floe.bench;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.flink.job.SourceSplits;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.CombinedScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;

/** All paths for one slice size, on a fresh embedded catalog of its own. */
final class SliceBenchmark {
  static final LocalDate DAY = LocalDate.of(2026, 10, 3);

  /** A day with no staging rows: loading it measures Floe's fixed cost. */
  static final LocalDate EMPTY_DAY = DAY.plusDays(1);

  /** The manifest of the Floe paths; {@code %s} is the staging table's optional read hint. */
  private static final String JOB =
      """
      job: bench_fact_orders
      target: bench.fact_orders
      mode: overwrite
      slice: {column: order_date}
      query: |
        SELECT order_id, customer_id, amount, order_date
        FROM bench.staging_orders%s
        WHERE order_date >= :slice_start AND order_date < :slice_end
      """;

  private static final String CHECKS =
      """
      checks:
        - not_null: [order_id, amount]
        - unique: [order_id]
        - row_count: {min: 0}
      """;

  /** The split size {@link #SPLIT_PER_FILE_HINT} sets: 1 MB, below any staging file's size. */
  static final long HINT_SPLIT_SIZE = 1L << 20;

  /**
   * With --split-per-file: a split size below one file's size, so Iceberg's Flink source gets one
   * split per staging file and reads with that many tasks. It has to be a read option (a hint):
   * Iceberg 1.11's Flink reader ignores the table property {@code read.split.target-size}, because
   * the default of its Flink option {@code connector.iceberg.split-size} (128 MB) wins over table
   * properties.
   */
  static final String SPLIT_PER_FILE_HINT =
      " /*+ OPTIONS('split-size'='" + HINT_SPLIT_SIZE + "') */";

  /**
   * The no-op rerun of an untouched source, skipped before its job starts, in the results (goal 5
   * compares it with floe (no checks)).
   */
  static final String NO_OP_RERUN = "floe no-op rerun (no checks)";

  /**
   * The no-op rerun after a new source snapshot with the same rows, whose job runs and compares
   * content (goal 5 compares it with floe (no checks) too).
   */
  static final String NO_OP_RERUN_NEW_SOURCE = "floe no-op rerun, new source snapshot (no checks)";

  /**
   * Runs during which other processes took more CPU than this are measured again, and a goal
   * verdict from such a run says the machine was busy.
   */
  static final double MAX_OTHER_CORES = 0.3;

  private static final int MAX_RETRIES = 3;

  private final Path home;
  private final long rows;
  private final BenchOptions options;
  private final boolean coldStart;
  private final PrintStream log;
  private int floeRuns;
  private int sourceSplits;
  private int floeSourceTasks;
  private int kryoSamples = -1;

  /**
   * @param coldStart this is the JVM's first size: profile its very first run when profiling
   */
  SliceBenchmark(Path home, long rows, BenchOptions options, boolean coldStart, PrintStream log) {
    this.home = home;
    this.rows = rows;
    this.options = options;
    this.coldStart = coldStart && options.profile();
    this.log = log;
  }

  /** Prepares the tables, runs every path and returns their results in table order. */
  Outcome run() throws Exception {
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    ContentHash expected = prepare(config);
    int p = options.parallelism();
    String hint = options.splitPerFile() ? SPLIT_PER_FILE_HINT : "";
    JobSpec withChecks = job(String.format(JOB, hint) + CHECKS);
    JobSpec withoutChecks =
        job(String.format(JOB, hint).replace("bench_fact_orders", "bench_nochecks"));
    FloePath floeChecks =
        new FloePath("floe (checks)", config, withChecks, DAY.toString(), p, rows, expected, rows);
    FloePath floePlain =
        new FloePath(
            "floe (no checks)", config, withoutChecks, DAY.toString(), p, rows, expected, rows);
    BaselinePath baseline =
        new BaselinePath(config, BenchTables.BASELINE, hint, DAY.toString(), p, rows);
    // Runs right after floe (no checks) loaded the same rows: an unchanged rerun, a no-op that
    // Floe decides from lineage before starting a job, because the source is untouched.
    FloePath floeRerun =
        new FloePath(
            NO_OP_RERUN,
            config,
            withoutChecks,
            DAY.toString(),
            p,
            rows,
            expected,
            rows,
            FloePath.Rerun.SOURCE_UNTOUCHED);
    // The same rerun after the source got a new snapshot with the same rows: the job runs, and
    // its content comparison decides the no-op.
    FloePath floeRerunNewSource =
        new FloePath(
            NO_OP_RERUN_NEW_SOURCE,
            config,
            withoutChecks,
            DAY.toString(),
            p,
            rows,
            expected,
            rows,
            FloePath.Rerun.NEW_SOURCE_SNAPSHOT);
    RawAppenderPath raw = new RawAppenderPath(config, BenchTables.RAW, DAY, p, rows);
    ReadWritePath readWrite =
        new ReadWritePath(config, BenchTables.STAGING, BenchTables.READ_WRITE, DAY, p, rows);
    // Runs after floe (checks) has loaded DAY, so the table still holds those rows afterwards.
    FloePath floeEmpty =
        new FloePath(
            "floe empty slice (fixed cost)",
            config,
            withChecks,
            EMPTY_DAY.toString(),
            p,
            0,
            ContentHash.empty(),
            rows);
    List<WritePath> paths =
        List.of(
            floeChecks,
            floePlain,
            floeRerun,
            floeRerunNewSource,
            baseline,
            raw,
            readWrite,
            floeEmpty);

    double coldSeconds = Double.NaN;
    for (int w = 1; w <= options.warmup(); w++) {
      for (WritePath path : paths) {
        Sample s;
        if (coldStart && w == 1 && path == paths.get(0)) {
          // The JVM's first run: what every `floe run` from the command line pays.
          s = profile(path, "cold start: the first Floe run in this JVM (warm-up, not measured)");
          coldSeconds = s.wallSeconds();
        } else {
          s = Sample.of(path);
          path.verify();
          countFloeRun(path);
        }
        progress("warm-up " + w, path, s);
      }
    }
    // Interleaved rounds: drift (heap growth, page cache, a noisy neighbour) hits every path alike.
    Map<WritePath, List<Sample>> samples = new LinkedHashMap<>();
    paths.forEach(path -> samples.put(path, new ArrayList<>()));
    for (int r = 1; r <= options.repeat(); r++) {
      for (WritePath path : paths) {
        samples.get(path).add(measure(path, "run " + r + "/" + options.repeat()));
      }
    }
    if (options.deepVerify()) {
      deepVerify(config, expected);
    }
    if (options.profile()) {
      profile(floeChecks, "profile floe (checks)");
      profile(floePlain, "profile floe (no checks)");
      profile(floeRerun, "profile floe no-op rerun");
      profile(floeRerunNewSource, "profile floe no-op rerun after a new source snapshot");
      profile(floeEmpty, "profile floe empty slice");
      profile(baseline, "profile iceberg sql overwrite");
      profile(raw, "profile raw appender (limit)");
      profile(readWrite, "profile read + write, plain Java (limit)");
    }
    List<PathResult> results = new ArrayList<>();
    samples.forEach(
        (path, list) ->
            results.add(new PathResult(path.name(), path.rows(), path.rowsWritten(), list)));
    return new Outcome(
        rows, results, floeRuns, kryoSamples, coldSeconds, sourceSplits, floeSourceTasks);
  }

  /**
   * One measured run. On a shared machine a neighbour's build can double a run, so it first waits
   * for the host to go idle, and a run during which other processes still took more than {@link
   * #MAX_OTHER_CORES} is measured again (at most {@link #MAX_RETRIES} times, then kept as is: the
   * table's "other procs" column shows it).
   */
  private Sample measure(WritePath path, String round) throws Exception {
    for (int attempt = 1; ; attempt++) {
      awaitQuiet();
      System.gc(); // start each run from a collected heap, not the previous run's garbage
      Sample s = Sample.of(path);
      path.verify();
      countFloeRun(path);
      progress(round, path, s);
      if (!options.waitQuiet() || !(s.otherCores() > MAX_OTHER_CORES) || attempt > MAX_RETRIES) {
        return s;
      }
      log.printf(
          Locale.ROOT,
          "[%,d rows] discarded: other processes took %.2f cores meanwhile; measuring again%n",
          rows,
          s.otherCores());
    }
  }

  /**
   * @param floeRuns Floe runs that succeeded, all with {@code pipeline.generic-types=false}
   * @param kryoSamples Kryo frames seen in profiled Floe runs, or -1 when none was profiled
   * @param coldSeconds the JVM's first Floe run, when this size had it and profiled it, else NaN
   * @param sourceSplits read splits of the staging table with Iceberg's packing or the read hint
   *     (the baseline source's inferred parallelism)
   * @param floeSourceTasks the tasks Floe's source reads with: its own packing ({@link
   *     SourceSplits}) or the read hint, at most the writers' parallelism
   */
  record Outcome(
      long rows,
      List<PathResult> results,
      int floeRuns,
      int kryoSamples,
      double coldSeconds,
      int sourceSplits,
      int floeSourceTasks) {}

  private ContentHash prepare(CatalogConfig config) {
    Catalog catalog = Catalogs.open(config);
    try {
      Table staging = BenchTables.create(catalog);
      long start = System.nanoTime();
      ContentHash expected = StagingData.write(staging, rows, DAY, options.parallelism());
      staging.refresh();
      log.printf(
          Locale.ROOT,
          "[%,d rows] staging written in %.1f s: %s files, %.1f MiB%n",
          rows,
          (System.nanoTime() - start) / 1e9,
          staging.currentSnapshot().summary().get("total-data-files"),
          Long.parseLong(staging.currentSnapshot().summary().get("total-files-size")) / 1048576.0);
      Long hinted = options.splitPerFile() ? HINT_SPLIT_SIZE : null;
      sourceSplits = splits(staging, hinted);
      floeSourceTasks =
          Math.min(
              options.parallelism(),
              splits(staging, hinted != null ? hinted : SourceSplits.SPLIT_SIZE));
      return expected;
    } finally {
      Catalogs.close(catalog);
    }
  }

  /** Re-reads both targets' slice: their rows, not just their counts, must be the staging rows. */
  private void deepVerify(CatalogConfig config, ContentHash expected) {
    long start = System.nanoTime();
    Catalog catalog = Catalogs.open(config);
    try {
      for (String target : BenchTables.TARGETS) {
        Table table = Catalogs.loadTable(catalog, target);
        ContentHash actual =
            TableContent.hash(table, Expressions.equal("order_date", DAY.toString()));
        if (!actual.equals(expected)) {
          throw new IllegalStateException(
              "Wrong content in " + target + ": " + actual + ", expected " + expected);
        }
      }
    } finally {
      Catalogs.close(catalog);
    }
    log.printf(
        Locale.ROOT,
        "[%,d rows] deep verify: all %d targets hold exactly the staging rows (%.1f s)%n",
        rows,
        BenchTables.TARGETS.size(),
        (System.nanoTime() - start) / 1e9);
  }

  /** Runs and verifies {@code path} once under the stack sampler and prints the profile. */
  private Sample profile(WritePath path, String title) throws Exception {
    StackSampler sampler = StackSampler.start(5, Thread.currentThread(), path.entryMethod());
    Sample s;
    try {
      s = Sample.of(path);
    } finally {
      sampler.close();
    }
    path.verify();
    countFloeRun(path);
    sampler.print(
        System.out, String.format(Locale.ROOT, "%s, %,d rows", title, rows), s.wallSeconds());
    if (path instanceof FloePath) {
      kryoSamples = Math.max(0, kryoSamples) + sampler.kryoSamples();
    }
    return s;
  }

  /**
   * Read splits of the staging table at {@code splitSize} (null: the table's default): Iceberg's
   * Flink source infers its parallelism from this number, capped by the job's settings.
   */
  private static int splits(Table staging, Long splitSize) {
    int splits = 0;
    TableScan scan = staging.newScan();
    if (splitSize != null) {
      scan = scan.option(TableProperties.SPLIT_SIZE, splitSize.toString());
    }
    try (CloseableIterable<CombinedScanTask> tasks = scan.planTasks()) {
      for (CombinedScanTask ignored : tasks) {
        splits++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot plan a scan of " + staging.name(), e);
    }
    return splits;
  }

  private void countFloeRun(WritePath path) {
    if (path instanceof FloePath) {
      floeRuns++;
    }
  }

  /** On a shared machine a neighbour's build can double a run: wait until the host is idle. */
  private void awaitQuiet() throws InterruptedException {
    if (!options.waitQuiet()) {
      return;
    }
    double waited = HostLoad.awaitQuiet(0.3, 180);
    if (waited < 0) {
      log.printf("[%,d rows] other processes stayed busy for 3 min; measuring anyway%n", rows);
    } else if (waited > 3) {
      log.printf(
          Locale.ROOT, "[%,d rows] waited %.0f s for other processes to go idle%n", rows, waited);
    }
  }

  private void progress(String round, WritePath path, Sample s) {
    log.printf(
        Locale.ROOT,
        "[%,d rows] %-8s %-34s %6.2f s  (CPU %5.2f s, GC %4.2f s, heap peak %s GiB, RSS peak %s"
            + " GiB, other procs %.2f cores)%n",
        rows,
        round,
        path.name(),
        s.wallSeconds(),
        s.cpuSeconds(),
        s.gcSeconds(),
        ResultTable.gib(s.heapPeakBytes()),
        ResultTable.gib(s.rssPeakBytes()),
        s.otherCores());
  }

  static JobSpec job(String yaml) {
    return JobSpecParser.parse(Manifests.parse("benchmarks/bench.yaml", yaml), yaml);
  }
}
