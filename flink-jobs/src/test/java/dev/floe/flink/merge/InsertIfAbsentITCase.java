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
import org.apache.iceberg.Snapshot;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Insert-if-absent for immutable events: new keys are added once, existing rows never change. */
class InsertIfAbsentITCase {
  private static final String INSERT =
      """
      job: events_insert
      target: sales.events
      mode: insert-if-absent
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
  void runningTwiceAddsTheNewKeysOnceAndNeverChangesAnExistingRow() {
    tables.staging(
        new Object[] {5, 0, "changed", 9}, // present: left alone, even with other content
        new Object[] {2_000, 7, "first", 1}, // new, sent twice with different content:
        new Object[] {2_000, 7, "resent", 2}, //   the smallest ordering value is kept
        new Object[] {2_001, 7, "new", 1},
        new Object[] {2_001, 7, "new", 1}); // an exact duplicate: collapsed
    Snapshot before = tables.events().currentSnapshot();

    RunResult first = run();
    Snapshot inserted = tables.events().currentSnapshot();
    ContentHash checksum = TableContent.hash(tables.events());
    RunResult second = run();

    assertThat(first.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(first.outcome().detail())
        .contains("5 source rows, 3 keys: 2 inserted, 0 updated, 1 unchanged")
        .contains("rewrote 0 of 100 files");
    assertThat(inserted.summary())
        .containsEntry("added-records", "2")
        .containsEntry("added-data-files", "1")
        .doesNotContainKey("deleted-data-files")
        .containsEntry("floe.mode", "insert-if-absent");
    assertThat(inserted.parentId()).isEqualTo(before.snapshotId());
    assertThat(tables.rows())
        .hasSize(1002)
        .contains("5:v1:1", "2000:first:1", "2001:new:1")
        .doesNotContain("2000:resent:2");
    assertThat(second.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(tables.events().currentSnapshot().snapshotId()).isEqualTo(inserted.snapshotId());
    assertThat(TableContent.hash(tables.events())).isEqualTo(checksum);
  }

  @Test
  void withASliceOnlyThatDaysKeysCountAsPresent() {
    String sliced =
        INSERT.replace(
            "mode: insert-if-absent", "mode: insert-if-absent\nslice: {column: event_day}");
    // 30 is on day 3 already; 55 exists, but on day 5, outside this run's slice; 3000 is new.
    tables.staging(
        new Object[] {30, 3, "v1", 1},
        new Object[] {55, 3, "moved", 1},
        new Object[] {3_000, 3, "late", 1});

    RunResult result =
        SliceJob.run(RunRequest.of(config, ExampleTables.job(sliced), EventTables.day(3)));

    assertThat(result.outcome().detail())
        .contains("3 keys: 2 inserted, 0 updated, 1 unchanged")
        .contains("of 1 file in scope");
    assertThat(tables.rows()).contains("3000:late:1", "55:moved:1", "55:v1:1").hasSize(1002);
  }

  private RunResult run() {
    return SliceJob.run(RunRequest.of(config, ExampleTables.job(INSERT), null));
  }
}
