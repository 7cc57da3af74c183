package dev.floe.flink.merge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.RunResult;
import dev.floe.flink.job.SliceJob;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Copy-on-write cost on a table of 100 partitions: a merge reads and rewrites only the files that
 * hold a matched key, and inserts new keys into new files; everything else stays as it was.
 */
class PartitionedMergeITCase {
  private static final String MERGE =
      """
      job: events_merge
      target: sales.events
      mode: merge
      ordering: version
      query: %s
      """
          .formatted(EventTables.QUERY);

  @TempDir Path home;
  private CatalogConfig config;
  private EventTables tables;

  @BeforeEach
  void createTheHundredDays() {
    config = CatalogConfigLoader.embedded(home);
    tables = new EventTables(config).create();
  }

  @Test
  void aMergeRewritesOnlyTheFilesHoldingMatchedKeys() {
    tables.staging(
        new Object[] {5, 0, "v2", 2}, // newer: replaces id 5 in day 0
        new Object[] {6, 0, "old", 0}, // older: id 6 stays, its file is read but not for this
        new Object[] {505, 50, "v2", 2}, // newer: replaces id 505 in day 50
        new Object[] {10_000, 99, "new", 1}); // a new key: inserted into a new file of day 99
    Snapshot before = tables.events().currentSnapshot();

    RunResult result = run(MERGE, null);
    Snapshot merged = tables.events().currentSnapshot();
    ContentHash checksum = TableContent.hash(tables.events());
    RunResult rerun = run(MERGE, null);

    assertThat(result.outcome().detail())
        .contains("1 inserted, 2 updated, 1 unchanged")
        .contains("read 2 and rewrote 2 of 100 files in scope");
    Map<String, String> summary = merged.summary();
    assertThat(summary)
        .containsEntry("deleted-data-files", "2")
        .containsEntry("added-data-files", "3")
        .containsEntry("deleted-records", "20")
        .containsEntry("added-records", "21")
        .containsEntry("changed-partition-count", "3");
    assertThat(merged.parentId()).isEqualTo(before.snapshotId());
    assertThat(tables.rows())
        .hasSize(1001)
        .contains("5:v2:2", "6:v1:1", "505:v2:2", "10000:new:1", "7:v1:1", "999:v1:1");
    assertThat(rerun.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(tables.events().currentSnapshot().snapshotId()).isEqualTo(merged.snapshotId());
    assertThat(TableContent.hash(tables.events())).isEqualTo(checksum);
  }

  @Test
  void deleteMissingWithinASliceDeletesOnlyThatDaysAbsentKeys() {
    String manifest =
        MERGE.replace(
            "mode: merge", "mode: merge\nslice: {column: event_day}\ndelete_missing: true");
    Object[][] dayThreeWithoutId37 = new Object[9][];
    for (int i = 0, row = 0; i < 10; i++) {
      if (i != 7) {
        dayThreeWithoutId37[row++] = new Object[] {30 + i, 3, "v1", 1};
      }
    }
    tables.staging(dayThreeWithoutId37);
    ContentHash otherDays =
        TableContent.hash(
            tables.events(),
            org.apache.iceberg.expressions.Expressions.notEqual(
                "event_day", (int) EventTables.FIRST_DAY.plusDays(3).toEpochDay()));

    RunResult result = run(manifest, EventTables.day(3));
    ContentHash checksum = TableContent.hash(tables.events());
    RunResult rerun = run(manifest, EventTables.day(3));

    assertThat(result.outcome().detail())
        .contains("0 inserted, 0 updated, 9 unchanged (target as new or newer), 1 deleted")
        .contains("rewrote 1 of 1 file in scope");
    assertThat(tables.rows()).hasSize(999).doesNotContain("37:v1:1").contains("36:v1:1");
    assertThat(
            TableContent.hash(
                tables.events(),
                org.apache.iceberg.expressions.Expressions.notEqual(
                    "event_day", (int) EventTables.FIRST_DAY.plusDays(3).toEpochDay())))
        .isEqualTo(otherDays);
    assertThat(rerun.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(TableContent.hash(tables.events())).isEqualTo(checksum);
  }

  private RunResult run(String manifest, String slice) {
    return SliceJob.run(RunRequest.of(config, ExampleTables.job(manifest), slice));
  }
}
