package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.StoredRows;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.maintain.TableStats;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Compaction of merge-on-read tables: the rewrite applies position deletes, equality deletes and
 * deletion vectors, and its commit removes the delete files that no longer apply. The table's
 * content, read with deletes applied ({@link TableContent}), is the same before and after.
 */
class MergeOnReadCompactionITCase {
  private static final String DAY3 = "2026-10-03";
  private static final String DAY4 = "2026-10-04";

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void positionAndEqualityDeletesAreAppliedAndTheirFilesRemovedWhereNoLongerNeeded() {
    Table fact = catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    SmallFiles.append(fact, DAY3, 4, 10, 1); // order ids 1..40
    SmallFiles.append(fact, DAY4, 2, 10, 100); // order ids 100..119
    List<DataFile> files = Deletes.dataFiles(fact);
    DataFile day3First = files.stream().filter(f -> inDay(f, DAY3)).findFirst().orElseThrow();
    DataFile day4First = files.stream().filter(f -> inDay(f, DAY4)).findFirst().orElseThrow();
    Deletes.commit(
        fact,
        Deletes.positions(fact, day3First, 0, 1, 9),
        Deletes.equality(fact, day3First.partition(), "order_id", 15, 25, 35),
        Deletes.equality(fact, day4First.partition(), "order_id", 101));
    ContentHash table = TableContent.hash(fact);
    ContentHash day3 = day(fact, DAY3);
    assertThat(day3.rows()).isEqualTo(34);

    CompactionResult result =
        Compaction.of(catalog.config(), SmallFiles.FACT).slices(List.of(DAY3)).commit();

    fact.refresh();
    SliceCompaction slice = result.slices().get(0);
    assertThat(slice.status()).isEqualTo(SliceCompaction.Status.COMPACTED);
    assertThat(slice.detail())
        .contains("34 rows, content hash unchanged; applied 2 delete file(s), removed 2");
    assertThat(TableContent.hash(fact)).isEqualTo(table);
    assertThat(day(fact, DAY3)).isEqualTo(day3);
    assertThat(SmallFiles.dataFiles(fact, DAY3)).hasSize(1);
    // The new file holds only live rows: no delete file applies to it any more.
    assertThat(deletesOn(fact, DAY3)).isZero();
    assertThat(rowsInFiles(fact, DAY3)).isEqualTo(34);
    assertThat(fact.currentSnapshot().summary())
        .containsEntry("removed-position-delete-files", "1")
        .containsEntry("removed-equality-delete-files", "1")
        .containsEntry("floe.compacted-content-hash", day3.encode());
    // The other day keeps its equality delete (Iceberg attaches it to the one file whose order
    // id bounds may hold 101).
    assertThat(deletesOn(fact, DAY4)).isEqualTo(1);
  }

  @Test
  void equalityDeletesOfAFlinkUpsertJobAreAppliedByCompaction() throws Exception {
    org.apache.iceberg.Schema keyed =
        new org.apache.iceberg.Schema(
            SmallFiles.SCHEMA.columns(), java.util.Set.of(1, 4)); // order_id, order_date
    Table fact =
        catalog.create(
            SmallFiles.FACT,
            keyed,
            org.apache.iceberg.PartitionSpec.builderFor(keyed).identity("order_date").build());
    SmallFiles.append(fact, DAY3, 2, 10, 1); // order ids 1..20
    // Iceberg's Flink sink in upsert mode: each row replaces its key with an equality delete.
    org.apache.flink.table.api.bridge.java.StreamTableEnvironment sql =
        dev.floe.flink.session.FlinkSessions.tableEnvironment(
            dev.floe.flink.session.FlinkSessions.batchEnvironment(
                1, new org.apache.flink.configuration.Configuration()),
            catalog.config());
    sql.executeSql(
            "INSERT INTO sales.fact_orders /*+ OPTIONS('upsert-enabled'='true') */ VALUES"
                + " (CAST(5 AS BIGINT), CAST(70 AS BIGINT), CAST(7.00 AS DECIMAL(10, 2)),"
                + " DATE '2026-10-03'),"
                + " (CAST(12 AS BIGINT), CAST(70 AS BIGINT), CAST(8.00 AS DECIMAL(10, 2)),"
                + " DATE '2026-10-03')")
        .await();
    fact.refresh();
    assertThat(deletesOn(fact, DAY3)).isPositive();
    ContentHash content = TableContent.hash(fact);
    assertThat(content.rows()).isEqualTo(20);

    CompactionResult result =
        Compaction.of(catalog.config(), SmallFiles.FACT).slices(List.of(DAY3)).commit();

    fact.refresh();
    assertThat(result.slices().get(0).status()).isEqualTo(SliceCompaction.Status.COMPACTED);
    assertThat(TableContent.hash(fact)).isEqualTo(content);
    assertThat(deletesOn(fact, DAY3)).isZero();
    assertThat(SmallFiles.dataFiles(fact, DAY3)).hasSize(1);
    assertThat(rowsInFiles(fact, DAY3)).isEqualTo(20);
  }

