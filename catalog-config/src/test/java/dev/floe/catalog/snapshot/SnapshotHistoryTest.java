package dev.floe.catalog.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class SnapshotHistoryTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "order_id", Types.LongType.get()),
          Types.NestedField.required(2, "order_date", Types.DateType.get()));
  private static final LocalDate OCT_3 = LocalDate.of(2026, 10, 3);
  private static final Lineage LINEAGE =
      new Lineage(
          "key",
          "run-1",
          "fact_orders_daily",
          "overwrite",
          "order_date=[2026-10-03,2026-10-04)",
          "test",
          2,
          "2:0123456789abcdef0123456789abcdef",
          Map.of("sales.staging_orders", 5L),
          null);

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;

  @BeforeEach
  void createTable() {
    table =
        catalog.create(
            "sales.orders",
            SCHEMA,
            PartitionSpec.builderFor(SCHEMA).identity("order_date").build());
  }

  @Test
  void aTableWithoutSnapshotsHasNoHistory() {
    assertThat(SnapshotHistory.list(table)).isEmpty();
  }

  @Test
  void listsSnapshotsNewestFirstWithTheirLineage() {
    TableRows.append(table, row(1));
    long first = table.currentSnapshot().snapshotId();
    AppendFiles append = table.newAppend().appendFile(TableRows.write(table, row(2), row(3)));
    LINEAGE.toSummary().forEach(append::set);
    append.commit();
    long second = table.currentSnapshot().snapshotId();

    List<SnapshotEntry> entries = SnapshotHistory.list(table);

    assertThat(entries)
        .extracting(
            SnapshotEntry::snapshotId,
            SnapshotEntry::parentId,
            SnapshotEntry::operation,
            SnapshotEntry::current,
            SnapshotEntry::onMain,
            SnapshotEntry::addedRows)
        .containsExactly(
            tuple(second, first, "append", true, true, 2L),
            tuple(first, null, "append", false, true, 1L));
    assertThat(entries.get(0).lineage()).contains(LINEAGE);
    assertThat(entries.get(1).lineage()).isEmpty();
  }

  @Test
  void aCommitThatRecordsNoSliceRowsHasNoneRatherThanZero() {
    AppendFiles load = table.newAppend().appendFile(TableRows.write(table, row(2), row(3)));
    LINEAGE.toSummary().forEach(load::set);
    load.commit();
    // What `floe maintain --compact` records: a run id, its mode and slice, and the rows it
    // rewrote under floe.compacted-rows, not floe.rows.
    Map<String, String> compacted = new HashMap<>(LINEAGE.toSummary());
    compacted.remove(LineageKeys.ROWS);
    compacted.remove(LineageKeys.CONTENT_HASH);
    compacted.put(LineageKeys.RUN_ID, "compaction-1");
    compacted.put(LineageKeys.MODE, WriteMode.COMPACT_LINEAGE_MODE);
    compacted.put(LineageKeys.COMPACTED_ROWS, "2");
    AppendFiles compaction = table.newAppend();
    compacted.forEach(compaction::set);
    compaction.commit();
    TableRows.append(table, row(4));

    assertThat(SnapshotHistory.list(table))
        .extracting(SnapshotEntry::rows)
        .containsExactly(null, null, 2L);
  }

  @Test
  void aSnapshotWhoseFloeKeysAnotherToolWroteIsListedWithItsProblemAndARunNamesIt() {
    AppendFiles load = table.newAppend().appendFile(TableRows.write(table, row(2)));
    LINEAGE.toSummary().forEach(load::set);
    load.commit();
    // floe snapshots failed with "For input string: \"ten\"", floe tags and floe run with a
    // message that named no snapshot, and a source without '@' with "begin 0, end -1".
    table
        .newAppend()
        .set(LineageKeys.RUN_ID, "by-hand")
        .set(LineageKeys.ROWS, "ten")
        .set(LineageKeys.SOURCE_SNAPSHOTS, "sales.staging_orders")
        .commit();
    long byHand = table.currentSnapshot().snapshotId();

    List<SnapshotEntry> entries = SnapshotHistory.list(table);

    assertThat(entries.get(0).snapshotId()).isEqualTo(byHand);
    assertThat(entries.get(0).lineage()).isEmpty();
    assertThat(entries.get(0).rows()).isNull();
    assertThat(entries.get(0).lineageProblem()).isEqualTo("floe.rows is 'ten', not a whole number");
    assertThat(entries.get(1).lineage()).contains(LINEAGE);
    assertThat(entries.get(1).lineageProblem()).isNull();
    assertThatThrownBy(() -> Lineage.of(table.currentSnapshot()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot read the Floe lineage of snapshot "
                + byHand
                + ": floe.rows is 'ten', not a whole number; Floe never writes such a value"
                + " (another tool did): move main off the snapshot with floe rollback");
  }

  @Test
  void countsDeletedRows() {
    TableRows.append(table, row(1), row(2));

    table.newDelete().deleteFromRowFilter(Expressions.alwaysTrue()).commit();

    SnapshotEntry delete = SnapshotHistory.list(table).get(0);
    assertThat(delete.operation()).isEqualTo("delete");
    assertThat(delete.deletedRows()).isEqualTo(2);
    assertThat(delete.addedRows()).isZero();
  }

  @Test
  void afterARollbackTheLaterSnapshotIsOffTheMainLine() {
    TableRows.append(table, row(1));
    long first = table.currentSnapshot().snapshotId();
    TableRows.append(table, row(2));
    long second = table.currentSnapshot().snapshotId();

    table.manageSnapshots().rollbackTo(first).commit();

    assertThat(SnapshotHistory.list(table))
        .extracting(SnapshotEntry::snapshotId, SnapshotEntry::current, SnapshotEntry::onMain)
        .containsExactly(tuple(second, false, false), tuple(first, true, true));
  }

  @Test
  void aCommitAfterARollbackIsNewestAndTheAbandonedSnapshotStaysOffTheMainLine() {
    TableRows.append(table, row(1));
    long first = table.currentSnapshot().snapshotId();
    TableRows.append(table, row(2));
    long abandoned = table.currentSnapshot().snapshotId();
    table.manageSnapshots().rollbackTo(first).commit();

    TableRows.append(table, row(3));
    long third = table.currentSnapshot().snapshotId();

    assertThat(SnapshotHistory.list(table))
        .extracting(
            SnapshotEntry::snapshotId,
            SnapshotEntry::parentId,
            SnapshotEntry::current,
            SnapshotEntry::onMain)
        .containsExactly(
            tuple(third, first, true, true),
            tuple(abandoned, first, false, false),
            tuple(first, null, false, true));
  }

  private Record row(long id) {
    return TableRows.row(table, Map.of("order_id", id, "order_date", OCT_3));
  }
}
