package dev.floe.catalog.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.RecordHasher;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.catalog.slice.SliceUnit;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What a slice holds, found from lineage or by reading it, on a real table. */
class SliceContentTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "order_id", Types.LongType.get()),
          Types.NestedField.optional(2, "customer", Types.StringType.get()),
          Types.NestedField.required(3, "order_date", Types.DateType.get()),
          Types.NestedField.required(4, "ship_date", Types.DateType.get()));
  private static final LocalDate OCT_3 = LocalDate.of(2026, 10, 3);
  private static final LocalDate OCT_4 = LocalDate.of(2026, 10, 4);
  private static final LocalDate OCT_5 = LocalDate.of(2026, 10, 5);

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;
  private Slice oct3;

  @BeforeEach
  void createTable() {
    table =
        catalog.create(
            "sales.orders",
            SCHEMA,
            PartitionSpec.builderFor(SCHEMA).identity("order_date").identity("ship_date").build());
    oct3 = slice("order_date", "2026-10-03");
  }

  @Test
  void aSliceNeverWrittenIsEmpty() {
    assertThat(SliceContent.current(table, oct3))
        .isEqualTo(new SliceContent.Current(ContentHash.empty(), null, "empty"));
  }

  @Test
  void aSliceOnlyOtherPartitionsWereWrittenToIsEmpty() {
    TableRows.append(table, order(1, "ann", OCT_4));

    assertThat(SliceContent.current(table, oct3))
        .isEqualTo(new SliceContent.Current(ContentHash.empty(), null, "empty"));
  }

  @Test
  void aColumnDroppedAndAddedAgainSinceTheCommitMakesTheSliceReadItNowHoldsNulls() {
    Record ann = order(1, "ann", OCT_3);
    floeCommit(oct3, ann);
    ContentHash committed = hash(ann);

    // The new customer column reads NULL in every old file; at its old position, rows encode
    // as before but for the value.
    table.updateSchema().deleteColumn("customer").commit();
    table.updateSchema().addColumn("customer", Types.StringType.get()).commit();
    table.updateSchema().moveAfter("customer", "order_id").commit();
    table.refresh();

    SliceContent.Current current = SliceContent.current(table, oct3);
    assertThat(current.method()).isEqualTo("scan");
    Record annForgotten = ann.copy();
    annForgotten.setField("customer", null);
    assertThat(current.hash()).isEqualTo(hash(annForgotten));
    SliceContent.Comparison rerun = SliceContent.compare(table, Scope.of(oct3), committed);
    assertThat(rerun.same()).isFalse();
  }

  @Test
  void aForeignMergeOnReadDeleteAfterAFloeCommitIsSeenTheSliceIsReadWithItsDeletesApplied() {
    floeCommit(oct3, order(1, "ann", OCT_3), order(2, "bob", OCT_3));
    deleteOrderMergeOnRead(1);

    SliceContent.Current current = SliceContent.current(table, oct3);

    assertThat(current.method()).isEqualTo("scan");
    assertThat(current.hash()).isEqualTo(hash(order(2, "bob", OCT_3)));
  }

  @Test
  void aRowCountThatDiffersInTheFilesMetadataTellsTheSliceDiffersWithoutReadingIt() {
    TableRows.append(table, order(1, "ann", OCT_3), order(2, "bob", OCT_3));
    TableRows.append(table, order(3, "x", OCT_4));

    assertThat(SliceContent.compare(table, Scope.of(oct3), hash(order(1, "ann", OCT_3))))
        .isEqualTo(new SliceContent.Comparison(false, "row count"));
    assertThat(SliceContent.compare(table, Scope.of(oct3), ContentHash.empty()))
        .isEqualTo(new SliceContent.Comparison(false, "row count"));
    // The same count: only reading the rows tells.
    assertThat(
            SliceContent.compare(
                table, Scope.of(oct3), hash(order(1, "ann", OCT_3), order(2, "bob", OCT_3))))
        .isEqualTo(new SliceContent.Comparison(true, "scan"));
    assertThat(
            SliceContent.compare(
                table, Scope.of(oct3), hash(order(1, "ann", OCT_3), order(2, "eve", OCT_3))))
        .isEqualTo(new SliceContent.Comparison(false, "scan"));
  }

  @Test
  void anEqualRowCountReadsThePlannedFilesAndAgreesWithTheFullScanAlsoOnAFormatV3Table() {
    for (String version : new String[] {"2", "3"}) {
      table =
          catalog
              .catalog()
              .createTable(
                  dev.floe.catalog.config.Catalogs.identifier("sales.v" + version),
                  SCHEMA,
                  PartitionSpec.builderFor(SCHEMA).identity("order_date").build(),
                  Map.of("format-version", version));
      TableRows.append(table, order(1, "ann", OCT_3), order(2, "bob", OCT_3));
      TableRows.append(table, order(3, "eve", OCT_3));
      TableRows.append(table, order(4, "x", OCT_4));
      Slice day = slice("order_date", "2026-10-03");
      ContentHash stored = TableContent.hash(table, day.toExpression());

      assertThat(SliceContent.compare(table, Scope.of(day), stored))
          .as("v%s", version)
          .isEqualTo(new SliceContent.Comparison(true, "scan"));
      assertThat(
              SliceContent.compare(
                  table,
                  Scope.of(day),
                  hash(order(1, "ann", OCT_3), order(2, "bob", OCT_3), order(3, "eva", OCT_3))))
          .as("v%s", version)
          .isEqualTo(new SliceContent.Comparison(false, "scan"));
    }
  }

  @Test
  void deleteFilesMakeTheMetadataRowCountUnusableSoTheSliceIsRead() {
    floeCommit(oct3, order(1, "ann", OCT_3), order(2, "bob", OCT_3));
    deleteOrderMergeOnRead(1); // the files still say 2 rows; the slice holds 1

    assertThat(SliceContent.exactRowCount(table, Scope.of(oct3))).isEmpty();
    assertThat(SliceContent.compare(table, Scope.of(oct3), hash(order(2, "bob", OCT_3))))
        .isEqualTo(new SliceContent.Comparison(true, "scan"));
  }

  @Test
  void aFileStraddlingTheScopeIsReadNotCounted() {
    // A file of an older, unpartitioned spec holds a row of the slice and a row outside it. The
    // slice resolver refuses such slices today; the count must not rely on that.
    table = catalog.create("sales.evolved", SCHEMA, PartitionSpec.unpartitioned());
    TableRows.append(table, order(1, "ann", OCT_3), order(2, "bob", OCT_4));
    table.updateSpec().addField("order_date").commit();
    table.refresh();
    Slice evolvedOct3 =
        new Slice(
            "order_date",
            Slice.ColumnKind.DATE,
            SliceUnit.DAY,
            OCT_3.atStartOfDay(),
            OCT_4.atStartOfDay());

    assertThat(SliceContent.exactRowCount(table, Scope.of(evolvedOct3))).isEmpty();
    assertThat(SliceContent.compare(table, Scope.of(evolvedOct3), hash(order(1, "ann", OCT_3))))
        .isEqualTo(new SliceContent.Comparison(true, "scan"));
  }

  @Test
  void theMetadataRowCountOfAPartitionAlignedSliceIsItsRowCount() {
    TableRows.append(table, order(1, "ann", OCT_3));
    TableRows.append(table, order(2, "bob", OCT_4));
    TableRows.append(table, order(3, "eve", OCT_3, OCT_5));

    assertThat(SliceContent.exactRowCount(table, Scope.of(oct3))).hasValue(2);
    assertThat(SliceContent.exactRowCount(table, Scope.of(slice("order_date", "2026-10-05"))))
        .hasValue(0);
  }

  /** Another engine's DELETE (merge-on-read): an equality delete of one order in the slice. */
  private void deleteOrderMergeOnRead(long orderId) {
    org.apache.iceberg.DataFile file =
        table.currentSnapshot().addedDataFiles(table.io()).iterator().next();
    org.apache.iceberg.Schema key = table.schema().select("order_id");
    org.apache.iceberg.deletes.EqualityDeleteWriter<Record> writer =
        new org.apache.iceberg.data.GenericFileWriterFactory.Builder(table)
            .equalityFieldIds(new int[] {1})
            .equalityDeleteRowSchema(key)
            .build()
            .newEqualityDeleteWriter(
                org.apache.iceberg.io.OutputFileFactory.builderFor(table, 5, 1)
                    .format(org.apache.iceberg.FileFormat.PARQUET)
                    .build()
                    .newOutputFile(table.spec(), file.partition()),
                table.spec(),
                file.partition());
    try (writer) {
      org.apache.iceberg.data.GenericRecord deleted =
          org.apache.iceberg.data.GenericRecord.create(key);
      deleted.set(0, orderId);
      writer.write(deleted);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    table.newRowDelta().addDeletes(writer.toDeleteFile()).commit();
    table.refresh();
  }

  @Test
  void aFloeCommitForTheSameSliceGivesItsRecordedHash() {
    long commit = floeCommit(oct3, order(1, "ann", OCT_3), order(2, "bob", OCT_3));

    SliceContent.Current current = SliceContent.current(table, oct3);

    assertThat(current.method()).isEqualTo("lineage");
    assertThat(current.definedBy()).isEqualTo(commit);
    assertThat(current.hash()).isEqualTo(hash(order(1, "ann", OCT_3), order(2, "bob", OCT_3)));
    assertThat(current.hash()).isEqualTo(TableContent.hash(table, oct3.toExpression()));
  }

  @Test
  void aForeignAppendToTheSliceAfterTheFloeCommitIsReadAndHashed() {
    floeCommit(oct3, order(1, "ann", OCT_3));
    TableRows.append(table, order(2, "late", OCT_3));

    SliceContent.Current current = SliceContent.current(table, oct3);

    assertThat(current.method()).isEqualTo("scan");
    assertThat(current.definedBy()).isNull();
    assertThat(current.hash()).isEqualTo(hash(order(1, "ann", OCT_3), order(2, "late", OCT_3)));
  }

  @Test
  void aForeignAppendToAnotherPartitionKeepsTheLineageAnswer() {
    long commit = floeCommit(oct3, order(1, "ann", OCT_3));
    TableRows.append(table, order(2, "other", OCT_4));

    SliceContent.Current current = SliceContent.current(table, oct3);

    assertThat(current.method()).isEqualTo("lineage");
    assertThat(current.definedBy()).isEqualTo(commit);
    assertThat(current.hash()).isEqualTo(hash(order(1, "ann", OCT_3)));
  }

  @Test
  void aFloeCommitForAnAdjacentSliceIsSkipped() {
    long commit = floeCommit(oct3, order(1, "ann", OCT_3));
    floeCommit(slice("order_date", "2026-10-04"), order(2, "bob", OCT_4));

    SliceContent.Current current = SliceContent.current(table, oct3);

    assertThat(current.method()).isEqualTo("lineage");
    assertThat(current.definedBy()).isEqualTo(commit);
  }

  @Test
  void aFloeCommitForAnOverlappingMonthIsReadAndHashed() {
    floeCommit(oct3, order(1, "ann", OCT_3));
    floeCommit(slice("order_date", "2026-10"), order(2, "month", OCT_3), order(3, "x", OCT_4));

    SliceContent.Current current = SliceContent.current(table, oct3);

    assertThat(current.method()).isEqualTo("scan");
    assertThat(current.hash()).isEqualTo(hash(order(2, "month", OCT_3)));
  }

  @Test
  void aFloeCommitThatEmptiedTheSliceGivesTheEmptyHashFromLineage() {
    floeCommit(oct3, order(1, "ann", OCT_3));
    long emptied = floeCommit(oct3);

    SliceContent.Current current = SliceContent.current(table, oct3);

    assertThat(current.method()).isEqualTo("lineage");
    assertThat(current.definedBy()).isEqualTo(emptied);
    assertThat(current.hash()).isEqualTo(ContentHash.empty());
    assertThat(TableContent.hash(table, oct3.toExpression())).isEqualTo(ContentHash.empty());
  }

  @Test
  void walksFromTheHeadSoARollbackBringsBackTheEarlierCommitsHash() {
    long first = floeCommit(oct3, order(1, "first", OCT_3));
    floeCommit(oct3, order(1, "second", OCT_3));

    table.manageSnapshots().rollbackTo(first).commit();

    SliceContent.Current current = SliceContent.current(table, oct3);
    assertThat(current.method()).isEqualTo("lineage");
    assertThat(current.definedBy()).isEqualTo(first);
    assertThat(current.hash()).isEqualTo(hash(order(1, "first", OCT_3)));
  }

  @Test
  void aSliceOnlyForeignWritersTouchedIsReadAndHashed() {
    TableRows.append(table, order(1, "ann", OCT_3));
    TableRows.append(table, order(2, "bob", OCT_4));

    SliceContent.Current current = SliceContent.current(table, oct3);

    assertThat(current.method()).isEqualTo("scan");
    assertThat(current.hash()).isEqualTo(hash(order(1, "ann", OCT_3)));
  }

  @Test
  void aSliceWrittenBeforeExpiredSnapshotsIsReadNotReportedEmpty() {
    TableRows.append(table, order(1, "ann", OCT_3));
    long oldest = table.currentSnapshot().snapshotId();
    TableRows.append(table, order(2, "bob", OCT_4));

    table.expireSnapshots().expireSnapshotId(oldest).commit();

    SliceContent.Current current = SliceContent.current(table, oct3);
    assertThat(current.hash()).isEqualTo(hash(order(1, "ann", OCT_3)));
    assertThat(current.method()).isEqualTo("scan");
  }

  @Test
  void aFloeCommitOnAnotherSliceColumnThatRewroteTheSliceIsNotSkipped() {
    // Rows of order_date 2026-10-03 shipped on 2026-10-05: a ship_date job owns them too.
    floeCommit(oct3, order(1, "ann", OCT_3, OCT_5));
    floeCommit(slice("ship_date", "2026-10-05"), order(1, "ann-corrected", OCT_3, OCT_5));

    SliceContent.Current current = SliceContent.current(table, oct3);

    assertThat(current.hash()).isEqualTo(hash(order(1, "ann-corrected", OCT_3, OCT_5)));
    assertThat(current.method()).isEqualTo("scan");
  }

  @Test
  void aFloeCommitOnAnotherSliceColumnInOtherPartitionsIsSkipped() {
    long commit = floeCommit(oct3, order(1, "ann", OCT_3, OCT_5));
    floeCommit(slice("ship_date", "2026-10-04"), order(2, "bob", OCT_4, OCT_4));

    SliceContent.Current current = SliceContent.current(table, oct3);

    assertThat(current.method()).isEqualTo("lineage");
    assertThat(current.definedBy()).isEqualTo(commit);
  }

  @Test
  void aCompactionCommitIsLookedThroughToTheRunThatDefinedTheSlice() {
    long commit = floeCommit(oct3, order(1, "ann", OCT_3), order(2, "bob", OCT_3));
    rewriteSlice(oct3, "compact");

    SliceContent.Current current = SliceContent.current(table, oct3);

    assertThat(current.method()).isEqualTo("lineage");
    assertThat(current.definedBy()).isEqualTo(commit);
    assertThat(current.hash()).isEqualTo(TableContent.hash(table, oct3.toExpression()));
  }

  @Test
  void aRewriteWithoutCompactionLineageMakesTheSliceBeRead() {
    floeCommit(oct3, order(1, "ann", OCT_3), order(2, "bob", OCT_3));
    rewriteSlice(oct3, null);

    SliceContent.Current current = SliceContent.current(table, oct3);

    assertThat(current.method()).isEqualTo("scan");
    assertThat(current.hash()).isEqualTo(hash(order(1, "ann", OCT_3), order(2, "bob", OCT_3)));
  }

  /**
   * Rewrites the slice's files into one, rows unchanged, as `floe maintain --compact` commits it
   * (lineage mode {@code compact}), or as a foreign rewrite without lineage ({@code mode} null).
   */
  private void rewriteSlice(Slice slice, String mode) {
    table.refresh();
    List<Record> rows = new ArrayList<>();
    var rewrite = table.newRewrite();
    try (var tasks = table.newScan().filter(slice.toExpression()).planFiles();
        var records =
            org.apache.iceberg.data.IcebergGenerics.read(table)
                .where(slice.toExpression())
                .build()) {
      tasks.forEach(t -> rewrite.deleteFile(t.file()));
      records.forEach(r -> rows.add(r.copy()));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    rewrite.addFile(TableRows.write(table, rows.toArray(Record[]::new)));
    if (mode != null) {
      new Lineage(
              "key",
              UUID.randomUUID().toString(),
              "floe-maintain-compact",
              mode,
              slice.label(),
              "test",
              rows.size(),
              null,
              Map.of(),
              null)
          .toSummary()
          .forEach(
              (k, v) -> {
                if (v != null) {
                  rewrite.set(k, v);
                }
              });
    }
    rewrite.commit();
    table.refresh();
  }

  /** Commits like Floe's committer: one overwrite of the slice, with lineage in the summary. */
  private long floeCommit(Slice slice, Record... rows) {
    OverwriteFiles overwrite = table.newOverwrite().overwriteByRowFilter(slice.toExpression());
    // One file per partition, as the writers would produce.
    Map<List<Object>, List<Record>> partitions = new LinkedHashMap<>();
    for (Record row : rows) {
      partitions
          .computeIfAbsent(
              List.of(row.getField("order_date"), row.getField("ship_date")),
              k -> new ArrayList<>())
          .add(row);
    }
    partitions
        .values()
        .forEach(p -> overwrite.addFile(TableRows.write(table, p.toArray(Record[]::new))));
    Lineage lineage =
        new Lineage(
                "key-" + slice.label(),
                UUID.randomUUID().toString(),
                "orders",
                "overwrite",
                slice.label(),
                "test",
                0,
                null,
                Map.of("sales.staging_orders", 1L),
                null)
            .withContent(hash(rows));
    lineage.toSummary().forEach(overwrite::set);
    overwrite.commit();
    return table.currentSnapshot().snapshotId();
  }

  private Slice slice(String column, String value) {
    return SliceResolver.resolve("sales.orders", table, column, value);
  }

  private static ContentHash hash(Record... rows) {
    RecordHasher hasher = new RecordHasher(SCHEMA);
    ContentHash hash = ContentHash.empty();
    for (Record row : rows) {
      hasher.add(row, hash);
    }
    return hash;
  }

  private Record order(long id, String customer, LocalDate orderDate) {
    return order(id, customer, orderDate, orderDate);
  }

  private Record order(long id, String customer, LocalDate orderDate, LocalDate shipDate) {
    return TableRows.row(
        table,
        Map.of(
            "order_id", id, "customer", customer, "order_date", orderDate, "ship_date", shipDate));
  }
}
