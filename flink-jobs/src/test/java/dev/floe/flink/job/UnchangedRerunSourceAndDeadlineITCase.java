package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.error.TimedOutException;
import dev.floe.catalog.job.Timeout;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN rule 5 says the skip is an optimisation, so a skipped rerun must end exactly as the same
 * rerun with --recompute. Each test runs the skip first (it changes nothing when it returns NO_OP),
 * then the same run with --recompute, and compares.
 */
class UnchangedRerunSourceAndDeadlineITCase {
  private static final String DAY = "2026-10-03";

  @TempDir Path home;
  private CatalogConfig config;
  private ExampleTables seed;

  @BeforeEach
  void loadTheSeedDay() throws Exception {
    config = CatalogConfigLoader.embedded(home);
    seed = new ExampleTables(config).createOrders();
    assertThat(run(false).outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
  }

  /**
   * A source's schema changes without a new snapshot: its snapshot id stays, but Flink reads the
   * pinned snapshot's files through the table's current schema (by field id). Swapping the names of
   * order_id and customer_id changes every row the query returns.
   */
  @Test
  void aSourceColumnRenameKeepsTheSnapshotIdButChangesTheRows() {
    long before = seed.table(ExampleTables.STAGING_ORDERS).currentSnapshot().snapshotId();
    onStaging(
        staging -> {
          staging.updateSchema().renameColumn("order_id", "tmp").commit();
          staging.updateSchema().renameColumn("customer_id", "order_id").commit();
          staging.updateSchema().renameColumn("tmp", "customer_id").commit();
        });
    assertThat(seed.table(ExampleTables.STAGING_ORDERS).currentSnapshot().snapshotId())
        .isEqualTo(before);

    RunResult rerun = run(false);

    // The rerun reads the renamed columns and commits what --recompute would have.
    assertThat(rerun.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(run(true).outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
  }

  /** A source column dropped and added again: the old files' values no longer read. */
  @Test
  void aSourceColumnDroppedAndAddedAgainReadsNullButTheRerunSkips() {
    onStaging(
        staging -> {
          staging.updateSchema().deleteColumn("customer_id").commit();
          staging.updateSchema().addColumn("customer_id", Types.LongType.get()).commit();
        });

    ContentHash before = TableContent.hash(fact());
    RunResult rerun = run(false);
    ContentHash afterRerun = TableContent.hash(fact());
    RunResult recomputed = run(true);

    // The rerun reads NULL customer ids and commits them, as --recompute would have.
    assertThat(rerun.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(afterRerun).isNotEqualTo(before);
    assertThat(recomputed.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(TableContent.hash(fact())).isEqualTo(afterRerun);
  }

  /**
   * A run whose deadline passed before its job could start exits 6 (nothing committed); the skipped
   * run reports a no-op (exit 0) past its deadline. (Low severity: the table ends the same.)
   */
  @Test
  void aRunPastItsDeadlineTimesOutButTheSkipReportsANoOp() {
    Timeout tiny = new Timeout(Duration.ofNanos(1), "1ns", "test");
    Throwable recomputed =
        catchThrowable(
            () ->
                SliceJob.run(
                    RunRequest.of(config, ExampleTables.job(ExampleTables.FACT_JOB), DAY)
                        .withOptions(o -> o.recompute(true).timeout(tiny))));
    Throwable skipped =
        catchThrowable(
            () ->
                SliceJob.run(
                    RunRequest.of(config, ExampleTables.job(ExampleTables.FACT_JOB), DAY)
                        .withOptions(o -> o.recompute(false).timeout(tiny))));

    assertThat(recomputed).isInstanceOf(TimedOutException.class);
    assertThat(skipped).as("skip must end like --recompute").isInstanceOf(TimedOutException.class);
  }

  private RunResult run(boolean recompute) {
    return SliceJob.run(
        RunRequest.of(config, ExampleTables.job(ExampleTables.FACT_JOB), DAY)
            .withOptions(o -> o.recompute(recompute)));
  }

  private void onStaging(java.util.function.Consumer<Table> change) {
    org.apache.iceberg.catalog.Catalog catalog = dev.floe.catalog.config.Catalogs.open(config);
    try {
      change.accept(
          dev.floe.catalog.config.Catalogs.loadTable(catalog, ExampleTables.STAGING_ORDERS));
    } finally {
      dev.floe.catalog.config.Catalogs.close(catalog);
    }
  }

  private Table fact() {
    return seed.table(ExampleTables.FACT_ORDERS);
  }
}
