package dev.floe.bench;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.lineage.ContentHash;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/**
 * Runs every path of the backfill benchmark: warm-up rounds, then measured rounds with every path
 * once per round, each run on a fresh catalog holding the same staged range, each run verified.
 */
final class BackfillRounds {

  /** The manifest every path runs; {@code %s} takes the optional checks. */
  static final String JOB =
      """
      job: bench_backfill
      target: bench.fact_orders
      mode: overwrite
      slice: {column: order_date}
      query: |
        SELECT order_id, customer_id, amount, order_date
        FROM bench.staging_orders
        WHERE order_date >= :slice_start AND order_date < :slice_end
      %s""";

  static final String CHECKS =
      """
      checks:
        - not_null: [order_id, amount]
        - unique: [order_id]
        - row_count: {min: 1}
      """;

  /** Runs during which other processes took more CPU than this are measured again. */
  private static final double MAX_OTHER_CORES = 0.3;

  private static final int MAX_RETRIES = 3;

  private final Path root;
  private final BackfillOptions options;
  private final PrintStream log;
  private final String manifest;

  /** Per range size, the hashes of the first staging: every later staging must match them. */
  private final Map<String, List<ContentHash>> stagedHashes = new HashMap<>();

  private int catalogs;

  BackfillRounds(Path root, BackfillOptions options, PrintStream log) {
    this.root = root;
    this.options = options;
    this.log = log;
    this.manifest = String.format(JOB, options.checks() ? CHECKS : "");
  }

  /**
   * @param results every path's measured rounds, baseline first
   * @param cliRun one {@code bin/floe run} process for one slice, or null when not measured
   * @param cliArchiveRun the first such process when it wrote {@code bin/floe}'s class-data archive
   *     (once per build of the jar, so {@code cliRun} is a second process), or null
   * @param cliSkipped why it was not measured, or null
   */
  record Outcome(
      List<BackfillPathResult> results, Sample cliRun, Sample cliArchiveRun, String cliSkipped) {}

  Outcome run() throws Exception {
    JobSpec job = SliceBenchmark.job(manifest);
    List<RangePath> paths = new ArrayList<>();
    if (options.loop()) {
      paths.add(new RunLoopPath(job, options.parallelism()));
    }
    if (options.single()) {
      paths.add(new SingleRunPath(job, options.singleParallelism()));
    }
    for (int perJob : options.slicesPerJob()) {
      for (int n : options.concurrency()) {
        paths.add(new BackfillPath(job, n, perJob, options.parallelism()));
      }
    }

    for (int w = 1; w <= options.warmup(); w++) {
      for (RangePath path : paths) {
        once(path, options.warmupSlices(), "warm-up " + w, false);
      }
    }
    Map<RangePath, List<Sample>> samples = new LinkedHashMap<>();
    Map<RangePath, List<Double>> jobSeconds = new LinkedHashMap<>();
    paths.forEach(
        path -> {
          samples.put(path, new ArrayList<>());
          jobSeconds.put(path, new ArrayList<>());
        });
    // Interleaved rounds: drift (heap growth, page cache, a noisy neighbour) hits every path alike.
    for (int r = 1; r <= options.repeat(); r++) {
      for (RangePath path : paths) {
        samples.get(path).add(measure(path, "run " + r + "/" + options.repeat()));
        jobSeconds.get(path).addAll(path.sliceJobSeconds());
      }
    }
    List<BackfillPathResult> results = new ArrayList<>();
    for (RangePath path : paths) {
      results.add(
          new BackfillPathResult(
              path.oneSlice() ? 1 : options.slices(),
              path.baseline(),
              new PathResult(path.name(), options.totalRows(), samples.get(path)),
              jobSeconds.get(path)));
    }
    if (!options.cliRun()) {
      return new Outcome(results, null, null, "--no-cli");
    }
    Path repo = CliRunTimer.repoRoot();
    String missing = CliRunTimer.missing(repo);
    if (missing != null) {
      log.println("[backfill] not timing bin/floe run: " + missing);
      return new Outcome(results, null, null, missing);
    }
    Set<String> archives = CliRunTimer.archives(repo);
    Sample first = timeCliRun(repo, "catalog-cli");
    Set<String> afterFirst = CliRunTimer.archives(repo);
    if (!CliRunTimer.wroteArchive(archives, afterFirst)) {
      return new Outcome(results, first, null, null);
    }
    // That process wrote the command's class-data archive, which bin/floe does once per build of
    // the jar: time what every later process pays, on a fresh catalog (the same slice again would
    // be a no-op rerun).
    log.printf(
        Locale.ROOT,
        "[backfill] that bin/floe run wrote its class-data archive (once per build); timing another%n");
    Sample second = timeCliRun(repo, "catalog-cli-2");
    if (CliRunTimer.wroteArchive(afterFirst, CliRunTimer.archives(repo))) {
      log.printf(
          Locale.ROOT,
          "[backfill] the second bin/floe run wrote a class-data archive too: its figure includes"
              + " that%n");
    }
    return new Outcome(results, second, first, null);
  }

