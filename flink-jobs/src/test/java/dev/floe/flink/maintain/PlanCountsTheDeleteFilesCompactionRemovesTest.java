package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.maintain.TableStats;
import dev.floe.catalog.maintain.plan.MaintenancePlan;
import dev.floe.catalog.maintain.plan.MaintenancePlanner;
import dev.floe.catalog.maintain.plan.PlanAction;
import dev.floe.catalog.maintain.plan.PlanItem;
import dev.floe.catalog.spec.MaintenancePolicy;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.time.Clock;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Compaction removes only the delete files all of whose data files it rewrites: the plan's data +
 * delete files after a compaction are the ones the table holds once it is applied (it once counted
 * every delete file of the slice as removed, 4 -> 2 where applying gave 3).
 */
class PlanCountsTheDeleteFilesCompactionRemovesTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()),
          Types.NestedField.required(3, "region", Types.StringType.get()));
  private static final LocalDate DAY = LocalDate.of(2026, 1, 5);

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private long nextId;

  @Test
  void aFewDeletedRowsOfAFileCompactionKeepsStayInTheirDeleteFile() {
    Table table = table();
    // Half of a's rows deleted: its file is rewritten; one row of b's: its file is kept.
    DataFile a = append(table, "a", 10);
    DataFile b = append(table, "b", 10);
    Deletes.commit(table, Deletes.positions(table, a, 0, 1, 2, 3, 4));
    Deletes.commit(table, Deletes.positions(table, b, 0));

    assertPlanIsWhatApplyDoes(table, 4, 3);
  }

  @Test
  void theDeleteFileOfASmallFileCompactedWithOthersIsRemovedAndThePlanCountsIt() {
    Table table = table();
    table.updateProperties().set(MaintenancePolicy.MIN_INPUT_FILES, "2").commit();
    // No file is chosen for its deletes, but rewriting a's two small files applies the one.
    DataFile a = append(table, "a", 10);
    append(table, "a", 10);
    Deletes.commit(table, Deletes.positions(table, a, 0));

    assertPlanIsWhatApplyDoes(table, 3, 1);
  }

  @Test
  void anEqualityDeleteThatAlsoAppliesToAFileCompactionKeepsStays() {
    Table table = table();
    // A large file and a small one of region a, an equality delete applying to both, and half of
    // the small file's rows deleted by position: only the small file is rewritten.
    DataFile large = append(table, "a", 20_000);
    DataFile small = append(table, "a", 10);
    table
        .updateProperties()
        .set(MaintenancePolicy.TARGET_FILE_SIZE, String.valueOf(large.fileSizeInBytes() * 5 / 4))
        .commit();
    Deletes.commit(
        table,
        Deletes.equality(table, small.partition(), "id", nextId - 1, 0),
        Deletes.positions(table, small, 0, 1, 2, 3, 4));

    assertPlanIsWhatApplyDoes(table, 4, 3);
  }

  @Test
  void aFileChosenForAnEqualityDeleteThatStaysIsPlannedAndRewrittenOnce() {
    // A global equality delete (of the unpartitioned spec the table began with: what an upsert
    // writer leaves) deletes a row of the slice's one small file. Compaction keeps the delete, an
    // older spec's, and rewrites the file chosen for it into one: no file fewer. The plan scored
    // that 0 and left it out while --compact rewrote it; after the rewrite the delete no longer
    // applies (the new file keeps the base snapshot's sequence number), so once is enough.
    Table table = catalog.create("s.t", SCHEMA, PartitionSpec.unpartitioned());
    table.updateProperties().set(MaintenancePolicy.DELETE_FILE_THRESHOLD, "1").commit();
    table.updateSpec().addField("d").addField("region").commit();
    append(table, "a", 10);
    table.updateSpec().removeField("d").removeField("region").commit();
    // A row in the middle, so the new file's id bounds still cover it.
    DeleteFile global = Deletes.equality(table, null, "id", nextId - 5);
    table.updateSpec().addField("d").addField("region").commit();
    Deletes.commit(table, global);
    assertThat(global.specId()).isNotEqualTo(table.spec().specId());

    assertPlanIsWhatApplyDoes(table, 2, 2);
    assertThat(Deletes.attachedDeletes(table)).isZero();
  }

  @Test
  void theDeleteFileOfAnOlderSpecsFileStaysAndThePlanCountsIt() {
    // A file of the day-only spec with a row deleted (compaction keeps files of older specs, and
    // their delete files), then two small files of the day-and-region spec, one with deletes. The
    // plan counted the older file but not its delete file: 4 -> 2 where the table went 5 -> 3.
    Table table =
        catalog.create("s.t", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    table.updateProperties().set(MaintenancePolicy.MIN_INPUT_FILES, "2").commit();
    DataFile old = append(table, "a", 10);
    Deletes.commit(table, Deletes.positions(table, old, 0));
    table.updateSpec().addField("region").commit();
    DataFile a = append(table, "a", 10);
    append(table, "a", 10);
    Deletes.commit(table, Deletes.positions(table, a, 0, 1, 2, 3, 4));

    assertPlanIsWhatApplyDoes(table, 5, 3);
  }

  /**
   * Plans the table, applies the plan, and checks the compaction's data + delete files before and
   * after are {@code before} and {@code after}, in the plan and in the table, with the same rows,
   * and that a new plan has no compaction left.
   */
  private void assertPlanIsWhatApplyDoes(Table table, long before, long after) {
    ContentHash content = TableContent.hash(table);
    assertThat(files(table)).isEqualTo(before);

    MaintenancePlan plan = plan();
    PlanItem item =
        plan.items().stream()
            .filter(i -> i.action() == PlanAction.COMPACT)
            .findFirst()
            .orElseThrow(() -> new AssertionError("no compaction in " + plan.items()));
    ApplyResult applied = PlanApply.of(catalog.config(), plan).run();

    assertThat(applied.outcomes())
        .filteredOn(o -> o.item().action() == PlanAction.COMPACT)
        .singleElement()
        .satisfies(o -> assertThat(o.status()).as(o.detail()).isEqualTo(ItemOutcome.Status.DONE));
    table.refresh();
    assertThat(item.unit()).isEqualTo("data + delete files");
    assertThat(List.of(item.before(), item.after()))
        .as(item.toString())
        .containsExactly(before, after);
    assertThat(files(table)).isEqualTo(after);
    assertThat(TableContent.hash(table)).isEqualTo(content);
    assertThat(plan().items()).noneMatch(i -> i.action() == PlanAction.COMPACT);
  }

  private Table table() {
    return catalog.create(
        "s.t", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").identity("region").build());
  }

  /** Appends one file of {@code rows} rows of {@code region}, and returns it. */
  private DataFile append(Table table, String region, int rows) {
    Record[] records = new Record[rows];
    for (int r = 0; r < rows; r++) {
      records[r] = TableRows.row(table, Map.of("id", nextId++, "d", DAY, "region", region));
    }
    DataFile file = TableRows.write(table, records);
    table.newAppend().appendFile(file).commit();
    return file;
  }

  /** The table's data files plus delete files. */
  private static long files(Table table) {
    TableStats stats = TableStats.of(table);
    return stats.dataFiles() + stats.deleteFiles();
  }

  private MaintenancePlan plan() {
    return MaintenancePlanner.withClock(Clock.systemUTC())
        .includeOpen(true)
        .plan(catalog.catalog(), List.of("s.t"));
  }
}