  @Test
  void aDeleteCommittedWhileTheCompactionRanIsNeverLostTheSliceIsRefusedAndKeepsIt() {
    Table fact = catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    SmallFiles.append(fact, DAY3, 3, 10, 1);
    DataFile first = Deletes.dataFiles(fact).get(0);
    java.util.Set<String> warehouse = SmallFiles.warehouse(fact);

    CompactionResult result =
        Compaction.of(catalog.config(), SmallFiles.FACT)
            .slices(List.of(DAY3))
            .afterPlanning(
                () -> {
                  Table other = catalog.load(SmallFiles.FACT);
                  Deletes.commit(other, Deletes.positions(other, first, 3));
                  warehouse.addAll(SmallFiles.warehouse(other));
                })
            .commit();

    fact.refresh();
    SliceCompaction slice = result.slices().get(0);
    assertThat(slice.status()).isEqualTo(SliceCompaction.Status.FAILED);
    assertThat(slice.exitCode()).isEqualTo(dev.floe.catalog.error.ExitCodes.COMMIT_CONFLICT);
    assertThat(day(fact, DAY3).rows()).isEqualTo(29);
    assertThat(deletesOn(fact, DAY3)).isEqualTo(1);
    // Nothing of the compaction is left: the warehouse holds what it held, plus the delete.
    assertThat(SmallFiles.warehouse(fact)).isEqualTo(warehouse);
  }

  @Test
  void deletionVectorsOfAFormatV3TableAreAppliedAndEveryRowKeepsItsRowId() {
    Table fact = threeFilesWithTwoDeletionVectors();
    ContentHash content = TableContent.hash(fact);
    Map<Long, Long> rowIds = rowIds(fact);
    assertThat(rowIds).hasSize(27);

    CompactionResult result =
        Compaction.of(catalog.config(), SmallFiles.FACT).slices(List.of(DAY3)).commit();

    fact.refresh();
    assertThat(result.slices().get(0).status()).isEqualTo(SliceCompaction.Status.COMPACTED);
    assertThat(TableContent.hash(fact)).isEqualTo(content);
    assertThat(SmallFiles.dataFiles(fact, DAY3)).hasSize(1);
    assertThat(deletesOn(fact, DAY3)).isZero();
    assertThat(fact.currentSnapshot().summary()).containsEntry("removed-dvs", "2");
    assertThat(rowIds(fact)).isEqualTo(rowIds);
  }

  @Test
  void aDryRunCountsTheDeletedRowsAndTheDeleteFilesTheCommitDrops() {
    Table fact = threeFilesWithTwoDeletionVectors();

    CompactionAction dryRunAction = compactDay3();
    TableStats dryRun = dryRunAction.run(true).after();
    SliceCompaction planned = dryRunAction.result().slices().get(0);
    CompactionAction realAction = compactDay3();
    TableStats real = realAction.run(false).after();
    SliceCompaction done = realAction.result().slices().get(0);

    assertThat(done.status()).isEqualTo(SliceCompaction.Status.COMPACTED);
    assertThat(done.after().rows()).isEqualTo(27);
    assertThat(planned.after().rows()).isEqualTo(done.after().rows());
    assertThat(planned.removedDeleteFiles()).isEqualTo(done.removedDeleteFiles()).isEqualTo(2);
    assertThat(dryRun.deleteFiles()).isEqualTo(real.deleteFiles()).isZero();
    assertThat(planned.detail())
        .endsWith(
            "; would apply 2 delete file(s), dropping 3 deleted rows, and remove 2 that would no longer apply");
  }

