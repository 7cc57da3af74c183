package dev.floe.flink.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.error.CheckFailedException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.RunResult;
import dev.floe.flink.job.SliceJob;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Merge by key with an ordering guard, end to end on a MiniCluster and the embedded catalog, on the
 * seed document's dimension example. Reruns compare content hashes computed by reading the table.
 */
class MergeITCase {
  @TempDir Path home;
  private CatalogConfig config;
  private ExampleTables seed;

  @BeforeEach
  void seedTheExample() throws Exception {
    config = CatalogConfigLoader.embedded(home);
    seed = new ExampleTables(config).createCustomers();
  }

  @Test
  void theSeedMergeKeepsTheNewestRowPerKeyAndItsRerunCommitsNothing() throws Exception {
    RunResult first = merge();
    Table afterFirst = dim();
    ContentHash checksum = TableContent.hash(afterFirst);

    RunResult second = merge();
    Table afterSecond = dim();

    assertThat(seed.dimension())
        .containsExactly("10 pro 2026-10-03 12:00", "11 free 2026-10-03 10:00");
    assertThat(first.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(first.outcome().detail()).contains("3 source rows, 2 keys: 2 inserted");
    assertThat(afterFirst.currentSnapshot().summary())
        .containsEntry("floe.mode", "merge")
        .containsEntry("floe.slice", "*")
        .containsEntry("floe.rows", "2")
        .containsEntry("added-records", "2");
    assertThat(second.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(second.outcome().detail()).contains("0 inserted, 0 updated, 2 unchanged");
    assertThat(afterSecond.currentSnapshot().snapshotId())
        .isEqualTo(afterFirst.currentSnapshot().snapshotId());
    assertThat(TableContent.hash(afterSecond)).isEqualTo(checksum);
  }

  @Test
  void replayingTheOlderBatchChangesNothing() throws Exception {
    merge();
    Snapshot before = dim().currentSnapshot();
    ContentHash checksum = TableContent.hash(dim());
    seed.stagingCustomers("(10, 'free', " + ExampleTables.ts("2026-10-03 09:00:00") + ")");

    RunResult replay = merge();

    assertThat(replay.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(dim().currentSnapshot().snapshotId()).isEqualTo(before.snapshotId());
    assertThat(TableContent.hash(dim())).isEqualTo(checksum);
    assertThat(seed.dimension()).startsWith("10 pro 2026-10-03 12:00");
  }

  @Test
  void aNewerRowUpdatesOnlyItsKeyAndANewKeyIsInserted() throws Exception {
    merge();
    seed.stagingCustomers(
        "(11, 'pro', "
            + ExampleTables.ts("2026-10-04 08:00:00")
            + "), (12, 'free', "
            + ExampleTables.ts("2026-10-04 09:00:00")
            + ")");

    RunResult result = merge();
    ContentHash checksum = TableContent.hash(dim());
    RunResult rerun = merge();

    assertThat(result.outcome().detail()).contains("1 inserted, 1 updated, 0 unchanged");
    assertThat(seed.dimension())
        .containsExactly(
            "10 pro 2026-10-03 12:00", "11 pro 2026-10-04 08:00", "12 free 2026-10-04 09:00");
    assertThat(rerun.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(TableContent.hash(dim())).isEqualTo(checksum);
  }

  @Test
  void twoSourceRowsWithTheSameKeyAndOrderingButDifferentContentFailNamingTheKey()
      throws Exception {
    merge();
    Snapshot before = dim().currentSnapshot();
    ContentHash checksum = TableContent.hash(dim());
    String noon = ExampleTables.ts("2026-10-05 12:00:00");
    seed.stagingCustomers("(10, 'gold', " + noon + "), (10, 'free', " + noon + ")");

    assertThatThrownBy(this::merge)
        .isInstanceOf(CheckFailedException.class)
        .hasMessageContaining("two source rows have key customer_id=10 and the same updated_at")
        .hasMessageContaining("gold")
        .hasMessageContaining("nothing was committed");

    assertThat(dim().currentSnapshot().snapshotId()).isEqualTo(before.snapshotId());
    assertThat(TableContent.hash(dim())).isEqualTo(checksum);
  }

  @Test
  void identicalDuplicatesInTheSourceAreCollapsed() throws Exception {
    String noon = ExampleTables.ts("2026-10-05 12:00:00");
    seed.stagingCustomers("(10, 'gold', " + noon + "), (10, 'gold', " + noon + ")");

    RunResult result = merge();

    assertThat(result.outcome().detail()).contains("2 source rows, 1 key: 1 inserted");
    assertThat(seed.dimension()).containsExactly("10 gold 2026-10-05 12:00");
  }

  @Test
  void aNullKeyFailsTheRunWithAClearErrorAndCommitsNothing() throws Exception {
    seed.stagingCustomers(
        "(CAST(NULL AS BIGINT), 'gold', " + ExampleTables.ts("2026-10-05 12:00:00") + ")");

    assertThatThrownBy(this::merge)
        .isInstanceOf(CheckFailedException.class)
        .hasMessageContaining("NULL key (customer_id)")
        .hasMessageContaining("sales.dim_customer");

    assertThat(dim().currentSnapshot()).isNull();
  }

  @Test
  void aFailureBeforeTheCommitLeavesTheTableAndTheWarehouseAsTheyWere() throws Exception {
    merge();
    Snapshot before = dim().currentSnapshot();
    ContentHash checksum = TableContent.hash(dim());
    long filesBefore = parquetFiles();
    seed.stagingCustomers("(10, 'gold', " + ExampleTables.ts("2026-10-05 12:00:00") + ")");

    assertThatThrownBy(
            () ->
                SliceJob.run(
                    RunRequest.of(config, ExampleTables.job(ExampleTables.MERGE_JOB), null)
                        .withOptions(o -> o.failAt(FailurePoint.BEFORE_COMMIT))))
        .hasMessageContaining("Injected failure before the commit of sales.dim_customer");

    assertThat(dim().currentSnapshot().snapshotId()).isEqualTo(before.snapshotId());
    assertThat(TableContent.hash(dim())).isEqualTo(checksum);
    // The staging overwrite added one file; the merge's rewritten file was deleted again.
    assertThat(parquetFiles()).isEqualTo(filesBefore + 1);
    assertThat(merge().outcome().detail()).contains("1 updated");
    assertThat(seed.dimension()).startsWith("10 gold 2026-10-05 12:00");
  }

  private long parquetFiles() throws java.io.IOException {
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(home)) {
      return files.filter(f -> f.toString().endsWith(".parquet")).count();
    }
  }

  private RunResult merge() {
    return SliceJob.run(RunRequest.of(config, ExampleTables.job(ExampleTables.MERGE_JOB), null));
  }

  private Table dim() {
    return seed.table("sales.dim_customer");
  }
}
