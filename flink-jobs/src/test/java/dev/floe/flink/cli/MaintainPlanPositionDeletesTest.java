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
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Position delete files in {@code floe maintain --plan / --apply}: a merge-on-read slice whose
 * partition holds two or more of them (below the thresholds that make compaction apply them) gets a
 * {@code rewrite-position-deletes} item, apply runs the same rewrite as {@code
 * --rewrite-position-deletes} (one commit per slice, rows unchanged), and the next plan is empty.
 */
class MaintainPlanPositionDeletesTest {
  private static final String T = SmallFiles.FACT;
  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  /**
   * Day 3: three small data files, three position delete files (one naming a data file removed
   * since, so it dangles). Day 4: two data files, two delete files. Day 5: one delete file, nothing
   * to gain. 3 to 10 % of the rows deleted, no data file with 10 delete files: no compaction.
   */
  static Table mergeOnRead(EmbeddedCatalog catalog) {
    Table fact = catalog.create(T, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    SmallFiles.append(fact, "2026-10-03", 3, 10, 1);
    SmallFiles.append(fact, "2026-10-04", 2, 10, 100);
    SmallFiles.append(fact, "2026-10-05", 1, 10, 200);
    List<DataFile> day3 = Deletes.dataFiles(fact, "order_date=2026-10-03");
    List<DataFile> day4 = Deletes.dataFiles(fact, "order_date=2026-10-04");
    DataFile day5 = Deletes.dataFiles(fact, "order_date=2026-10-05").get(0);
    Deletes.commit(fact, Deletes.positions(fact, day3.get(0), 1));
    Deletes.commit(fact, Deletes.positions(fact, day3.get(1), 2));
    Deletes.commit(fact, Deletes.positions(fact, day3.get(2), 4));
    fact.newDelete().deleteFile(day3.get(2)).commit();
    Deletes.commit(fact, Deletes.positions(fact, day4.get(0), 0));
    Deletes.commit(fact, Deletes.positions(fact, day4.get(1), 5));
    Deletes.commit(fact, Deletes.positions(fact, day5, 7));
    return fact;
  }

  @Test
  void planProposesTheRewritePerSliceApplyDoesItAndTheNextPlanIsEmpty() throws Exception {
    mergeOnRead(catalog);
    Table before = catalog.load(T);
    ContentHash content = TableContent.hash(before);
    assertThat(TableStats.of(before).deleteFiles()).isEqualTo(6);

    CliRun plan = floe(catalog.home(), "maintain", "--plan", T, "--json");

    assertThat(plan.exitCode()).as(plan.err()).isZero();
    JsonNode items = JSON.readTree(plan.out()).get("items");
    assertThat(items).hasSize(2);
    JsonNode first = items.get(0);
    assertThat(first.get("action").asText()).isEqualTo("rewrite-position-deletes");
    assertThat(first.get("slice").asText()).isEqualTo("order_date=2026-10-03");
    assertThat(first.get("score").asLong()).isEqualTo(2);
    assertThat(first.get("before").asLong()).isEqualTo(3);
    assertThat(first.get("after").asLong()).isEqualTo(1);
    assertThat(first.get("unit").asText()).isEqualTo("position delete files");
    assertThat(first.get("bytes_to_rewrite").asLong()).isPositive();
    assertThat(first.get("reasons").get(0).asText())
        .contains("3 position delete files in 1 partition(s) holding 2 or more")
        .contains("delete_file_threshold 10")
        .contains("deleted_row_ratio 30.0%");
    assertThat(items.get(1).get("slice").asText()).isEqualTo("order_date=2026-10-04");
    assertThat(items.get(1).get("score").asLong()).isEqualTo(1);
    String text = floe(catalog.home(), "maintain", "--plan", T).out();
    assertThat(text).contains("rewrite-position-deletes", "position delete files");

    CliRun apply = floe(catalog.home(), "maintain", "--apply", T, "--json");

    assertThat(apply.exitCode()).as(apply.err()).isZero();
    JsonNode done = JSON.readTree(apply.out()).get("items");
    assertThat(done).hasSize(2);
    for (JsonNode item : done) {
      assertThat(item.get("status").asText()).isEqualTo("done");
    }
    assertThat(done.get(0).get("detail").asText())
        .contains("rewrote 3 position delete file(s) -> 1; 1 dangling entry dropped");
    Table after = catalog.load(T);
    assertThat(TableContent.hash(after)).isEqualTo(content);
    assertThat(TableStats.of(after).deleteFiles()).isEqualTo(3);
    long head = after.currentSnapshot().snapshotId();
    assertThat(after.currentSnapshot().summary()).containsEntry("floe.mode", "compact");
    assertThat(after.snapshot(after.currentSnapshot().parentId()).parentId())
        .isEqualTo(before.currentSnapshot().snapshotId());

    CliRun again = floe(catalog.home(), "maintain", "--plan", T, "--json");

    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(JSON.readTree(again.out()).get("items")).isEmpty();
    CliRun reapply = floe(catalog.home(), "maintain", "--apply", T);
    assertThat(reapply.exitCode()).as(reapply.err()).isZero();
    assertThat(catalog.load(T).currentSnapshot().snapshotId()).isEqualTo(head);
  }

  @Test
  void deletesOverTheRatioAreLeftToCompactionNotRewritten() throws Exception {
    mergeOnRead(catalog);
    catalog.load(T).updateProperties().set("floe.maintain.deleted-row-ratio", "0.05").commit();

    CliRun plan = floe(catalog.home(), "maintain", "--plan", T, "--json");

    assertThat(plan.exitCode()).as(plan.err()).isZero();
    JsonNode items = JSON.readTree(plan.out()).get("items");
    // Day 3 (2 of 20 rows) and day 4 (2 of 20) reach 5 %: compaction applies their deletes.
    assertThat(items).isNotEmpty();
    for (JsonNode item : items) {
      assertThat(item.get("action").asText()).isEqualTo("compact");
    }
  }

  @Test
  void aV3TableWithOldPositionDeletesIsReportedAsRefusedAndNeverApplied() throws Exception {
    Table fact = catalog.create(T, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    SmallFiles.append(fact, "2026-10-03", 2, 10, 1);
    List<DataFile> files = Deletes.dataFiles(fact);
    Deletes.commit(fact, Deletes.positions(fact, files.get(0), 1));
    Deletes.commit(fact, Deletes.positions(fact, files.get(1), 2));
    fact.updateProperties().set("format-version", "3").commit();
    Table before = catalog.load(T);
    ContentHash content = TableContent.hash(before);

    CliRun plan = floe(catalog.home(), "maintain", "--plan", T, "--json");
    CliRun apply = floe(catalog.home(), "maintain", "--apply", T);

    assertThat(plan.exitCode()).as(plan.err()).isZero();
    JsonNode parsed = JSON.readTree(plan.out());
    assertThat(parsed.get("items")).isEmpty();
    JsonNode left = parsed.get("left_out").get(0);
    assertThat(left.get("action").asText()).isEqualTo("rewrite-position-deletes");
    assertThat(left.get("left_out_because").asText())
        .contains("refused: " + T + " is format v3")
        .contains("2 position delete file(s) from before the upgrade");
    assertThat(apply.exitCode()).as(apply.err()).isZero();
    Table after = catalog.load(T);
    assertThat(after.currentSnapshot().snapshotId())
        .isEqualTo(before.currentSnapshot().snapshotId());
    assertThat(TableContent.hash(after)).isEqualTo(content);
  }
}
