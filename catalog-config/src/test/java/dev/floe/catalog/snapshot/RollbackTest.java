package dev.floe.catalog.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Rollback on a real table: reversible through its tag, refused where it would surprise. */
class RollbackTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;
  private long first;
  private long second;
  private long third;

  /** Three appends: day 1 (1 row), day 2 (2 rows), then day 1 again (1 more row, run "r3"). */
  @BeforeEach
  void threeSnapshots() {
    table = catalog.create("s.t", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    TableRows.append(table, row(1, "2026-10-01"));
    first = table.currentSnapshot().snapshotId();
    TableRows.append(table, row(2, "2026-10-02"), row(3, "2026-10-02"));
    second = table.currentSnapshot().snapshotId();
    table
        .newAppend()
        .appendFile(TableRows.write(table, row(4, "2026-10-01")))
        .set("floe.run-id", "r3")
        .commit();
    third = table.currentSnapshot().snapshotId();
  }

  @Test
  void theRowCountsOfAChangedPartitionCountWhatItsDeleteFilesLeave() {
    var tables = new dev.floe.catalog.testing.MaintenanceCatalog(catalog, java.time.Instant.now());
    Table mor = tables.table("s.mor");
    var day = dev.floe.catalog.testing.MaintenanceCatalog.OLD_DAY;
    var file = tables.files(mor, day, 1, 4).get(0);
    mor.refresh();
    long beforeDeletes = mor.currentSnapshot().snapshotId();
    tables.deleteRows(mor, file, 3);
    mor.refresh();

    RollbackPlan plan = Rollback.of(mor, "s.mor").toSnapshot(beforeDeletes).apply();

    assertThat(plan.changedPartitions()).containsExactly("d=" + day);
    assertThat(plan.rowsBefore()).containsEntry("d=" + day, 1L);
    assertThat(plan.rowsAfter()).containsEntry("d=" + day, 4L);
  }

  @Test
  void aFileWhoseDeletesCannotBeReadAnyMoreCountsItsRecordsAndTheRollbackStillRuns() {
    Schema withKey =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "k", Types.LongType.get()),
            Types.NestedField.required(3, "d", Types.DateType.get()));
    Table keyed =
        catalog.create("s.keyed", withKey, PartitionSpec.builderFor(withKey).identity("d").build());
    LocalDate day = LocalDate.parse("2026-10-01");
    org.apache.iceberg.DataFile file =
        TableRows.write(
            keyed,
            TableRows.row(keyed, Map.of("id", 1L, "k", 10L, "d", day)),
            TableRows.row(keyed, Map.of("id", 2L, "k", 20L, "d", day)));
    keyed.newAppend().appendFile(file).commit();
    keyed.newRowDelta().addDeletes(equalityDeleteOnK(keyed, file, 20L)).commit();
    keyed.refresh();
    long withDeletes = keyed.currentSnapshot().snapshotId();
    keyed
        .newOverwrite()
        .deleteFile(file)
        .addFile(TableRows.write(keyed, TableRows.row(keyed, Map.of("id", 3L, "k", 30L, "d", day))))
        .commit();
    keyed.updateSchema().deleteColumn("k").commit();
    keyed.refresh();

    RollbackPlan plan = Rollback.of(keyed, "s.keyed").toSnapshot(withDeletes).apply();

    // The delete's column is gone: the file's two records are counted, nothing fails.
    assertThat(plan.rowsAfter()).containsEntry("d=" + day, 2L);
    assertThat(plan.rowsBefore()).containsEntry("d=" + day, 1L);
  }

  private static org.apache.iceberg.DeleteFile equalityDeleteOnK(
      Table keyed, org.apache.iceberg.DataFile file, long k) {
    Schema kOnly = keyed.schema().select("k");
    org.apache.iceberg.deletes.EqualityDeleteWriter<org.apache.iceberg.data.Record> writer =
        new org.apache.iceberg.data.GenericFileWriterFactory.Builder(keyed)
            .equalityFieldIds(new int[] {2})
            .equalityDeleteRowSchema(kOnly)
            .build()
            .newEqualityDeleteWriter(
                org.apache.iceberg.io.OutputFileFactory.builderFor(keyed, 901, 1)
                    .format(org.apache.iceberg.FileFormat.PARQUET)
                    .build()
                    .newOutputFile(keyed.spec(), file.partition()),
                keyed.spec(),
                file.partition());
    try (writer) {
      org.apache.iceberg.data.GenericRecord key =
          org.apache.iceberg.data.GenericRecord.create(kOnly);
      key.set(0, k);
      writer.write(key);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return writer.toDeleteFile();
  }

  @Test
  void aRollbackAndItsUndoRestoreTheExactContent() {
    ContentHash atThird = TableContent.hash(table);

    RollbackPlan rollback = Rollback.of(table, "s.t").toSnapshot(first).commit();
    table.refresh();
    ContentHash atFirst = TableContent.hash(table);
    RollbackPlan undo =
        Rollback.of(table, "s.t")
            .toSnapshot(table.refs().get(rollback.tag()).snapshotId())
            .allowNonAncestor(true)
            .commit();
    table.refresh();

    assertThat(rollback.tag()).isEqualTo("floe-before-rollback-1");
    assertThat(rollback.fromSnapshotId()).isEqualTo(third);
    assertThat(atFirst).isNotEqualTo(atThird);
    assertThat(atFirst.rows()).isEqualTo(1);
    assertThat(undo.ancestor()).isFalse();
    assertThat(undo.tag()).isEqualTo("floe-before-rollback-2");
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(third);
    assertThat(TableContent.hash(table)).isEqualTo(atThird);
  }

  @Test
  void aRerunOfARollbackBeforeARunChangesNothingAndAddsNoTag() {
    RollbackPlan first = Rollback.of(table, "s.t").beforeRun("r3").commit();
    table.refresh();
    int refs = table.refs().size();

    RollbackPlan again = Rollback.of(table, "s.t").beforeRun("r3").commit();
    table.refresh();

    assertThat(first.changesNothing()).isFalse();
    assertThat(again.changesNothing()).isTrue();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(second);
    assertThat(table.refs()).hasSize(refs);
  }

  @Test
  void aPartitionWhoseRowsChangedWithTheSameCountIsShownAsChanged() {
    // Day 2 keeps two rows but gets other ones: counts alone would say "2 -> 2".
    table
        .newOverwrite()
        .overwriteByRowFilter(
            org.apache.iceberg.expressions.Expressions.equal(
                "d", (int) LocalDate.parse("2026-10-02").toEpochDay()))
        .addFile(TableRows.write(table, row(8, "2026-10-02"), row(9, "2026-10-02")))
        .commit();

    RollbackPlan plan = Rollback.of(table, "s.t").toSnapshot(third).apply();

    assertThat(plan.rowsBefore()).containsEntry("d=2026-10-02", 2L);
    assertThat(plan.rowsAfter()).containsEntry("d=2026-10-02", 2L);
    assertThat(plan.changedPartitions()).containsExactly("d=2026-10-02");
  }

  @Test
  void aHeadWhoseManifestListIsGoneCanStillBeRolledBack() {
    table.io().deleteFile(table.currentSnapshot().manifestListLocation());
    Table fresh = catalog.load("s.t"); // nothing of the head's metadata cached

    RollbackPlan plan = Rollback.of(fresh, "s.t").toSnapshot(second).commit();

    fresh.refresh();
    ContentHash expected = TableContent.hash(fresh);

    assertThat(plan.rowsBefore()).isEmpty();
    assertThat(fresh.currentSnapshot().snapshotId()).isEqualTo(second);
    assertThat(expected.rows()).isEqualTo(3);
  }

  @Test
  void aDryRunChangesNothingAndCountsRowsPerPartition() {
    RollbackPlan plan = Rollback.of(table, "s.t").toSnapshot(second).apply();
    table.refresh();

    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(third);
    assertThat(table.refs()).doesNotContainKey(plan.tag());
    assertThat(plan.rowsBefore()).isEqualTo(Map.of("d=2026-10-01", 2L, "d=2026-10-02", 2L));
    assertThat(plan.rowsAfter()).isEqualTo(Map.of("d=2026-10-01", 1L, "d=2026-10-02", 2L));
  }

  @Test
  void beforeRunAndToTimeFindTheirSnapshots() {
    long secondAt = table.snapshot(second).timestampMillis();

    assertThat(Rollback.of(table, "s.t").beforeRun("r3").apply().toSnapshotId()).isEqualTo(second);
    assertThat(
            Rollback.of(table, "s.t").toTime(Instant.ofEpochMilli(secondAt)).apply().toSnapshotId())
        .isIn(second, third); // two commits may share a millisecond
  }

  @Test
  void aNonAncestorUnknownSnapshotOrAmbiguousTargetIsRefused() {
    Rollback.of(table, "s.t").toSnapshot(first).commit();
    table.refresh();

    assertThatThrownBy(() -> Rollback.of(table, "s.t").toSnapshot(third).apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("is not an ancestor of the current snapshot " + first)
        .hasMessageContaining("--allow-non-ancestor");
    assertThatThrownBy(() -> Rollback.of(table, "s.t").toSnapshot(42L).apply())
        .hasMessageContaining("snapshot 42: no such snapshot");
    assertThatThrownBy(() -> Rollback.of(table, "s.t").beforeRun("nope").apply())
        .hasMessageContaining("no snapshot of the current history has that run id");
    assertThatThrownBy(() -> Rollback.of(table, "s.t").apply())
        .hasMessageContaining("give exactly one of --to-snapshot, --to-time, --before-run");
  }

  @Test
  void beforeTheRunThatMadeTheFirstSnapshotIsRefusedPointingToRevert() {
    Table fresh = catalog.create("s.fresh", SCHEMA, PartitionSpec.unpartitioned());
    fresh
        .newAppend()
        .appendFile(TableRows.write(fresh, row(1, "2026-10-01")))
        .set("floe.run-id", "r1")
        .commit();

    assertThatThrownBy(() -> Rollback.of(fresh, "s.fresh").beforeRun("r1").apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot roll s.fresh back to before run r1: it made the table's first snapshot "
                + fresh.currentSnapshot().snapshotId()
                + ", and there is no snapshot before it to make current; `floe revert s.fresh"
                + " --run r1` undoes that run with a new snapshot");
  }

  @Test
  void beforeARunWhoseParentWasExpiredIsRefusedNamingTheExpiredSnapshot() {
    table.expireSnapshots().expireSnapshotId(second).commit();
    table.refresh();

    assertThatThrownBy(() -> Rollback.of(table, "s.t").beforeRun("r3").apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot roll s.t back to before run r3: its parent snapshot %d was expired, so the table"
                + " as it was before the run is no longer known; `floe snapshots s.t` lists the"
                + " snapshots kept",
            second);
    assertThatThrownBy(
            () -> Rollback.of(table, "s.t").beforeRun("r3").allowNonAncestor(true).apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("was expired");
  }

  private org.apache.iceberg.data.Record row(long id, String day) {
    return TableRows.row(table, Map.of("id", id, "d", LocalDate.parse(day)));
  }
}
