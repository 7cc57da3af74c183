package dev.floe.flink.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.RunResult;
import dev.floe.flink.job.SliceJob;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When a run starts its command's cluster: ahead of planning when lineage holds no commit the run
 * could reproduce, never for a rerun that lineage skips, and always stopped again, also when the
 * query is refused after the start.
 */
class RunClusterStartITCase {
  private static final String DAY = "2026-10-03";

  @TempDir Path home;
  private CatalogConfig config;

  @BeforeEach
  void createTheTables() throws Exception {
    config = CatalogConfigLoader.embedded(home);
    new ExampleTables(config).createOrders();
  }

  @Test
  void aRerunThatLineageSkipsStartsNoClusterAndRecomputeStartsOne() {
    assertThat(run(ExampleTables.FACT_JOB, false).outcome().status())
        .isEqualTo(CommitOutcome.Status.COMMITTED);
    int started = LocalCluster.clustersStarted();

    RunResult skipped = run(ExampleTables.FACT_JOB, false);

    assertThat(skipped.outcome().detail()).contains("job was not started");
    assertThat(LocalCluster.clustersStarted()).isEqualTo(started);

    int stopped = LocalCluster.clustersStopped();
    RunResult recomputed = run(ExampleTables.FACT_JOB, true);

    assertThat(recomputed.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(LocalCluster.clustersStarted() - started).isEqualTo(1);
    assertThat(LocalCluster.clustersStopped() - stopped).isEqualTo(1);
  }

  @Test
  void aQueryRefusedAfterTheClusterStartedAheadOfItsJobStillStopsIt() {
    int started = LocalCluster.clustersStarted();
    int stopped = LocalCluster.clustersStopped();
    String missingSource =
        ExampleTables.FACT_JOB.replace("FROM sales.staging_orders", "FROM sales.no_such_table");

    assertThatThrownBy(() -> run(missingSource, false))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("no_such_table");

    assertThat(LocalCluster.clustersStarted() - started)
        .as("no commit to reproduce: the cluster starts before the query is planned")
        .isEqualTo(1);
    assertThat(LocalCluster.clustersStopped() - stopped).isEqualTo(1);
  }

  private RunResult run(String manifest, boolean recompute) {
    return SliceJob.run(
        RunRequest.of(config, ExampleTables.job(manifest), DAY)
            .withOptions(o -> o.recompute(recompute)));
  }
}