  /**
   * One measured run. Waits for the host to go idle first, and measures again (on a new catalog)
   * when other processes still took more than {@link #MAX_OTHER_CORES} meanwhile, at most {@link
   * #MAX_RETRIES} times; the table's "other procs" column shows what was kept.
   */
  private Sample measure(RangePath path, String round) throws Exception {
    for (int attempt = 1; ; attempt++) {
      Sample s = once(path, options.slices(), round, true);
      if (!options.waitQuiet() || !(s.otherCores() > MAX_OTHER_CORES) || attempt > MAX_RETRIES) {
        return s;
      }
      log.printf(
          Locale.ROOT,
          "[backfill] discarded: other processes took %.2f cores meanwhile; measuring again%n",
          s.otherCores());
    }
  }

  /** Stages a fresh catalog with {@code slices} days, runs {@code path} on it and verifies it. */
  private Sample once(RangePath path, int slices, String round, boolean measured) throws Exception {
    Path home = root.resolve("catalog-" + (++catalogs));
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    path.bind(
        config,
        path instanceof SingleRunPath single
            ? stageOneDay(config, slices * options.rowsPerSlice(), single.files())
            : stage(config, slices));
    if (measured) {
      awaitQuiet();
      System.gc(); // start each run from a collected heap, not the previous run's garbage
    }
    Sample s = Sample.of(path);
    path.verify(); // outside the timing; a wrong result ends the benchmark here
    log.printf(
        Locale.ROOT,
        "[backfill] %-9s %-36s %3d slices %8.2f s  (%.3f s per slice, CPU %.1f s, GC %.2f s,"
            + " other procs %.2f cores)%n",
        round,
        path.name(),
        slices,
        s.wallSeconds(),
        s.wallSeconds() / slices,
        s.cpuSeconds(),
        s.gcSeconds(),
        s.otherCores());
    if (!options.keep()) {
      BenchRuntime.deleteTree(home);
    }
    return s;
  }

  /** Creates the tables and writes {@code slices} days of staging rows, one file per day. */
  private BackfillDays stage(CatalogConfig config, int slices) {
    long start = System.nanoTime();
    Catalog catalog = Catalogs.open(config);
    List<ContentHash> hashes;
    try {
      Table staging = BenchTables.create(catalog);
      hashes =
          StagingData.writeDays(
              staging,
              BackfillDays.FIRST,
              slices,
              options.rowsPerSlice(),
              Runtime.getRuntime().availableProcessors());
    } finally {
      Catalogs.close(catalog);
    }
    // Every path must load the same rows: the writer is deterministic, so this never fires unless
    // the staging code broke.
    List<ContentHash> first = stagedHashes.putIfAbsent(slices + " days", hashes);
    if (first != null && !first.equals(hashes)) {
      throw new IllegalStateException("Cannot compare paths: the staging rows differ between runs");
    }
    if (first == null) {
      log.printf(
          Locale.ROOT,
          "[backfill] staging: %d days × %,d rows written in %.1f s (one file per day)%n",
          slices,
          options.rowsPerSlice(),
          (System.nanoTime() - start) / 1e9);
    }
    return new BackfillDays(BackfillDays.FIRST, options.rowsPerSlice(), hashes);
  }

  /** Creates the tables and writes {@code rows} staging rows all dated on one day. */
  private BackfillDays stageOneDay(CatalogConfig config, long rows, int files) {
    Catalog catalog = Catalogs.open(config);
    ContentHash hash;
    try {
      hash = StagingData.write(BenchTables.create(catalog), rows, BackfillDays.FIRST, files);
    } finally {
      Catalogs.close(catalog);
    }
    List<ContentHash> first = stagedHashes.putIfAbsent(rows + " rows in one day", List.of(hash));
    if (first != null && !first.equals(List.of(hash))) {
      throw new IllegalStateException("Cannot compare paths: the staging rows differ between runs");
    }
    return new BackfillDays(BackfillDays.FIRST, rows, List.of(hash));
  }

  /** One {@code bin/floe run} process for the range's first slice, on a catalog of its own. */
  private Sample timeCliRun(Path repo, String catalog) throws Exception {
    Path home = root.resolve(catalog);
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    BackfillDays day = stage(config, 1);
    awaitQuiet();
    Sample s = CliRunTimer.run(repo, home, manifest, day.from(), options.parallelism());
    BackfillTarget.verify("bin/floe run", config, day, null);
    log.printf(
        Locale.ROOT,
        "[backfill] bin/floe run, 1 slice, new JVM: %.2f s (CPU %.1f s, other procs %.2f cores)%n",
        s.wallSeconds(),
        s.cpuSeconds(),
        s.otherCores());
    if (!options.keep()) {
      BenchRuntime.deleteTree(home);
    }
    return s;
  }

  /** On a shared machine a neighbour's build can double a run: wait until the host is idle. */
  private void awaitQuiet() throws InterruptedException {
    if (!options.waitQuiet()) {
      return;
    }
    double waited = HostLoad.awaitQuiet(MAX_OTHER_CORES, 180);
    if (waited < 0) {
      log.println("[backfill] other processes stayed busy for 3 min; measuring anyway");
    } else if (waited > 3) {
      log.printf(Locale.ROOT, "[backfill] waited %.0f s for other processes to go idle%n", waited);
    }
  }
}
