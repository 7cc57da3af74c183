package dev.floe.bench;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.CombinedScanTask;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.io.CloseableIterable;

/** The merge and its baseline for one target size and layout, on a fresh catalog of its own. */
final class MergeSizeBenchmark {

  /** The job under test: upsert the batch by id, newer version wins. */
  static final String MERGE_JOB =
      """
      job: bench_dim_merge
      target: bench.dim
      mode: merge
      key: [id]
      ordering: version
      query: SELECT id, created_day, v, amount, version FROM bench.dim_staging
      """;

  /**
   * The baseline: the same merged result, rebuilt whole. The batch is tiny, so it is broadcast to
   * the tasks reading the target (without the hint Flink has no statistics to choose that, and
   * would shuffle the whole target instead). Every batch row is newer than the target's, so an
   * anti-join plus the batch is exactly what the merge leaves.
   */
  static final String REBUILD_JOB =
      """
      job: bench_dim_rebuild
      target: bench.dim_rebuilt
      mode: swap
      query: |
        SELECT /*+ BROADCAST(s) */ d.id, d.created_day, d.v, d.amount, d.version
        FROM bench.dim AS d LEFT JOIN bench.dim_staging AS s ON d.id = s.id
        WHERE s.id IS NULL
        UNION ALL
        SELECT id, created_day, v, amount, version FROM bench.dim_staging
      """;

  /** Where a merge's (and the rebuild's) time goes, for --profile. */
  static final Map<String, String> MARKERS = new LinkedHashMap<>();

  static {
    MARKERS.put("Iceberg Flink source (query side)", "org.apache.iceberg.flink.source.");
    MARKERS.put("Flink SQL runtime (join, calc)", "org.apache.flink.table.runtime.");
    MARKERS.put("Floe keyed committer (all of it)", "dev.floe.flink.merge.KeyedCommitter");
    MARKERS.put("  candidate files (metadata, key bounds)", "dev.floe.flink.merge.CandidateFiles");
    MARKERS.put(
        "  probe (read key + ordering columns)", "dev.floe.flink.merge.KeyedCommitter#probeFile");
    MARKERS.put(
        "  rewrite (read + write whole files)", "dev.floe.flink.merge.KeyedCommitter#writeUnit");
    MARKERS.put("  Iceberg commit", "org.apache.iceberg.SnapshotProducer");
    MARKERS.put("Floe swap writer (all of it)", "dev.floe.flink.write.SliceWriterOperator");
    MARKERS.put("Floe hashing (keys, content)", "dev.floe.flink.row.RowDataHasher");
    MARKERS.put("Iceberg Parquet read", "org.apache.iceberg.parquet.ParquetReader");
    MARKERS.put("Iceberg Parquet write", "org.apache.iceberg.parquet.ParquetWriter");
    MARKERS.put("zstd", "com.github.luben.zstd.");
    MARKERS.put("Flink records over the network", "org.apache.flink.runtime.io.network.");
    MARKERS.put("Kryo", "kryo");
  }

  /** Runs during which other processes took more CPU than this are measured again. */
  private static final double MAX_OTHER_CORES = 0.3;

  private static final int MAX_RETRIES = 3;

  private final Path home;
  private final Layout layout;
  private final long rows;
  private final MergeOptions options;
  private final PrintStream out;
  private final PrintStream log;
  private final String label;

  /**
   * @param out where profiles go (results)
   * @param log where progress goes
   */
  MergeSizeBenchmark(
      Path home, Layout layout, long rows, MergeOptions options, PrintStream out, PrintStream log) {
    this.home = home;
    this.layout = layout;
    this.rows = rows;
    this.options = options;
    this.out = out;
    this.log = log;
    this.label = String.format(Locale.ROOT, "[%s, %,d rows]", layout.text(), rows);
  }

  /**
   * @param splits read splits of the target with Iceberg's default planning: the rebuild's source
   *     parallelism (Iceberg's Flink source infers it from this number)
   */
  record Outcome(MergeResult result, int splits) {}

  Outcome run() throws Exception {
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    DimRows dimRows =
        new DimRows(
            layout,
            rows,
            options.days(),
            options.updateKeys(),
            options.newKeys(),
            options.hotDays());
    DimData.Written written = prepare(config, dimRows);
    int p = options.parallelism();
    MergePath.Merge merge =
        new MergePath.Merge(
            config,
            SliceBenchmark.job(MERGE_JOB),
            p,
            dimRows,
            options.updateKeys(),
            written.files(),
            written.batch());
    MergePath.Rebuild baseline =
        new MergePath.Rebuild(
            config, SliceBenchmark.job(REBUILD_JOB), p, dimRows.rowsAfterMerge(), written.merged());
    int splits = splits(config);

    for (int w = 1; w <= options.warmup(); w++) {
      for (MergePath path : List.of(merge, baseline)) {
        Sample s = Sample.of(path);
        path.verify();
        path.reset();
        progress("warm-up " + w, path, s);
      }
    }
    List<Sample> mergeSamples = new ArrayList<>();
    List<Sample> baselineSamples = new ArrayList<>();
    for (int r = 1; r <= options.repeat(); r++) {
      String round = "run " + r + "/" + options.repeat();
      boolean last = r == options.repeat() && options.deepVerify();
      // The rebuild reads bench.dim, so the merge is rolled back before it runs.
      mergeSamples.add(
          measure(
              merge,
              round,
              last ? () -> deepVerify(config, DimTables.DIM, written.merged()) : null));
      baselineSamples.add(
          measure(
              baseline,
              round,
              last ? () -> deepVerify(config, DimTables.REBUILT, written.merged()) : null));
    }
    if (options.profile()) {
      profile(merge, "profile merge");
      profile(baseline, "profile full rewrite (swap)");
    }
    MergeResult result =
        new MergeResult(
            layout,
            rows,
            written.files(),
            written.bytes(),
            merge.detail(),
            new PathResult(merge.name(), merge.rows(), mergeSamples),
            new PathResult(baseline.name(), baseline.rows(), baselineSamples));
    return new Outcome(result, splits);
  }

