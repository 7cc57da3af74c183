package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.maintain.plan.MaintenancePlan;
import dev.floe.catalog.maintain.plan.MaintenancePlanner;
import dev.floe.catalog.maintain.plan.PlanAction;
import dev.floe.catalog.maintain.plan.PlanItem;
import dev.floe.catalog.spec.MaintenancePolicy;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.LongStream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The plan counts the bins compaction rewrites (one rule groups both): a plan's data files after
 * are the files an applied plan leaves, and a plan never proposes a compaction that would rewrite
 * nothing.
 */
class PlanCountsTheBinsCompactionRewritesTest {
  private static final LocalDate DAY = LocalDate.of(2026, 1, 5);

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void smallFilesBesideAFileChosenForItsDeletesAreRewrittenAsThePlanCountsThem() throws Exception {
    // Four small files of incompressible rows, each about 0.7 targets (2.8 together); the smallest
    // has 40% of its rows deleted, which chooses it for its deletes. Compaction once split the
    // partition into three bins (one per target filled, up to one per file once a file was
    // chosen for its deletes), left two files alone in theirs and kept them, while the plan
    // counted all four: 4 -> 4 data files planned (the four small ones into three), 4 -> 3
    // applied, and the two left were proposed again.
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.required(2, "d", Types.DateType.get()),
            Types.NestedField.required(3, "payload", Types.StringType.get()));
    Table table =
        catalog.create("s.t", schema, PartitionSpec.builderFor(schema).identity("d").build());
    Random random = new Random(3);
    long id = 0;
    for (int rows : new int[] {4100, 4050, 4000, 3900}) {
      Record[] records = new Record[rows];
      for (int r = 0; r < rows; r++) {
        StringBuilder payload = new StringBuilder();
        for (int c = 0; c < 60; c++) {
          payload.append((char) ('a' + random.nextInt(26)));
        }
        records[r] =
            TableRows.row(table, Map.of("id", id++, "d", DAY, "payload", payload.toString()));
      }
      TableRows.append(table, records);
    }
    List<DataFile> files = new ArrayList<>(Deletes.dataFiles(table));
    files.sort(Comparator.comparingLong(DataFile::fileSizeInBytes));
    DataFile smallest = files.get(0);
    Deletes.commit(
        table,
        Deletes.positions(
            table, smallest, LongStream.range(0, smallest.recordCount() * 4 / 10).toArray()));
    table
        .updateProperties()
        .set(MaintenancePolicy.MIN_INPUT_FILES, "2")
        .set(
            MaintenancePolicy.TARGET_FILE_SIZE,
            String.valueOf(files.get(3).fileSizeInBytes() * 14 / 10))
        .commit();
    ContentHash content = TableContent.hash(table);
    Set<String> before = locations(table);

    PlanItem item = compaction(plan());
    ApplyResult applied = PlanApply.of(catalog.config(), plan()).run();
    table.refresh();

    assertThat(applied.outcomes())
        .filteredOn(o -> o.item().action() == PlanAction.COMPACT)
        .singleElement()
        .satisfies(o -> assertThat(o.status()).as(o.detail()).isEqualTo(ItemOutcome.Status.DONE));
    // Data and delete files: four and one before, two and none after.
    assertThat(item.before()).isEqualTo(5);
    assertThat(locations(table)).doesNotContainAnyElementsOf(before);
    assertThat(Deletes.attachedDeletes(table)).isZero();
    assertThat((long) locations(table).size()).isEqualTo(item.after()).isEqualTo(2);
    assertThat(TableContent.hash(table)).isEqualTo(content);
    assertThat(plan().items()).noneMatch(i -> i.action() == PlanAction.COMPACT);
  }

  @Test
  void sortedFilesEachOverHalfAGroupsHeapAreNotPlannedSinceNoGroupHoldsTwo() throws Exception {
    // Twelve list columns make each row's estimated heap over 3 KiB, so 90,000 rows take more
    // than half the 512 MiB a sorted group may hold: no two of the three files share a group. The
    // plan once counted the two groups the bytes need, planned the three small files into one
    // every night, and compaction, giving each file a group of its own, rewrote nothing.
    List<Types.NestedField> columns = new ArrayList<>();
    columns.add(Types.NestedField.required(1, "id", Types.LongType.get()));
    columns.add(Types.NestedField.required(2, "d", Types.DateType.get()));
    for (int c = 0; c < 12; c++) {
      columns.add(
          Types.NestedField.optional(
              3 + c, "l" + c, Types.ListType.ofOptional(100 + c, Types.LongType.get())));
    }
    Schema schema = new Schema(columns);
    Table table =
        catalog.create("s.t", schema, PartitionSpec.builderFor(schema).identity("d").build());
    table.replaceSortOrder().asc("id").commit();
    table
        .updateProperties()
        .set(MaintenancePolicy.STRATEGY, "sort")
        .set(MaintenancePolicy.MIN_INPUT_FILES, "2")
        .commit();
    long id = 0;
    for (int f = 0; f < 3; f++) {
      Record[] records = new Record[90_000];
      for (int r = 0; r < records.length; r++) {
        records[r] = TableRows.row(table, Map.of("id", id++, "d", DAY));
      }
      TableRows.append(table, records);
    }
    Set<String> before = locations(table);

    MaintenancePlan plan = plan();
    PlanApply.of(catalog.config(), plan).run();
    table.refresh();

    assertThat(plan.items()).as(plan.items().toString()).noneMatch(this::isCompaction);
    assertThat(locations(table)).isEqualTo(before);
  }

  private boolean isCompaction(PlanItem item) {
    return item.action() == PlanAction.COMPACT;
  }

  private MaintenancePlan plan() {
    return MaintenancePlanner.withClock(Clock.systemUTC())
        .includeOpen(true)
        .plan(catalog.catalog(), List.of("s.t"));
  }

  private static PlanItem compaction(MaintenancePlan plan) {
    return plan.items().stream()
        .filter(i -> i.action() == PlanAction.COMPACT)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no compaction in " + plan.items()));
  }

  private static Set<String> locations(Table table) {
    Set<String> locations = new TreeSet<>();
    Deletes.dataFiles(table).forEach(f -> locations.add(f.location()));
    return locations;
  }
}
