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
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A rerun of a sort compaction is a no-op: the partition it ordered is not rewritten again into as
 * many files, and the plan agrees.
 */
class SortRerunITCase {
  private static final String DAY = "2026-01-05";

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void aSortedPartitionWhoseRowsVaryInSizeAlongTheOrderIsNotRewrittenIntoAsManyFilesAgain() {
    // 6000 ids shuffled over six files; the highest quarter carry a 60-character random payload,
    // the others none. Sorted by id, the rows fill three files of about 8, 9 and 63 KB at a 31 KB
    // target: two small files in a partition of one bin, which the rewrite would write into three
    // again. Compaction rewrote them into the same three files on every rerun (a new snapshot
    // each), while the plan, counting no file removed, stayed quiet.
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.required(2, "d", Types.DateType.get()),
            Types.NestedField.required(3, "payload", Types.StringType.get()));
    Table table =
        catalog.create("s.t", schema, PartitionSpec.builderFor(schema).identity("d").build());
    table.replaceSortOrder().asc("id").commit();
    int files = 6;
    int rows = 1000;
    List<Long> ids = new ArrayList<>();
    for (long id = 0; id < files * rows; id++) {
      ids.add(id);
    }
    Collections.shuffle(ids, new Random(5));
    Random random = new Random(3);
    AppendFiles append = table.newAppend();
    for (int f = 0; f < files; f++) {
      Record[] records = new Record[rows];
      for (int r = 0; r < rows; r++) {
        long id = ids.get(f * rows + r);
        StringBuilder payload = new StringBuilder();
        if (id >= files * rows * 3 / 4) {
          for (int c = 0; c < 60; c++) {
            payload.append((char) ('a' + random.nextInt(26)));
          }
        }
        records[r] =
            TableRows.row(
                table, Map.of("id", id, "d", LocalDate.parse(DAY), "payload", payload.toString()));
      }
      append.appendFile(TableRows.write(table, records));
    }
    append.commit();
    table.refresh();
    long target =
        2 * Deletes.dataFiles(table).stream().mapToLong(DataFile::fileSizeInBytes).sum() / files;
    table
        .updateProperties()
        .set(MaintenancePolicy.STRATEGY, "sort")
        .set(MaintenancePolicy.MIN_INPUT_FILES, "2")
        .set(MaintenancePolicy.TARGET_FILE_SIZE, String.valueOf(target))
        .commit();
    ContentHash content = TableContent.hash(table);

    CompactionResult sorted = compaction(target);
    table.refresh();
    long snapshot = table.currentSnapshot().snapshotId();
    long smallLimit = MaintenancePolicy.smallFileLimit(target);
    List<DataFile> after = Deletes.dataFiles(table);
    CompactionResult rerun = compaction(target);
    table.refresh();

    assertThat(sorted.slices().get(0).status()).isEqualTo(SliceCompaction.Status.COMPACTED);
    // The state the rule once rewrote: more small files than bins, as many files as they fill.
    assertThat(after).hasSize(3);
    assertThat(after).filteredOn(f -> f.fileSizeInBytes() < smallLimit).hasSize(2);
    assertThat(rerun.slices().get(0).status())
        .as(rerun.slices().get(0).detail())
        .isEqualTo(SliceCompaction.Status.NOTHING_TO_COMPACT);
    assertThat(rerun.slices().get(0).detail())
        .contains("would be rewritten into fewer files")
        .doesNotContain("no partition has two or more small files");
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
    assertThat(TableContent.hash(table)).isEqualTo(content);
    assertThat(
            MaintenancePlanner.withClock(Clock.systemUTC())
                .includeOpen(true)
                .plan(catalog.catalog(), List.of("s.t"))
                .items())
        .noneMatch(i -> i.action() == PlanAction.COMPACT);
  }

  @Test
  void anOverlappingPartitionWhoseSmallFilesAloneWouldNotBeRewrittenIsPlannedAsCompactionSortsIt() {
    // One large file and two small ones, all spanning the same ids, at a target their bytes fill
    // three times: the small files alone are not rewritten (not into fewer files), but the files
    // overlap on the sort key, so compaction re-sorts the partition. The plan, counting the
    // overlap only for partitions with fewer small files than min_input_files, scored it 0 and
    // left it out.
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.required(2, "d", Types.DateType.get()));
    Table table =
        catalog.create("s.t", schema, PartitionSpec.builderFor(schema).identity("d").build());
    table.replaceSortOrder().asc("id").commit();
    List<Long> ids = new ArrayList<>();
    for (long id = 0; id < 6200; id++) {
      ids.add(id);
    }
    Collections.shuffle(ids, new Random(7));
    AppendFiles append = table.newAppend();
    int from = 0;
    for (int rows : new int[] {6000, 100, 100}) {
      Record[] records = new Record[rows];
      for (int r = 0; r < rows; r++) {
        records[r] =
            TableRows.row(table, Map.of("id", ids.get(from + r), "d", LocalDate.parse(DAY)));
      }
      from += rows;
      append.appendFile(TableRows.write(table, records));
    }
    append.commit();
    table.refresh();
    long target = Deletes.dataFiles(table).stream().mapToLong(DataFile::fileSizeInBytes).sum() / 3;
    table
        .updateProperties()
        .set(MaintenancePolicy.STRATEGY, "sort")
        .set(MaintenancePolicy.MIN_INPUT_FILES, "2")
        .set(MaintenancePolicy.TARGET_FILE_SIZE, String.valueOf(target))
        .commit();
    ContentHash content = TableContent.hash(table);

    MaintenancePlan plan = plan();
    ApplyResult applied = PlanApply.of(catalog.config(), plan).run();
    table.refresh();

    assertThat(plan.items())
        .as(plan.toString())
        .filteredOn(i -> i.action() == PlanAction.COMPACT)
        .singleElement()
        .satisfies(i -> assertThat(List.of(i.before(), i.after())).containsExactly(3L, 3L));
    assertThat(applied.outcomes())
        .filteredOn(o -> o.item().action() == PlanAction.COMPACT)
        .singleElement()
        .satisfies(o -> assertThat(o.status()).as(o.detail()).isEqualTo(ItemOutcome.Status.DONE));
    assertThat(Deletes.dataFiles(table)).hasSize(3);
    assertThat(TableContent.hash(table)).isEqualTo(content);
    // Sorted ids compress better: the next nights write fewer files each, until nothing is due.
    int files = 3;
    for (int night = 0; night < 3 && !compactions(plan()).isEmpty(); night++) {
      PlanApply.of(catalog.config(), plan()).run();
      table.refresh();
      assertThat(Deletes.dataFiles(table)).hasSizeLessThan(files);
      files = Deletes.dataFiles(table).size();
    }
    assertThat(compactions(plan())).isEmpty();
    assertThat(compaction(target).slices().get(0).status())
        .isEqualTo(SliceCompaction.Status.NOTHING_TO_COMPACT);
    assertThat(TableContent.hash(table)).isEqualTo(content);
  }

  private static List<PlanItem> compactions(MaintenancePlan plan) {
    return plan.items().stream().filter(i -> i.action() == PlanAction.COMPACT).toList();
  }

  private MaintenancePlan plan() {
    return MaintenancePlanner.withClock(Clock.systemUTC())
        .includeOpen(true)
        .plan(catalog.catalog(), List.of("s.t"));
  }

  private CompactionResult compaction(long target) {
    return Compaction.of(catalog.config(), "s.t")
        .slices(List.of(DAY))
        .targetFileSizeBytes(target)
        .commit();
  }
}
