package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.maintain.TableStats;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.flink.maintain.Deletes;
import dev.floe.flink.maintain.SmallFiles;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * `floe maintain TABLE --rewrite-position-deletes` as an operator types it, on a merge-on-read
 * table (position delete files written with Iceberg's own writer, as Spark's merge-on-read leaves
 * them): no Flink job, one commit per slice, rows unchanged.
 */
class MaintainRewritePositionDeletesTest {
  private static final String T = SmallFiles.FACT;
  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  /**
   * Day 3: three data files, three position delete files (on a, on b, on a file removed later, so
   * one entry dangles). Day 4: two data files, two position delete files. Day 5: one delete file,
   * nothing to gain.
   */
  @BeforeEach
  void mergeOnReadTable() {
    Table fact = catalog.create(T, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    SmallFiles.append(fact, "2026-10-03", 3, 10, 1);
    SmallFiles.append(fact, "2026-10-04", 2, 10, 100);
    SmallFiles.append(fact, "2026-10-05", 1, 10, 200);
    List<DataFile> day3 = Deletes.dataFiles(fact, "order_date=2026-10-03");
    List<DataFile> day4 = Deletes.dataFiles(fact, "order_date=2026-10-04");
    DataFile day5 = Deletes.dataFiles(fact, "order_date=2026-10-05").get(0);
    Deletes.commit(fact, Deletes.positions(fact, day3.get(0), 1));
    Deletes.commit(fact, Deletes.positions(fact, day3.get(1), 2, 3));
    Deletes.commit(fact, Deletes.positions(fact, day3.get(2), 4));
    fact.newDelete().deleteFile(day3.get(2)).commit();
    Deletes.commit(fact, Deletes.positions(fact, day4.get(0), 0));
    Deletes.commit(fact, Deletes.positions(fact, day4.get(1), 5, 6));
    Deletes.commit(fact, Deletes.positions(fact, day5, 7));
  }

  @Test
  void dryRunChangesNothingThenOneCommitPerSliceKeepsTheRowsAndARerunIsANoOp() throws Exception {
    Table before = catalog.load(T);
    ContentHash content = TableContent.hash(before);
    assertThat(content.rows()).isEqualTo(20 - 3 + 20 - 3 + 10 - 1);
    String metadata = metadataLocation(before);
    long deleteFiles = TableStats.of(before).deleteFiles();
    // 3 + 2 + 1: the file naming the removed data file stays until it is rewritten.
    assertThat(deleteFiles).isEqualTo(6);

    CliRun dryRun =
        floe(catalog.home(), "maintain", T, "--rewrite-position-deletes", "--dry-run", "--json");

    assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
    assertThat(metadataLocation(catalog.load(T))).isEqualTo(metadata);
    JsonNode action = JSON.readTree(dryRun.out()).get("actions").get(0);
    assertThat(action.get("action").asText()).isEqualTo("rewrite-position-deletes");
    assertThat(action.get("after_is_prediction").asBoolean()).isTrue();
    assertThat(action.get("before").get("delete_files").asLong()).isEqualTo(deleteFiles);
    assertThat(action.get("after").get("delete_files").asLong()).isEqualTo(deleteFiles - 5 + 2);
    JsonNode slices = action.get("position_deletes").get("slices");
    assertThat(slices).hasSize(3);
    assertThat(slices.get(0).get("slice").asText()).isEqualTo("order_date=2026-10-03");
    assertThat(slices.get(0).get("status").asText()).isEqualTo("would rewrite");
    assertThat(slices.get(0).get("delete_files_in").asInt()).isEqualTo(3);
    assertThat(slices.get(0).get("delete_files_out").asInt()).isEqualTo(1);
    assertThat(slices.get(0).get("dangling_entries_dropped").asLong()).isEqualTo(1);
    assertThat(slices.get(0).get("entries_kept").asLong()).isEqualTo(3);
    assertThat(slices.get(0).get("snapshot_id").isNull()).isTrue();
    assertThat(slices.get(1).get("delete_files_in").asInt()).isEqualTo(2);
    assertThat(slices.get(2).get("status").asText()).isEqualTo("nothing to rewrite");

    CliRun run = floe(catalog.home(), "maintain", T, "--rewrite-position-deletes");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("rewrite-position-deletes", "rewrote 3 position delete file(s) -> 1")
        .contains("rewrote 2 position delete file(s) -> 1", "nothing to rewrite");
    Table after = catalog.load(T);
    assertThat(TableContent.hash(after)).isEqualTo(content);
    assertThat(TableStats.of(after).deleteFiles()).isEqualTo(deleteFiles - 5 + 2);
    Snapshot head = after.currentSnapshot();
    Snapshot parent = after.snapshot(head.parentId());
    assertThat(parent.parentId()).isEqualTo(before.currentSnapshot().snapshotId());
    for (Snapshot commit : List.of(head, parent)) {
      assertThat(commit.summary()).containsEntry("floe.mode", "compact");
    }
    assertThat(head.summary().get("floe.slice")).isEqualTo("order_date=[2026-10-04,2026-10-05)");

    CliRun rerun = floe(catalog.home(), "maintain", T, "--rewrite-position-deletes", "--json");

    assertThat(rerun.exitCode()).as(rerun.err()).isZero();
    assertThat(catalog.load(T).currentSnapshot().snapshotId()).isEqualTo(head.snapshotId());
    JsonNode again = JSON.readTree(rerun.out()).get("actions").get(0);
    assertThat(again.get("changed").asBoolean()).isFalse();
    for (JsonNode slice : again.get("position_deletes").get("slices")) {
      assertThat(slice.get("status").asText()).isEqualTo("nothing to rewrite");
    }
  }

  @Test
  void aGivenSliceIsTheOnlyOneRewrittenAndASliceWithoutTheActionIsAUsageError() {
    long headBefore = catalog.load(T).currentSnapshot().snapshotId();

    CliRun one =
        floe(catalog.home(), "maintain", T, "--rewrite-position-deletes", "--slice", "2026-10-04");
    CliRun alone = floe(catalog.home(), "maintain", T, "--slice", "2026-10-04", "--expire");
    CliRun bad =
        floe(catalog.home(), "maintain", T, "--rewrite-position-deletes", "--slice", "2026-13-04");

    assertThat(one.exitCode()).as(one.err()).isZero();
    Table after = catalog.load(T);
    assertThat(after.currentSnapshot().parentId()).isEqualTo(headBefore);
    assertThat(after.currentSnapshot().summary())
        .containsEntry("floe.slice", "order_date=[2026-10-04,2026-10-05)")
        .containsEntry("removed-position-delete-files", "2");
    assertThat(alone.exitCode()).isEqualTo(2);
    assertThat(alone.err())
        .contains("Cannot use --slice without --compact or --rewrite-position-deletes");
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err()).contains("2026-13-04");
  }

  private static String metadataLocation(Table table) {
    return ((HasTableOperations) table).operations().current().metadataFileLocation();
  }
}
