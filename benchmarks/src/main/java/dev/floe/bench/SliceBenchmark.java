package dev.floe.bench;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.manifest.Manifests;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.expressions.Expressions;

/** All paths for one slice size, on a fresh embedded catalog of its own. */
final class SliceBenchmark {
  static final LocalDate DAY = LocalDate.of(2026, 10, 3);

  /** A day with no staging rows: loading it measures Floe's fixed cost. */
  static final LocalDate EMPTY_DAY = DAY.plusDays(1);

  static final String JOB_WITH_CHECKS =
      """
      job: bench_fact_orders
      target: bench.fact_orders
      mode: overwrite
      slice: {column: order_date}
      query: |
        SELECT order_id, customer_id, amount, order_date
        FROM bench.staging_orders
        WHERE order_date >= :slice_start AND order_date < :slice_end
      checks:
        - not_null: [order_id, amount]
        - unique: [order_id]
        - row_count: {min: 0}
      """;

  /** The same job without checks: the difference is what checking costs. */
  static final String JOB_WITHOUT_CHECKS =
      """
      job: bench_fact_orders_nochecks
      target: bench.fact_orders
      mode: overwrite
      slice: {column: order_date}
      query: |
        SELECT order_id, customer_id, amount, order_date
        FROM bench.staging_orders
        WHERE order_date >= :slice_start AND order_date < :slice_end
      """;

  private final Path home;
  private final long rows;
  private final BenchOptions options;
  private final PrintStream log;

  SliceBenchmark(Path home, long rows, BenchOptions options, PrintStream log) {
    this.home = home;
    this.rows = rows;
    this.options = options;
    this.log = log;
  }

  /** Prepares the tables, runs every path and returns their results in table order. */
  Outcome run() throws Exception {
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    ContentHash expected = prepare(config);
    int p = options.parallelism();
    FloePath floeChecks =
        new FloePath(
            "floe (checks)", config, job(JOB_WITH_CHECKS), DAY.toString(), p, rows, expected, rows);
    FloePath floePlain =
        new FloePath(
            "floe (no checks)",
            config,
            job(JOB_WITHOUT_CHECKS),
            DAY.toString(),
            p,
            rows,
            expected,
            rows);
    BaselinePath baseline = new BaselinePath(config, BenchTables.BASELINE, DAY.toString(), p, rows);
    // Runs after floe (checks) has loaded DAY, so the table still holds those rows afterwards.
    FloePath floeEmpty =
        new FloePath(
            "floe empty slice (fixed cost)",
            config,
            job(JOB_WITH_CHECKS),
            EMPTY_DAY.toString(),
            p,
            0,
            ContentHash.empty(),
            rows);
    List<WritePath> paths = List.of(floeChecks, floePlain, baseline, floeEmpty);

    for (int w = 1; w <= options.warmup(); w++) {
      for (WritePath path : paths) {
        Sample s = Sample.of(path);
        path.verify();
        progress("warm-up " + w, path, s);
      }
    }
    // Interleaved rounds: drift (heap growth, page cache, a noisy neighbour) hits every path alike.
    Map<WritePath, List<Sample>> samples = new LinkedHashMap<>();
    paths.forEach(path -> samples.put(path, new ArrayList<>()));
    for (int r = 1; r <= options.repeat(); r++) {
      for (WritePath path : paths) {
        awaitQuiet();
        System.gc(); // start each run from a collected heap, not the previous run's garbage
        Sample s = Sample.of(path);
        path.verify();
        samples.get(path).add(s);
        progress("run " + r + "/" + options.repeat(), path, s);
      }
    }
    if (options.deepVerify()) {
      deepVerify(config, expected);
    }
    int kryo = -1;
    if (options.profile()) {
      kryo = profile(floeChecks, "profile floe (checks)", "dev.floe.flink.job.SliceJob.run");
      profile(floeEmpty, "profile floe empty slice", "dev.floe.flink.job.SliceJob.run");
      profile(baseline, "profile iceberg sql overwrite", "dev.floe.bench.BaselinePath.execute");
    }
    List<PathResult> results = new ArrayList<>();
    samples.forEach((path, list) -> results.add(new PathResult(path.name(), path.rows(), list)));
    int floeRuns = 3 * (options.warmup() + options.repeat()) + (options.profile() ? 2 : 0);
    return new Outcome(rows, results, floeRuns, kryo);
  }

  /**
   * @param floeRuns Floe runs that succeeded, all with {@code pipeline.generic-types=false}
   * @param kryoSamples Kryo frames in the profiled Floe run, or -1 when not profiled
   */
  record Outcome(long rows, List<PathResult> results, int floeRuns, int kryoSamples) {}

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
      for (String target : List.of(BenchTables.FACT, BenchTables.BASELINE)) {
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
        "[%,d rows] deep verify: both targets hold exactly the staging rows (%.1f s)%n",
        rows,
        (System.nanoTime() - start) / 1e9);
  }

  private int profile(WritePath path, String title, String entry) throws Exception {
    StackSampler sampler = StackSampler.start(5, Thread.currentThread(), entry);
    long start = System.nanoTime();
    try {
      path.execute();
    } finally {
      sampler.close();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    path.verify();
    sampler.print(System.out, String.format(Locale.ROOT, "%s, %,d rows", title, rows), seconds);
    return sampler.kryoSamples();
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
        "[%,d rows] %-8s %-30s %6.2f s  (CPU %5.2f s, GC %4.2f s, other procs %.2f cores)%n",
        rows,
        round,
        path.name(),
        s.wallSeconds(),
        s.cpuSeconds(),
        s.gcSeconds(),
        s.otherCores());
  }

  static JobSpec job(String yaml) {
    return JobSpecParser.parse(Manifests.parse("benchmarks/bench.yaml", yaml), yaml);
  }
}
