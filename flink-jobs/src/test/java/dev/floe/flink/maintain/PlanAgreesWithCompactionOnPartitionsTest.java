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
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A slice of several partitions (a day and a region): the plan's files before and after a
 * compaction are what applying it does, since compaction rewrites each partition of the slice on
 * its own (every one with two or more small files, at least one file each).
 */
class PlanAgreesWithCompactionOnPartitionsTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()),
          Types.NestedField.required(3, "region", Types.StringType.get()));
  private static final LocalDate DAY = LocalDate.of(2026, 1, 5);

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void theFilesAfterTheAppliedPlanAreTheFilesThePlanSaid() throws Exception {
    // Region a reaches min_input_files 3; b and c hold two small files each, d one.
    Table table = table(Map.of("a", 3, "b", 2, "c", 2, "d", 1));
    ContentHash content = TableContent.hash(table);

    PlanItem item = compaction(plan());
    ApplyResult applied = PlanApply.of(catalog.config(), plan()).run();

    assertThat(applied.outcomes())
        .filteredOn(o -> o.item().action() == PlanAction.COMPACT)
        .singleElement()
        .satisfies(o -> assertThat(o.status()).as(o.detail()).isEqualTo(ItemOutcome.Status.DONE));
    table.refresh();
    assertThat(item.before()).isEqualTo(8);
    assertThat(dataFiles(table)).isEqualTo(item.after()).isEqualTo(4);
    assertThat(TableContent.hash(table)).isEqualTo(content);
  }

  @Test
  void aZorderSliceRewritesEveryPartitionWithSmallFilesAndThePlanSaysSo() throws Exception {
    // Region a reaches min_input_files 3; compaction also rewrites b and c (two small files each,
    // more than the one group each is ordered in), and leaves d (one file) alone.
    Table table = table(Map.of("a", 3, "b", 2, "c", 2, "d", 1));
    table
        .updateProperties()
        .set(MaintenancePolicy.STRATEGY, "zorder")
        .set(MaintenancePolicy.ZORDER_COLUMNS, "id")
        .commit();
    ContentHash content = TableContent.hash(table);

    PlanItem item = compaction(plan());
    PlanApply.of(catalog.config(), plan()).run();

    table.refresh();
    assertThat(item.before()).isEqualTo(8);
    assertThat(dataFiles(table)).isEqualTo(item.after()).isEqualTo(4);
    assertThat(TableContent.hash(table)).isEqualTo(content);
  }

  @Test
  void smallFilesThatFillMoreThanTwoTargetsArePlannedIntoTwoAndApplyWritesTwo() throws Exception {
    // Three files of incompressible rows, each under 3/4 of the target, together 2.1 targets:
    // the writer closes no file before half the rows, so they give two files, as the plan says
    // (it once counted three, a rewrite that removes none, and planned nothing).
    Schema wide =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.required(2, "d", Types.DateType.get()),
            Types.NestedField.required(3, "payload", Types.StringType.get()));
    Table table = catalog.create("s.t", wide, PartitionSpec.builderFor(wide).identity("d").build());
    java.util.Random random = new java.util.Random(1);
    long id = 0;
    for (int f = 0; f < 3; f++) {
      org.apache.iceberg.data.Record[] rows = new org.apache.iceberg.data.Record[4000];
      for (int r = 0; r < rows.length; r++) {
        StringBuilder payload = new StringBuilder();
        for (int c = 0; c < 60; c++) {
          payload.append((char) ('a' + random.nextInt(26)));
        }
        rows[r] = TableRows.row(table, Map.of("id", id++, "d", DAY, "payload", payload.toString()));
      }
      TableRows.append(table, rows);
    }
    long largest;
    try (var tasks = table.newScan().planFiles()) {
      largest =
          StreamSupport.stream(tasks.spliterator(), false)
              .mapToLong(task -> task.file().fileSizeInBytes())
              .max()
              .orElseThrow();
    }
    table
        .updateProperties()
        .set(MaintenancePolicy.MIN_INPUT_FILES, "2")
        .set(MaintenancePolicy.TARGET_FILE_SIZE, String.valueOf(largest * 14 / 10))
        .commit();

    ContentHash content = TableContent.hash(table);

    PlanItem item = compaction(plan());
    PlanApply.of(catalog.config(), plan()).run();
    table.refresh();

    assertThat(item.before()).isEqualTo(3);
    assertThat(dataFiles(table)).isEqualTo(item.after()).isEqualTo(2);
    assertThat(TableContent.hash(table)).isEqualTo(content);
    assertThat(plan().items()).noneMatch(i -> i.action() == PlanAction.COMPACT);
  }

  @Test
  void filesACompactionWroteAreNotPlannedForCompactionAgain() throws Exception {
    // Incompressible rows: the writer's size estimate is close, so the files it writes end just
    // below the target; 24 inputs give about ten of them, and a remainder per group. Counted as
    // small at the target itself, the ten would be compacted again by every plan.
    Schema random =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.required(2, "d", Types.DateType.get()),
            Types.NestedField.required(3, "a", Types.LongType.get()),
            Types.NestedField.required(4, "b", Types.LongType.get()));
    Table table =
        catalog.create("s.t", random, PartitionSpec.builderFor(random).identity("d").build());
    java.util.Random values = new java.util.Random(7);
    appendFiles(
        table,
        24,
        id -> Map.of("id", id, "d", DAY, "a", values.nextLong(), "b", values.nextLong()));
    long bytes = totalBytes(table);
    table
        .updateProperties()
        .set(MaintenancePolicy.MIN_INPUT_FILES, "5")
        .set(MaintenancePolicy.TARGET_FILE_SIZE, String.valueOf(bytes / 10))
        .commit();
    ContentHash content = TableContent.hash(table);

    PlanApply.of(catalog.config(), plan()).run();
    table.refresh();
    long snapshots = StreamSupport.stream(table.snapshots().spliterator(), false).count();

    assertThat(dataFiles(table)).isBetween(9L, 13L);
    assertThat(TableContent.hash(table)).isEqualTo(content);
    assertThat(plan().items()).noneMatch(i -> i.action() == PlanAction.COMPACT);
    PlanApply.of(catalog.config(), plan()).run();
    table.refresh();
    assertThat(StreamSupport.stream(table.snapshots().spliterator(), false).count())
        .isEqualTo(snapshots);
  }

  @Test
  void compressibleRowsAreRewrittenIntoThePlannedFilesAndCompactionSettles() throws Exception {
    // Four-letter strings and ascending ids compress well: the Parquet writer's estimate of an
    // open file counts its row group uncompressed, so closing files at that estimate wrote 24
    // files for 24 (and the plan proposed the same compaction every night).
    Schema strings =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.required(2, "d", Types.DateType.get()),
            Types.NestedField.required(3, "s", Types.StringType.get()));
    Table table =
        catalog.create("s.t", strings, PartitionSpec.builderFor(strings).identity("d").build());
    java.util.Random values = new java.util.Random(11);
    List<String> words = List.of("abcd", "efgh", "ijkl", "mnop");
    appendFiles(
        table, 24, id -> Map.of("id", id, "d", DAY, "s", words.get(values.nextInt(words.size()))));
    table
        .updateProperties()
        .set(MaintenancePolicy.MIN_INPUT_FILES, "5")
        .set(MaintenancePolicy.TARGET_FILE_SIZE, String.valueOf(totalBytes(table) / 8))
        .commit();
    ContentHash content = TableContent.hash(table);

    PlanItem item = compaction(plan());
    PlanApply.of(catalog.config(), plan()).run();
    table.refresh();

    assertThat(item.before()).isEqualTo(24);
    // The files the plan announced: no file closes before its share of the rows.
    assertThat(dataFiles(table)).isEqualTo(item.after()).isLessThan(24);
    assertThat(TableContent.hash(table)).isEqualTo(content);
    // Outputs may compress better than their inputs and be small again; then every further
    // compaction still ends with fewer files, so the plan runs out of work.
    for (int round = 0; round < 5 && hasCompaction(plan()); round++) {
      long files = dataFiles(table);
      PlanApply.of(catalog.config(), plan()).run();
      table.refresh();
      assertThat(dataFiles(table)).as("files after round %d", round).isLessThan(files);
    }
    assertThat(plan().items()).noneMatch(i -> i.action() == PlanAction.COMPACT);
    assertThat(TableContent.hash(table)).isEqualTo(content);
  }

  private static boolean hasCompaction(MaintenancePlan plan) {
    return plan.items().stream().anyMatch(i -> i.action() == PlanAction.COMPACT);
  }

  /** Appends {@code files} files of 2000 rows each, the row of id {@code i} being row(i). */
  private static void appendFiles(
      Table table, int files, java.util.function.LongFunction<Map<String, Object>> row) {
    long id = 0;
    for (int f = 0; f < files; f++) {
      org.apache.iceberg.data.Record[] rows = new org.apache.iceberg.data.Record[2000];
      for (int r = 0; r < rows.length; r++) {
        rows[r] = TableRows.row(table, row.apply(id++));
      }
      TableRows.append(table, rows);
    }
  }

  private static long totalBytes(Table table) throws java.io.IOException {
    try (var tasks = table.newScan().planFiles()) {
      return StreamSupport.stream(tasks.spliterator(), false)
          .mapToLong(task -> task.file().fileSizeInBytes())
          .sum();
    }
  }

  private Table table(Map<String, Integer> smallFilesByRegion) {
    Table table =
        catalog.create(
            "s.t",
            SCHEMA,
            PartitionSpec.builderFor(SCHEMA).identity("d").identity("region").build());
    table.updateProperties().set(MaintenancePolicy.MIN_INPUT_FILES, "3").commit();
    long id = 0;
    for (Map.Entry<String, Integer> region : smallFilesByRegion.entrySet()) {
      for (int f = 0; f < region.getValue(); f++) {
        TableRows.append(
            table, TableRows.row(table, Map.of("id", id++, "d", DAY, "region", region.getKey())));
      }
    }
    return table;
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

  private static long dataFiles(Table table) throws java.io.IOException {
    try (var tasks = table.newScan().planFiles()) {
      return StreamSupport.stream(tasks.spliterator(), false).count();
    }
  }
}
