package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rerun whose slice already holds its result (same run key, same pinned source snapshots) ends as
 * a no-op without starting its job, and ends the table exactly as the full rerun does. "Without
 * starting its job" is observed by deleting the source's data files: a run that read them would
 * fail.
 */
class UnchangedRerunITCase {
  private static final String DAY = "2026-10-03";

  @TempDir Path home;
  private CatalogConfig config;
  private ExampleTables seed;

  @BeforeEach
  void loadTheSeedDay() throws Exception {
    config = CatalogConfigLoader.embedded(home);
    seed = new ExampleTables(config).createOrders();
    assertThat(run(ExampleTables.FACT_JOB, false).outcome().status())
        .isEqualTo(CommitOutcome.Status.COMMITTED);
  }

  @Test
  void anUnchangedRerunEndsAsANoOpWithoutReadingItsSourcesAndRecomputeReadsThem() {
    Table before = fact();
    ContentHash content = TableContent.hash(before);
    deleteTheSourcesDataFiles();

    RunResult rerun = run(ExampleTables.FACT_JOB, false);

    assertThat(rerun.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(rerun.outcome().rows()).isEqualTo(2);
    assertThat(rerun.outcome().contentHash()).isEqualTo(content.encode());
    assertThat(rerun.outcome().snapshotId()).isEqualTo(before.currentSnapshot().snapshotId());
    assertThat(fact().currentSnapshot().snapshotId())
        .isEqualTo(before.currentSnapshot().snapshotId());
    // Switched off, the run reads its sources: the files are gone, so it fails, committing nothing.
    assertThatThrownBy(() -> run(ExampleTables.FACT_JOB, true))
        .isInstanceOf(RuntimeException.class);
    assertThat(fact().currentSnapshot().snapshotId())
        .isEqualTo(before.currentSnapshot().snapshotId());
    assertThat(TableContent.hash(fact())).isEqualTo(content);
  }

  @Test
  void withTheSkipSwitchedOffTheRerunEndsTheSameNoOp() {
    Table before = fact();
    ContentHash content = TableContent.hash(before);

    RunResult skipped = run(ExampleTables.FACT_JOB, false);
    RunResult recomputed = run(ExampleTables.FACT_JOB, true);

    assertThat(skipped.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(recomputed.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(recomputed.outcome().contentHash()).isEqualTo(skipped.outcome().contentHash());
    assertThat(recomputed.outcome().rows()).isEqualTo(skipped.outcome().rows());
    assertThat(recomputed.outcome().detail()).isNotEqualTo(skipped.outcome().detail());
    assertThat(fact().currentSnapshot().snapshotId())
        .isEqualTo(before.currentSnapshot().snapshotId());
    assertThat(TableContent.hash(fact())).isEqualTo(content);
  }

  @Test
  void aNewSourceSnapshotOrAnotherWriterInTheSliceRunsTheJob() throws Exception {
    seed.sql("INSERT INTO sales.staging_orders VALUES (9, 11, 5.00, DATE '2026-10-03')");
    RunResult afterSourceChange = run(ExampleTables.FACT_JOB, false);
    assertThat(afterSourceChange.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(afterSourceChange.outcome().rows()).isEqualTo(3);
    ContentHash loaded = TableContent.hash(fact(), ExampleTables.day(DAY));

    // Another writer adds a row to the day: the slice no longer holds the run's result.
    seed.sql("INSERT INTO sales.fact_orders VALUES (99, 1, 1.00, DATE '2026-10-03')");
    RunResult afterForeignWrite = run(ExampleTables.FACT_JOB, false);

    assertThat(afterForeignWrite.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(TableContent.hash(fact(), ExampleTables.day(DAY))).isEqualTo(loaded);
  }

  @Test
  void aQueryAllowedToCallAClockFunctionAlwaysRunsItsJob() {
    String clock =
        ExampleTables.FACT_JOB.replace(
                "WHERE order_date >= :slice_start AND order_date < :slice_end",
                "WHERE order_date >= :slice_start AND order_date < :slice_end\n"
                    + "    AND order_date <= CURRENT_DATE")
            + "allow_nondeterministic: true\n";
    // Another run key (the manifest changed), the same rows: the job runs and finds them unchanged.
    RunResult first = run(clock, false);
    assertThat(first.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(first.outcome().detail()).doesNotContain("job was not started");
    deleteTheSourcesDataFiles();

    assertThatThrownBy(() -> run(clock, false)).isInstanceOf(RuntimeException.class);
  }

  private void deleteTheSourcesDataFiles() {
    Table staging = seed.table("sales.staging_orders");
    try (CloseableIterable<FileScanTask> tasks = staging.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        staging.io().deleteFile(file.location());
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private RunResult run(String manifest, boolean recompute) {
    return SliceJob.run(
        RunRequest.of(config, ExampleTables.job(manifest), DAY)
            .withOptions(o -> o.recompute(recompute)));
  }

  private Table fact() {
    return seed.table("sales.fact_orders");
  }
}
