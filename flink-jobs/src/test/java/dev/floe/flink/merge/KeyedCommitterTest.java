package dev.floe.flink.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.CommitConflictException;
import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.commit.CommitPlan;
import dev.floe.flink.run.RunOptions;
import dev.floe.flink.testing.EqualityDeletes;
import dev.floe.flink.testing.ExampleTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The keyed committer's conflict paths, against a real embedded catalog, with a concurrent commit
 * made at the exact moment between probe and commit.
 */
class KeyedCommitterTest {
  private static final OffsetDateTime NINE = OffsetDateTime.parse("2026-10-03T09:00:00Z");
  private static final OffsetDateTime NOON = OffsetDateTime.parse("2026-10-03T12:00:00Z");
  private static final OffsetDateTime ONE_PM = OffsetDateTime.parse("2026-10-03T13:00:00Z");

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void aConcurrentNewerValueSurvivesTheRetryAndTheRestOfTheBatchIsCommitted() {
    Table dim =
        catalog.create("sales.dim_customer", ExampleTables.DIM, PartitionSpec.unpartitioned());
    DataFile nine = TableRows.write(dim, customer(dim, 10, "free", NINE));
    dim.newAppend().appendFile(nine).commit();
    RowType rowType = FlinkSchemaUtil.convert(dim.schema());
    SourceBatch batch = new SourceBatch("sales.dim_customer", rowType, key(), "updated_at", true);
    batch.add(row(10, "pro", NOON));
    batch.add(row(11, "free", NINE));
    // Another merge rewrites customer 10 to a newer value while ours is in flight.
    Runnable newerMerge =
        once(
            () ->
                catalog
                    .load("sales.dim_customer")
                    .newOverwrite()
                    .deleteFile(nine)
                    .addFile(TableRows.write(dim, customer(dim, 10, "gold", ONE_PM)))
                    .commit());

    CommitOutcome outcome =
        new KeyedCommitter(catalog.catalog(), plan(Scope.wholeTable(), false), rowType, newerMerge)
            .commit(batch);

    assertThat(outcome.status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(outcome.attempts()).isEqualTo(2);
    assertThat(outcome.detail()).contains("1 inserted, 0 updated, 1 unchanged");
    assertThat(customers()).containsExactly("10 gold " + ONE_PM, "11 free " + NINE);
  }

  @Test
  void aConflictWithDeleteMissingStopsAndLeavesNoFileBehind() throws IOException {
    Table events =
        catalog.create(
            "sales.events",
            EventTables.EVENTS,
            PartitionSpec.builderFor(EventTables.EVENTS).identity("event_day").build());
    events.newAppend().appendFile(TableRows.write(events, event(events, 1, "v1"))).commit();
    Set<Path> filesBefore = dataFiles();
    Scope day0 =
        Scope.of(
            SliceResolver.resolve(
                "sales.events", events, "event_day", EventTables.FIRST_DAY.toString()));
    RowType rowType = FlinkSchemaUtil.convert(events.schema());
    SourceBatch batch = new SourceBatch("sales.events", rowType, List.of("id"), "version", true);
    batch.add(
        GenericRowData.of(
            2L, (int) EventTables.FIRST_DAY.toEpochDay(), StringData.fromString("v1"), 1L));
    Runnable concurrentLoad =
        once(
            () ->
                catalog
                    .load("sales.events")
                    .newAppend()
                    .appendFile(TableRows.write(events, event(events, 3, "v1")))
                    .commit());
    Set<Path> concurrentFiles = new TreeSet<>();

    assertThatThrownBy(
            () ->
                new KeyedCommitter(
                        catalog.catalog(),
                        plan(day0, true, "sales.events"),
                        rowType,
                        () -> {
                          concurrentLoad.run();
                          concurrentFiles.addAll(dataFiles());
                        })
                    .commit(batch))
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("with delete_missing a re-merge could delete rows")
        .hasMessageContaining("nothing was committed");

    assertThat(catalog.load("sales.events").currentSnapshot().summary())
        .doesNotContainKey("floe.run-id");
    // Our rewritten file was written, then deleted; only the two loads' files remain.
    assertThat(dataFiles()).hasSize(filesBefore.size() + 1);
    assertThat(concurrentFiles).hasSize(filesBefore.size() + 2);
  }

  @Test
  void aDryRunReportsTheCountsAndWritesNothing() {
    Table dim =
        catalog.create("sales.dim_customer", ExampleTables.DIM, PartitionSpec.unpartitioned());
    dim.newAppend().appendFile(TableRows.write(dim, customer(dim, 10, "free", NINE))).commit();
    long snapshot = dim.currentSnapshot().snapshotId();
    Set<Path> files = dataFiles();
    RowType rowType = FlinkSchemaUtil.convert(dim.schema());
    SourceBatch batch = new SourceBatch("sales.dim_customer", rowType, key(), "updated_at", true);
    batch.add(row(10, "pro", NOON));
    batch.add(row(11, "free", NINE));
    MergePlan plan = plan(Scope.wholeTable(), false);
    MergePlan dryRun =
        new MergePlan(
            new CommitPlan(
                plan.commit().catalog(),
                plan.commit().target(),
                plan.commit().scope(),
                plan.commit().mode(),
                false,
                plan.commit().lineage(),
                null,
                plan.commit().schemaId(),
                List.of(),
                RunOptions.builder().dryRun(true).build()),
            plan.key(),
            plan.ordering(),
            false);

    CommitOutcome outcome = new KeyedCommitter(catalog.catalog(), dryRun, rowType).commit(batch);

    assertThat(outcome.status()).isEqualTo(CommitOutcome.Status.DRY_RUN);
    assertThat(outcome.detail()).contains("1 inserted, 1 updated, 0 unchanged");
    assertThat(catalog.load("sales.dim_customer").currentSnapshot().snapshotId())
        .isEqualTo(snapshot);
    assertThat(dataFiles()).isEqualTo(files);
  }

  @Test
  void aRewriteKeepsEveryRowGroupOfATouchedFile() {
    Table dim =
        catalog.create("sales.dim_customer", ExampleTables.DIM, PartitionSpec.unpartitioned());
    // One row per Parquet row group: the key filter lets the probe skip row groups, the rewrite
    // must not.
    dim.updateProperties()
        .set("write.parquet.row-group-size-bytes", "1")
        .set("write.parquet.row-group-check-min-record-count", "1")
        .set("write.parquet.row-group-check-max-record-count", "1")
        .commit();
    Record[] rows = new Record[20];
    for (int i = 0; i < 20; i++) {
      rows[i] = customer(dim, i + 1, "free", NINE);
    }
    dim.newAppend().appendFile(TableRows.write(dim, rows)).commit();
    RowType rowType = FlinkSchemaUtil.convert(dim.schema());
    SourceBatch batch = new SourceBatch("sales.dim_customer", rowType, key(), "updated_at", true);
    batch.add(row(5, "pro", NOON));

    CommitOutcome outcome =
        new KeyedCommitter(catalog.catalog(), plan(Scope.wholeTable(), false), rowType)
            .commit(batch);

    assertThat(outcome.status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(customers()).hasSize(20).contains("5 pro " + NOON, "4 free " + NINE);
  }

  @Test
  void aKeyHeldTwiceIsNotReplacedWhileOneOfItsRowsIsNewerThanTheSource() {
    Table dim = byTier();
    // Customer 10 twice (another writer, or a sliced run, added it again): 09:00 in free, 13:00
    // in gold. Customer 11's update touches the gold file too.
    dim.newAppend().appendFile(TableRows.write(dim, customer(dim, 10, "free", NINE))).commit();
    dim.newAppend()
        .appendFile(
            TableRows.write(
                dim, customer(dim, 10, "gold", ONE_PM), customer(dim, 11, "gold", NINE)))
        .commit();
    RowType rowType = FlinkSchemaUtil.convert(dim.schema());
    SourceBatch batch = new SourceBatch("sales.dim_customer", rowType, key(), "updated_at", true);
    batch.add(row(10, "pro", NOON));
    batch.add(row(11, "gold", NOON));

    CommitOutcome outcome =
        new KeyedCommitter(catalog.catalog(), plan(Scope.wholeTable(), false), rowType)
            .commit(batch);

    assertThat(outcome.status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(outcome.detail()).contains("0 inserted, 1 updated, 1 unchanged");
    // The 13:00 row is newer than the source's 12:00: customer 10 keeps both of its rows.
    assertThat(customers())
        .containsExactly("10 free " + NINE, "10 gold " + ONE_PM, "11 gold " + NOON);
  }

  @Test
  void aKeyHeldTwiceByOlderRowsEndsAsTheSourceRowOnce() {
    Table dim = byTier();
    dim.newAppend().appendFile(TableRows.write(dim, customer(dim, 10, "free", NINE))).commit();
    dim.newAppend().appendFile(TableRows.write(dim, customer(dim, 10, "gold", NINE))).commit();
    RowType rowType = FlinkSchemaUtil.convert(dim.schema());
    SourceBatch batch = new SourceBatch("sales.dim_customer", rowType, key(), "updated_at", true);
    batch.add(row(10, "pro", NOON));

    CommitOutcome outcome =
        new KeyedCommitter(catalog.catalog(), plan(Scope.wholeTable(), false), rowType)
            .commit(batch);

    assertThat(outcome.detail()).contains("0 inserted, 1 updated, 0 unchanged");
    assertThat(customers()).containsExactly("10 pro " + NOON);
    // A rerun finds one row as new as the source: nothing to change.
    SourceBatch again = new SourceBatch("sales.dim_customer", rowType, key(), "updated_at", true);
    again.add(row(10, "pro", NOON));
    CommitOutcome rerun =
        new KeyedCommitter(
                catalog.catalog(),
                plan(Scope.wholeTable(), false, "sales.dim_customer", "run-2"),
                rowType)
            .commit(again);
    assertThat(rerun.status()).as(rerun.detail()).isEqualTo(CommitOutcome.Status.NO_OP);
  }

  private Table byTier() {
    return catalog.create(
        "sales.dim_customer",
        ExampleTables.DIM,
        PartitionSpec.builderFor(ExampleTables.DIM).identity("tier").build());
  }

  @Test
  void aConcurrentInsertOfTheSameKeyInAnotherPartitionIsAConflict() {
    Table dim =
        catalog.create(
            "sales.dim_customer",
            ExampleTables.DIM,
            PartitionSpec.builderFor(ExampleTables.DIM).identity("tier").build());
    dim.newAppend().appendFile(TableRows.write(dim, customer(dim, 1, "free", NINE))).commit();
    RowType rowType = FlinkSchemaUtil.convert(dim.schema());
    SourceBatch batch = new SourceBatch("sales.dim_customer", rowType, key(), "updated_at", true);
    batch.add(row(2, "pro", NOON));
    Runnable concurrent =
        once(
            () ->
                catalog
                    .load("sales.dim_customer")
                    .newAppend()
                    .appendFile(TableRows.write(dim, customer(dim, 2, "gold", ONE_PM)))
                    .commit());

    CommitOutcome outcome =
        new KeyedCommitter(catalog.catalog(), plan(Scope.wholeTable(), false), rowType, concurrent)
            .commit(batch);

    assertThat(outcome.attempts()).isEqualTo(2);
    assertThat(customers()).containsExactly("1 free " + NINE, "2 gold " + ONE_PM);
  }

  @Test
  void aVoidPartitionDoesNotNarrowTheConflictFilter() {
    Table dim =
        catalog
            .catalog()
            .createTable(
                TableIdentifier.of("sales", "dim_customer"),
                ExampleTables.DIM,
                PartitionSpec.builderFor(ExampleTables.DIM).identity("tier").build(),
                Map.of("format-version", "1"));
    dim.updateSpec().removeField("tier").commit(); // v1: the field stays, as a void transform
    dim.newAppend().appendFile(TableRows.write(dim, customer(dim, 1, "free", NINE))).commit();
    RowType rowType = FlinkSchemaUtil.convert(dim.schema());
    SourceBatch batch = new SourceBatch("sales.dim_customer", rowType, key(), "updated_at", true);
    batch.add(row(2, "pro", NOON));
    Runnable concurrent =
        once(
            () ->
                catalog
                    .load("sales.dim_customer")
                    .newAppend()
                    .appendFile(TableRows.write(dim, customer(dim, 2, "gold", ONE_PM)))
                    .commit());

    new KeyedCommitter(catalog.catalog(), plan(Scope.wholeTable(), false), rowType, concurrent)
        .commit(batch);

    assertThat(customers()).containsExactly("1 free " + NINE, "2 gold " + ONE_PM);
  }

  @Test
  void aMergeIntoATruncatePartitionedTableCommits() {
    Table dim =
        catalog.create(
            "sales.dim_customer",
            ExampleTables.DIM,
            PartitionSpec.builderFor(ExampleTables.DIM).truncate("tier", 1).build());
    dim.newAppend().appendFile(TableRows.write(dim, customer(dim, 1, "free", NINE))).commit();
    RowType rowType = FlinkSchemaUtil.convert(dim.schema());
    SourceBatch batch = new SourceBatch("sales.dim_customer", rowType, key(), "updated_at", true);
    batch.add(row(1, "fancy", NOON));

    CommitOutcome outcome =
        new KeyedCommitter(catalog.catalog(), plan(Scope.wholeTable(), false), rowType)
            .commit(batch);

    assertThat(outcome.status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(customers()).containsExactly("1 fancy " + NOON);
  }

  @Test
  void longStringDecimalAndTimestamptzKeysMatchTheirRowsSoARerunIsANoOp() {
    Schema typedKeys =
        new Schema(
            List.of(
                Types.NestedField.required(1, "k", Types.StringType.get()),
                Types.NestedField.required(2, "amount", Types.DecimalType.of(10, 2)),
                Types.NestedField.required(3, "at", Types.TimestampType.withZone()),
                Types.NestedField.required(4, "v", Types.LongType.get())),
            Set.of(1, 2, 3));
    Table table = catalog.create("sales.typed", typedKeys, PartitionSpec.unpartitioned());
    RowType rowType = FlinkSchemaUtil.convert(table.schema());
    SourceBatch batch =
        new SourceBatch("sales.typed", rowType, List.of("k", "amount", "at"), "v", true);
    Record[] rows = new Record[5];
    for (int i = 0; i < 5; i++) {
      // Longer than the 16 characters Iceberg keeps of a string bound.
      String key = "customer-identifier-long-prefix-" + i;
      OffsetDateTime at = NOON.plusNanos(1000L * i);
      rows[i] =
          TableRows.row(
              table, Map.of("k", key, "amount", new BigDecimal("12.30"), "at", at, "v", 1L));
      batch.add(
          GenericRowData.of(
              StringData.fromString(key),
              DecimalData.fromBigDecimal(new BigDecimal("12.30"), 10, 2),
              TimestampData.fromInstant(at.toInstant()),
              1L));
    }
    table.newAppend().appendFile(TableRows.write(table, rows)).commit();
    CommitPlan commit = plan(Scope.wholeTable(), false).commit();

    CommitOutcome outcome =
        new KeyedCommitter(
                catalog.catalog(),
                new MergePlan(
                    new CommitPlan(
                        commit.catalog(),
                        "sales.typed",
                        commit.scope(),
                        commit.mode(),
                        false,
                        commit.lineage(),
                        null,
                        table.schema().schemaId(),
                        List.of(),
                        RunOptions.defaults()),
                    List.of("k", "amount", "at"),
                    "v",
                    false),
                rowType)
            .commit(batch);

    assertThat(outcome.status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(outcome.detail()).contains("5 unchanged");
  }

  @Test
  void aRewrittenFileKeepsTheRowsAnEqualityDeleteOutsideTheBatchsKeysRemoved() {
    // Another engine's merge-on-read deleted key 2 with an equality delete; the batch updates key
    // 1 of the same file. The probe's key filter (id IN (1)) leaves that delete out of the scan,
    // and the rewrite, whose new file comes after it, brought key 2 back: [1, 2, 3] for [1, 3].
    Table events =
        catalog.create("sales.events", EventTables.EVENTS, PartitionSpec.unpartitioned());
    assertEqualityDeletedRowStaysDeleted(events, Scope.wholeTable());
  }

  @Test
  void aSlicedMergeRewritingAFileKeepsTheRowsAnEqualityDeleteRemoved() {
    Table events =
        catalog.create(
            "sales.events",
            EventTables.EVENTS,
            PartitionSpec.builderFor(EventTables.EVENTS).identity("event_day").build());
    assertEqualityDeletedRowStaysDeleted(
        events,
        Scope.of(
            SliceResolver.resolve(
                "sales.events", events, "event_day", EventTables.FIRST_DAY.toString())));
  }

  @Test
  void aSlicedMergeAppliesAGlobalDeleteWhoseOtherValuesLieOutsideTheSlice() {
    // The table began unpartitioned; a delete of id 2 of that spec, written with whole rows, holds
    // a day five days later: the slice's own filter leaves it out of the scan by that day.
    Table events =
        catalog.create("sales.events", EventTables.EVENTS, PartitionSpec.unpartitioned());
    PartitionSpec unpartitioned = events.spec();
    events.updateSpec().addField("event_day").commit();
    assertEqualityDeletedRowStaysDeleted(
        events,
        Scope.of(
            SliceResolver.resolve(
                "sales.events", events, "event_day", EventTables.FIRST_DAY.toString())),
        () ->
            dev.floe.flink.maintain.Deletes.wholeRowEquality(
                events,
                unpartitioned,
                null,
                "id",
                2L,
                "event_day",
                EventTables.FIRST_DAY.plusDays(5)));
  }

  private void assertEqualityDeletedRowStaysDeleted(Table events, Scope scope) {
    Record deleted = event(events, 2, "b");
    assertEqualityDeletedRowStaysDeleted(
        events, scope, () -> EqualityDeletes.ofId(events, deleted, 2L));
  }

  private void assertEqualityDeletedRowStaysDeleted(
      Table events, Scope scope, java.util.function.Supplier<DeleteFile> deleteOfId2) {
    events
        .newAppend()
        .appendFile(
            TableRows.write(
                events, event(events, 1, "a"), event(events, 2, "b"), event(events, 3, "c")))
        .commit();
    events.newRowDelta().addDeletes(deleteOfId2.get()).commit();
    RowType rowType = FlinkSchemaUtil.convert(events.schema());
    SourceBatch batch = new SourceBatch("sales.events", rowType, List.of("id"), "version", true);
    batch.add(
        GenericRowData.of(
            1L, (int) EventTables.FIRST_DAY.toEpochDay(), StringData.fromString("a2"), 2L));

    CommitOutcome outcome =
        new KeyedCommitter(catalog.catalog(), plan(scope, false, "sales.events"), rowType)
            .commit(batch);

    assertThat(outcome.status()).as(outcome.detail()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(rows("sales.events", "id", "v")).containsExactlyInAnyOrder("1 a2", "3 c");
  }

  @Test
  void aMergeIntoANaNIdentityPartitionCommits() {
    // Its conflict filter named the partition with equal(score, NaN), which Iceberg refuses: the
    // key could never be merged (exit 1, "Cannot create expression literal from NaN").
    Schema scored =
        new Schema(
            List.of(
                Types.NestedField.required(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "score", Types.DoubleType.get()),
                Types.NestedField.optional(3, "version", Types.LongType.get())),
            Set.of(1));
    Table table =
        catalog.create(
            "sales.scored", scored, PartitionSpec.builderFor(scored).identity("score").build());
    table
        .newAppend()
        .appendFile(
            TableRows.write(
                table,
                TableRows.row(table, Map.of("id", 1L, "score", Double.NaN, "version", 1L)),
                TableRows.row(table, Map.of("id", 2L, "score", Double.NaN, "version", 1L))))
        .commit();
    RowType rowType = FlinkSchemaUtil.convert(table.schema());
    SourceBatch batch = new SourceBatch("sales.scored", rowType, List.of("id"), "version", true);
    batch.add(GenericRowData.of(1L, Double.NaN, 2L));

    CommitOutcome outcome =
        new KeyedCommitter(
                catalog.catalog(), plan(Scope.wholeTable(), false, "sales.scored"), rowType)
            .commit(batch);

    assertThat(outcome.status()).as(outcome.detail()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(rows("sales.scored", "id", "score", "version"))
        .containsExactlyInAnyOrder("1 NaN 2", "2 NaN 1");
  }

  @Test
  void aMergeIntoARowLineageTableKeepsRowIdsAndMovesOnlyTheUpdatedRowsSequenceNumber() {
    // The rewrite read rows without their lineage and wrote them as new rows: a merge updating key
    // 2 of [1, 2, 3] (row ids 0, 1, 2 at sequence number 1) gave every row a new row id (1 -> 4,
    // 3 -> 5, 2 -> 6) and the merge's sequence number.
    Table events =
        catalog.create("sales.events", EventTables.EVENTS, PartitionSpec.unpartitioned());
    // One row per row group: the probe, which reads the replaced row's id, skips the others.
    events
        .updateProperties()
        .set("format-version", "3")
        .set("write.parquet.row-group-size-bytes", "1")
        .set("write.parquet.row-group-check-min-record-count", "1")
        .set("write.parquet.row-group-check-max-record-count", "1")
        .commit();
    events
        .newAppend()
        .appendFile(
            TableRows.write(
                events, event(events, 1, "a"), event(events, 2, "b"), event(events, 3, "c")))
        .commit();
    assertThat(lineage()).containsExactly("1 a 0 1", "2 b 1 1", "3 c 2 1");
    RowType rowType = FlinkSchemaUtil.convert(events.schema());
    SourceBatch batch = new SourceBatch("sales.events", rowType, List.of("id"), "version", true);
    int day = (int) EventTables.FIRST_DAY.toEpochDay();
    batch.add(GenericRowData.of(2L, day, StringData.fromString("b2"), 2L));
    batch.add(GenericRowData.of(4L, day, StringData.fromString("d"), 1L));

    CommitOutcome outcome =
        new KeyedCommitter(
                catalog.catalog(), plan(Scope.wholeTable(), false, "sales.events"), rowType)
            .commit(batch);

    assertThat(outcome.status()).as(outcome.detail()).isEqualTo(CommitOutcome.Status.COMMITTED);
    long merged = catalog.load("sales.events").currentSnapshot().sequenceNumber();
    assertThat(merged).isEqualTo(2);
    // Unchanged rows keep their id and sequence number, the updated row its id; the new row gets
    // an id no row had before (the table's next row id was 3).
    List<String> rows = lineage();
    assertThat(rows).hasSize(4).startsWith("1 a 0 1", "2 b2 1 2", "3 c 2 1");
    String[] inserted = rows.get(3).split(" ");
    assertThat(inserted[0] + " " + inserted[1] + " " + inserted[3]).isEqualTo("4 d 2");
    assertThat(Long.parseLong(inserted[2])).isGreaterThanOrEqualTo(3);
  }

  /** Every row of sales.events as {@code id v _row_id _last_updated_sequence_number}, by id. */
  private List<String> lineage() {
    Table events = catalog.load("sales.events");
    List<String> rows = new java.util.ArrayList<>();
    try (CloseableIterable<Record> records =
        IcebergGenerics.read(events)
            .project(MetadataColumns.schemaWithRowLineage(events.schema()))
            .build()) {
      records.forEach(
          r ->
              rows.add(
                  r.getField("id")
                      + " "
                      + r.getField("v")
                      + " "
                      + r.getField(MetadataColumns.ROW_ID.name())
                      + " "
                      + r.getField(MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.name())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    rows.sort(null);
    return rows;
  }

  private MergePlan plan(Scope scope, boolean deleteMissing) {
    return plan(scope, deleteMissing, "sales.dim_customer");
  }

  private MergePlan plan(Scope scope, boolean deleteMissing, String target) {
    return plan(scope, deleteMissing, target, "run-1");
  }

  private MergePlan plan(Scope scope, boolean deleteMissing, String target, String runId) {
    Lineage lineage =
        new Lineage("key", runId, "test", "merge", scope.label(), "test", 0, null, Map.of(), null);
    CommitPlan commit =
        new CommitPlan(
            catalog.config(),
            target,
            scope,
            WriteMode.MERGE,
            false,
            lineage,
            null,
            0,
            List.of(),
            RunOptions.defaults());
    return new MergePlan(
        commit,
        target.equals("sales.dim_customer") ? key() : List.of("id"),
        target.equals("sales.dim_customer") ? "updated_at" : "version",
        deleteMissing);
  }

  /** The rows of {@code table} read with Iceberg's generic reader, as their columns' values. */
  private List<String> rows(String table, String... columns) {
    List<String> rows = new java.util.ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(catalog.load(table)).build()) {
      records.forEach(
          r ->
              rows.add(
                  String.join(
                      " ",
                      java.util.Arrays.stream(columns)
                          .map(c -> String.valueOf(r.getField(c)))
                          .toList())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private static List<String> key() {
    return List.of("customer_id");
  }

  private static Record customer(Table table, long id, String tier, OffsetDateTime at) {
    return TableRows.row(table, Map.of("customer_id", id, "tier", tier, "updated_at", at));
  }

  private static Record event(Table table, long id, String v) {
    return TableRows.row(
        table, Map.of("id", id, "event_day", EventTables.FIRST_DAY, "v", v, "version", 1L));
  }

  private static GenericRowData row(long id, String tier, OffsetDateTime at) {
    return GenericRowData.of(
        id, StringData.fromString(tier), TimestampData.fromInstant(at.toInstant()));
  }

  private List<String> customers() {
    List<String> rows = new java.util.ArrayList<>();
    try (CloseableIterable<Record> records =
        IcebergGenerics.read(catalog.load("sales.dim_customer")).build()) {
      records.forEach(
          r ->
              rows.add(
                  r.getField("customer_id")
                      + " "
                      + r.getField("tier")
                      + " "
                      + r.getField("updated_at")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    rows.sort(null);
    return rows;
  }

  private Set<Path> dataFiles() {
    try (Stream<Path> files = Files.walk(catalog.home())) {
      return new TreeSet<>(files.filter(f -> f.toString().endsWith(".parquet")).toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Runnable once(Runnable action) {
    boolean[] done = {false};
    return () -> {
      if (!done[0]) {
        done[0] = true;
        action.run();
      }
    };
  }
}
