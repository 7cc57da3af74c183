package dev.floe.flink.session;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.JobSpec;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.JobListener;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.catalog.Catalog;

/**
 * Creates the batch Flink environments Floe runs in, with the Iceberg catalog registered and
 * current. Outside a cluster this is a local MiniCluster; under {@code flink run} it is the
 * cluster's environment, so the same main class works in both places.
 */
public final class FlinkSessions {

  /** The largest parallelism Flink accepts for an operator. */
  public static final int MAX_PARALLELISM = JobSpec.MAX_PARALLELISM;

  private FlinkSessions() {}

  private static final AtomicInteger SUBMITTED = new AtomicInteger();

  private static final JobListener COUNTS_SUBMITTED_JOBS =
      new JobListener() {
        @Override
        public void onJobSubmitted(JobClient client, Throwable failure) {
          if (failure == null) {
            SUBMITTED.incrementAndGet();
          }
        }

        @Override
        public void onJobExecuted(JobExecutionResult result, Throwable failure) {}
      };

  /**
   * How many Flink jobs the environments of this class submitted in this JVM, whatever became of
   * them: whether a command ran a job (bin/floe keeps the class-data archive of a command that can
   * run jobs only from a run that did).
   */
  public static int jobsSubmitted() {
    return SUBMITTED.get();
  }

  /** A batch execution environment; {@code parallelism <= 0} keeps Flink's default. */
  public static StreamExecutionEnvironment batchEnvironment(int parallelism) {
    return batchEnvironment(parallelism, new Configuration());
  }

  /** A batch execution environment with extra settings for this job. */
  public static StreamExecutionEnvironment batchEnvironment(int parallelism, Configuration extra) {
    return batchEnvironment(parallelism, extra, null);
  }

  /**
   * A batch execution environment with extra settings for this job, whose jobs run on {@code
   * cluster} ({@link LocalCluster#forCommand}); null: the shared cluster if one is open, else
   * Flink's own (a MiniCluster per job locally, on the loopback interface as Floe's are; the
   * cluster's under {@code flink run}).
   */
  public static StreamExecutionEnvironment batchEnvironment(
      int parallelism, Configuration extra, LocalCluster cluster) {
    // Flink refuses more only when the job is built, as an unexpected failure; say it up front.
    InvalidInputException.check(
        parallelism <= MAX_PARALLELISM,
        "Cannot run with parallelism %d: Flink runs at most %d parallel tasks of an operator",
        parallelism,
        MAX_PARALLELISM);
    Configuration conf = new Configuration(extra);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    LocalCluster.allowLibrariesThatOutliveAJob(conf);
    LocalCluster own = cluster != null ? cluster : LocalCluster.active();
    if (own == null && LocalCluster.startsLocalMiniCluster()) {
      // Flink's local environment starts a MiniCluster for the job from these settings.
      LocalCluster.bindToLoopback(conf);
    }
    StreamExecutionEnvironment env =
        own != null
            ? own.environment(conf)
            : StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    env.registerJobListener(COUNTS_SUBMITTED_JOBS);
    if (parallelism > 0) {
      env.setParallelism(parallelism);
    }
    return env;
  }

  /** A batch table environment over {@code env} whose current catalog is Floe's Iceberg catalog. */
  public static StreamTableEnvironment tableEnvironment(
      StreamExecutionEnvironment env, CatalogConfig catalog) {
    return tableEnvironment(env, catalog, null);
  }

  /**
   * As {@link #tableEnvironment(StreamExecutionEnvironment, CatalogConfig)}, with every Iceberg
   * table a query reads pinned by {@code pins} to the snapshot current when it was planned (null:
   * no pins, tables are read as of when the job scans them).
   */
  public static StreamTableEnvironment tableEnvironment(
      StreamExecutionEnvironment env, CatalogConfig catalog, SourcePins pins) {
    StreamTableEnvironment tableEnv =
        StreamTableEnvironment.create(env, EnvironmentSettings.newInstance().inBatchMode().build());
    // Results print the same on every machine; timestamptz values are shown in UTC.
    tableEnv.getConfig().setLocalTimeZone(ZoneOffset.UTC);
    Catalogs.prepare(catalog);
    Map<String, String> options = new HashMap<>(Catalogs.openProperties(catalog));
    options.put("type", "iceberg");
    try {
      // Iceberg's factory directly (what discovery by type: iceberg finds), with its Hadoop
      // configuration parsed once per JVM instead of once per run; the sinks of SQL statements
      // check the values they write (GuardedSinks).
      Catalog created = IcebergCatalogs.create(catalog.name(), options);
      tableEnv.registerCatalog(
          catalog.name(), GuardedSinks.wrap(pins == null ? created : pins.wrap(created)));
    } catch (RuntimeException e) {
      // Flink's own message lists every catalog option, secrets included: never pass it on.
      Throwable root = e;
      while (root.getCause() != null) {
        root = root.getCause();
      }
      throw new IllegalStateException(
          "Cannot open catalog "
              + catalog.name()
              + " (type "
              + catalog.type()
              + ", properties "
              + catalog.redactedProperties()
              + "): "
              + root.getClass().getSimpleName()
              + ": "
              + root.getMessage());
    }
    tableEnv.useCatalog(catalog.name());
    return tableEnv;
  }
}