  private DimData.Written prepare(CatalogConfig config, DimRows dimRows) {
    Catalog catalog = Catalogs.open(config);
    try {
      DimTables.create(catalog);
      long start = System.nanoTime();
      DimData.Written written =
          DimData.write(
              Catalogs.loadTable(catalog, DimTables.DIM),
              Catalogs.loadTable(catalog, DimTables.STAGING),
              dimRows,
              options.rowsPerFile(),
              options.parallelism());
      log.printf(
          Locale.ROOT,
          "%s target written in %.1f s: %,d files, %.1f MiB; batch: %,d updates, %,d new keys%n",
          label,
          (System.nanoTime() - start) / 1e9,
          written.files(),
          written.bytes() / 1048576.0,
          options.updateKeys(),
          options.newKeys());
      return written;
    } finally {
      Catalogs.close(catalog);
    }
  }

  /**
   * One measured run, like {@link SliceBenchmark}'s: wait for a quiet host, collect the heap, run,
   * verify, and measure again when other processes took more than {@link #MAX_OTHER_CORES}. The
   * time kept is the run's own {@code RunResult.elapsedMillis()}.
   *
   * @param inspect runs after verification, before the target is reset (the deep check)
   */
  private Sample measure(MergePath path, String round, Runnable inspect) throws Exception {
    for (int attempt = 1; ; attempt++) {
      awaitQuiet();
      System.gc();
      Sample s = Sample.of(path);
      path.verify();
      if (inspect != null) {
        inspect.run();
      }
      path.reset();
      progress(round, path, s);
      if (!options.waitQuiet() || !(s.otherCores() > MAX_OTHER_CORES) || attempt > MAX_RETRIES) {
        return new Sample(path.elapsedSeconds(), s.cpuSeconds(), s.gcSeconds(), s.otherCores());
      }
      log.printf(
          Locale.ROOT,
          "%s discarded: other processes took %.2f cores meanwhile; measuring again%n",
          label,
          s.otherCores());
    }
  }

  /** Re-reads a whole table: its rows, not only its counts, must be the expected merge result. */
  private void deepVerify(CatalogConfig config, String table, ContentHash expected) {
    long start = System.nanoTime();
    Catalog catalog = Catalogs.open(config);
    try {
      ContentHash actual = TableContent.hash(Catalogs.loadTable(catalog, table));
      if (!actual.equals(expected)) {
        throw new IllegalStateException(
            "Wrong content in " + table + ": " + actual + ", expected " + expected);
      }
    } finally {
      Catalogs.close(catalog);
    }
    log.printf(
        Locale.ROOT,
        "%s deep verify: %s holds exactly the expected merged rows (%.1f s)%n",
        label,
        table,
        (System.nanoTime() - start) / 1e9);
  }

  private void profile(MergePath path, String title) throws Exception {
    StackSampler sampler =
        StackSampler.start(5, Thread.currentThread(), path.entryMethod(), MARKERS);
    Sample s;
    try {
      s = Sample.of(path);
    } finally {
      sampler.close();
    }
    path.verify();
    path.reset();
    sampler.print(
        out,
        String.format(Locale.ROOT, "%s, %s layout, %,d target rows", title, layout.text(), rows),
        s.wallSeconds());
  }

  /** Read splits of the target as Iceberg's Flink source plans them by default. */
  private static int splits(CatalogConfig config) {
    Catalog catalog = Catalogs.open(config);
    int splits = 0;
    try (CloseableIterable<CombinedScanTask> tasks =
        Catalogs.loadTable(catalog, DimTables.DIM).newScan().planTasks()) {
      for (CombinedScanTask ignored : tasks) {
        splits++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot plan a scan of " + DimTables.DIM, e);
    } finally {
      Catalogs.close(catalog);
    }
    return splits;
  }

  private void awaitQuiet() throws InterruptedException {
    if (!options.waitQuiet()) {
      return;
    }
    double waited = HostLoad.awaitQuiet(MAX_OTHER_CORES, 180);
    if (waited < 0) {
      log.printf("%s other processes stayed busy for 3 min; measuring anyway%n", label);
    } else if (waited > 3) {
      log.printf(Locale.ROOT, "%s waited %.0f s for other processes to go idle%n", label, waited);
    }
  }

  private void progress(String round, MergePath path, Sample s) {
    String touched = "";
    if (path instanceof MergePath.Merge merge && merge.detail() != null) {
      touched =
          String.format(
              Locale.ROOT,
              "  read %d, rewrote %d of %d files",
              merge.detail().filesRead(),
              merge.detail().filesRewritten(),
              merge.detail().filesInScope());
    }
    log.printf(
        Locale.ROOT,
        "%s %-10s %-20s %6.2f s  (run's own %.2f s; CPU %5.2f s, GC %4.2f s, other procs %.2f"
            + " cores)%s%n",
        label,
        round,
        path.name(),
        s.wallSeconds(),
        path.elapsedSeconds(),
        s.cpuSeconds(),
        s.gcSeconds(),
        s.otherCores(),
        touched);
  }
}