  @Test
  void aDryRunSaysEqualityDeletesDropRowsItCannotCount() {
    Table fact = catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    SmallFiles.append(fact, DAY3, 2, 10, 1); // order ids 1..20
    DataFile first = Deletes.dataFiles(fact).get(0);
    Deletes.commit(
        fact,
        Deletes.positions(fact, first, 0),
        Deletes.equality(fact, first.partition(), "order_id", 15));

    CompactionAction dryRun = compactDay3();
    dryRun.run(true);
    SliceCompaction planned = dryRun.result().slices().get(0);

    assertThat(planned.after().rows()).isEqualTo(19); // at most: the equality delete drops one more
    assertThat(planned.detail()).contains("dropping 1 or more (equality deletes are counted");
    CompactionAction real = compactDay3();
    real.run(false);
    assertThat(real.result().slices().get(0).after().rows()).isEqualTo(18);
  }

  private CompactionAction compactDay3() {
    return CompactionAction.of(
        catalog.config(),
        SmallFiles.FACT,
        Compaction.of(catalog.config(), SmallFiles.FACT).slices(List.of(DAY3)));
  }

  /** A format v3 table: day 3 in three files of 10 rows, rows 0, 5 and 9 of two deleted. */
  private Table threeFilesWithTwoDeletionVectors() {
    Table fact =
        catalog
            .catalog()
            .createTable(
                Catalogs.identifier(SmallFiles.FACT),
                SmallFiles.SCHEMA,
                SmallFiles.BY_DAY,
                Map.of("format-version", "3"));
    SmallFiles.append(fact, DAY3, 3, 10, 1);
    List<DataFile> files = Deletes.dataFiles(fact);
    Deletes.commit(
        fact,
        Deletes.deletionVector(fact, files.get(0), 0, 5),
        Deletes.deletionVector(fact, files.get(1), 9));
    return fact;
  }

  private static boolean inDay(DataFile file, String day) {
    return file.partition().get(0, Integer.class) == (int) LocalDate.parse(day).toEpochDay();
  }

  private static ContentHash day(Table table, String day) {
    return TableContent.hash(
        table, Expressions.equal("order_date", (int) LocalDate.parse(day).toEpochDay()));
  }

  private static int deletesOn(Table table, String day) {
    int count = 0;
    for (FileScanTask task : tasks(table, day)) {
      count += task.deletes().size();
    }
    return count;
  }

  private static long rowsInFiles(Table table, String day) {
    return tasks(table, day).stream().mapToLong(t -> t.file().recordCount()).sum();
  }

  /** order_id -> _row_id of every live row, read with the rewrite's own reader. */
  private static Map<Long, Long> rowIds(Table table) {
    Map<Long, Long> ids = new TreeMap<>();
    for (FileScanTask task : tasks(table, DAY3)) {
      try (CloseableIterable<Record> rows =
          StoredRows.read(table, task.spec(), task.file(), task.deletes(), new AtomicLong())) {
        for (Record row : rows) {
          ids.put((Long) row.getField("order_id"), (Long) row.getField("_row_id"));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return ids;
  }

  private static List<FileScanTask> tasks(Table table, String day) {
    table.refresh();
    try (CloseableIterable<FileScanTask> tasks =
        table
            .newScan()
            .filter(Expressions.equal("order_date", (int) LocalDate.parse(day).toEpochDay()))
            .planFiles()) {
      List<FileScanTask> list = new java.util.ArrayList<>();
      tasks.forEach(list::add);
      return list;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
