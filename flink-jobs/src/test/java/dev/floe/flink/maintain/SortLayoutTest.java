package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.floe.catalog.lineage.StoredRows;
import dev.floe.catalog.maintain.GroupHeap;
import dev.floe.catalog.maintain.SortKeyOverlap;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.spec.MaintenancePolicy;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Sort and z-order compaction on typed and nested columns, and what its planner picks. */
class SortLayoutTest {
  private static final String T = "s.typed";
  private static final Types.StructType POINT =
      Types.StructType.of(Types.NestedField.optional(11, "a", Types.LongType.get()));
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()),
          Types.NestedField.optional(3, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(4, "f", Types.FixedType.ofLength(4)),
          Types.NestedField.optional(5, "s", POINT),
          Types.NestedField.optional(6, "name", Types.StringType.get()));
  private static final PartitionSpec BY_D = PartitionSpec.builderFor(SCHEMA).identity("d").build();
  private static final String DAY = "2026-10-03";

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  private Table table() {
    return catalog.create(T, SCHEMA, BY_D);
  }

  private static Record row(Table table, long id, int minute, String name) {
    GenericRecord point = GenericRecord.create(POINT);
    point.setField("a", 100 - id);
    return TableRows.row(
        table,
        Map.of(
            "id",
            id,
            "d",
            LocalDate.parse(DAY),
            "ts",
            LocalDateTime.parse("2026-10-03T00:00:00").plusMinutes(minute),
            "f",
            new byte[] {(byte) id, 0, 0, (byte) minute},
            "s",
            point,
            "name",
            name));
  }

  private static void strategy(Table table, String strategy, String zorder) {
    var update = table.updateProperties().set(MaintenancePolicy.STRATEGY, strategy);
    if (zorder != null) {
      update.set(MaintenancePolicy.ZORDER_COLUMNS, zorder);
    }
    update.commit();
    table.refresh();
  }

  private static List<Record> storedRows(Table table) {
    List<Record> rows = new ArrayList<>();
    for (DataFile file : Deletes.dataFiles(table)) {
      try (CloseableIterable<Record> read =
          StoredRows.read(table, table.spec(), file, List.of(), new AtomicLong())) {
        read.forEach(rows::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return rows;
  }

  @Test
  void sortByATimestampColumnOrdersTheRows() {
    Table table = table();
    TableRows.append(table, row(table, 1, 30, "x"), row(table, 2, 10, "y"));
    TableRows.append(table, row(table, 3, 20, "z"));
    table.replaceSortOrder().asc("ts").commit();
    strategy(table, "sort", null);
    List<Record> rows = storedRows(table);

    assertThatCode(() -> RowLayout.of(table, T).order(table, rows)).doesNotThrowAnyException();
  }

  @Test
  void sortByADateColumnAndAFixedColumnOrdersTheRows() {
    Table table = table();
    TableRows.append(table, row(table, 1, 30, "x"), row(table, 2, 10, "y"));
    table.replaceSortOrder().asc("d").asc("f").commit();
    strategy(table, "sort", null);
    List<Record> rows = storedRows(table);

    assertThatCode(() -> RowLayout.of(table, T).order(table, rows)).doesNotThrowAnyException();
  }

  @Test
  void sortByHourOfATimestampOrdersTheRows() {
    Table table = table();
    TableRows.append(table, row(table, 1, 300, "x"), row(table, 2, 10, "y"));
    table.replaceSortOrder().asc(org.apache.iceberg.expressions.Expressions.hour("ts")).commit();
    strategy(table, "sort", null);
    List<Record> rows = storedRows(table);

    assertThatCode(() -> RowLayout.of(table, T).order(table, rows)).doesNotThrowAnyException();
  }

  @Test
  void sortByAFixedColumnOrdersTheRows() {
    Table table = table();
    TableRows.append(table, row(table, 1, 30, "x"), row(table, 2, 10, "y"));
    table.replaceSortOrder().asc("f").commit();
    strategy(table, "sort", null);
    List<Record> rows = storedRows(table);

    assertThatCode(() -> RowLayout.of(table, T).order(table, rows)).doesNotThrowAnyException();
  }

  /** Every sortable type, both directions, both null orders: rows come out in the key's order. */
  @Test
  void sortOrdersRowsByEveryColumnTypeInBothDirectionsAndNullOrders() {
    Schema schema =
        new Schema(
            Types.NestedField.optional(1, "rank", Types.IntegerType.get()),
            Types.NestedField.optional(2, "b", Types.BooleanType.get()),
            Types.NestedField.optional(3, "i", Types.IntegerType.get()),
            Types.NestedField.optional(4, "l", Types.LongType.get()),
            Types.NestedField.optional(5, "fl", Types.FloatType.get()),
            Types.NestedField.optional(6, "db", Types.DoubleType.get()),
            Types.NestedField.optional(7, "dec", Types.DecimalType.of(9, 2)),
            Types.NestedField.optional(8, "d", Types.DateType.get()),
            Types.NestedField.optional(9, "t", Types.TimeType.get()),
            Types.NestedField.optional(10, "ts", Types.TimestampType.withoutZone()),
            Types.NestedField.optional(11, "tz", Types.TimestampType.withZone()),
            Types.NestedField.optional(12, "s", Types.StringType.get()),
            Types.NestedField.optional(13, "u", Types.UUIDType.get()),
            Types.NestedField.optional(14, "fx", Types.FixedType.ofLength(4)),
            Types.NestedField.optional(15, "bin", Types.BinaryType.get()));
    Table table = catalog.create("s.every_type", schema, PartitionSpec.unpartitioned());
    strategy(table, "sort", null);
    List<Record> rows = new ArrayList<>();
    int[] ranks = {7, 2, -1, 9, 0, 5, -1, 3, 8, 1, 6, 4};
    for (int rank : ranks) {
      Record row = GenericRecord.create(StoredRows.schema(table));
      if (rank >= 0) {
        byte[] bytes = java.nio.ByteBuffer.allocate(4).putInt(rank).array();
        row.setField("rank", rank);
        row.setField("b", rank >= 5);
        row.setField("i", rank - 4);
        row.setField("l", rank * 1_000_000_000_000L - 3);
        row.setField("fl", rank / 4f - 1);
        row.setField("db", rank / 3d - 2);
        row.setField("dec", java.math.BigDecimal.valueOf(rank * 125 - 300, 2));
        row.setField("d", LocalDate.parse("1969-12-28").plusDays(rank));
        row.setField("t", java.time.LocalTime.MIDNIGHT.plusMinutes(rank * 7L));
        row.setField("ts", LocalDateTime.parse("1969-12-31T23:59:58").plusSeconds(rank));
        row.setField("tz", java.time.OffsetDateTime.parse("2026-10-03T00:00:00Z").plusHours(rank));
        row.setField("s", "key-" + (char) ('a' + rank));
        row.setField("u", new java.util.UUID(rank, 0));
        row.setField("fx", bytes);
        row.setField("bin", java.nio.ByteBuffer.wrap(bytes));
      }
      rows.add(row);
    }
    for (String column :
        List.of("b", "i", "l", "fl", "db", "dec", "d", "t", "ts", "tz", "s", "u")) {
      for (org.apache.iceberg.SortDirection direction : org.apache.iceberg.SortDirection.values()) {
        for (org.apache.iceberg.NullOrder nulls : org.apache.iceberg.NullOrder.values()) {
          assertSorted(table, rows, column, direction, nulls);
        }
      }
    }
    for (String column : List.of("fx", "bin")) {
      assertSorted(
          table,
          rows,
          column,
          org.apache.iceberg.SortDirection.DESC,
          org.apache.iceberg.NullOrder.NULLS_LAST);
    }
  }

  private static void assertSorted(
      Table table,
      List<Record> rows,
      String column,
      org.apache.iceberg.SortDirection direction,
      org.apache.iceberg.NullOrder nulls) {
    var replace = table.replaceSortOrder();
    (direction == org.apache.iceberg.SortDirection.ASC
            ? replace.asc(column, nulls)
            : replace.desc(column, nulls))
        .commit();
    table.refresh();
    List<Record> ordered = RowLayout.of(table, T).order(table, new ArrayList<>(rows));
    // the key of each row, as its rank (booleans: false < true), null as null
    List<Integer> keys = new ArrayList<>();
    for (Record row : ordered) {
      Integer rank = (Integer) row.getField("rank");
      keys.add(rank == null ? null : column.equals("b") ? (rank >= 5 ? 1 : 0) : rank);
    }
    List<Integer> expected = new ArrayList<>(keys);
    java.util.Comparator<Integer> values =
        direction == org.apache.iceberg.SortDirection.ASC
            ? java.util.Comparator.naturalOrder()
            : java.util.Comparator.reverseOrder();
    expected.sort(
        nulls == org.apache.iceberg.NullOrder.NULLS_FIRST
            ? java.util.Comparator.nullsFirst(values)
            : java.util.Comparator.nullsLast(values));
    assertThat(keys).as("%s %s %s", column, direction, nulls).isEqualTo(expected);
  }

  @Test
  void twoDisjointSortedFilesOfLongStringsAreNotRePlannedByTheOverlapRule() {
    Table table = table();
    String prefix = "customer-account-";
    AppendFiles append = table.newAppend();
    for (int f = 0; f < 2; f++) {
      List<Record> rows = new ArrayList<>();
      for (int i = 0; i < 500; i++) {
        int n = f * 500 + i;
        rows.add(row(table, n, i, prefix + String.format("%04d", n)));
      }
      append.appendFile(TableRows.write(table, rows.toArray(Record[]::new)));
    }
    append.commit();
    table.replaceSortOrder().asc("name").commit();
    strategy(table, "sort", null);
    List<Slice> slices = CompactionSlices.resolve(T, table, List.of(DAY));

    List<PlannedSlice> planned =
        CompactionPlanner.plan(
            table,
            table.currentSnapshot().snapshotId(),
            List.of(DAY),
            slices,
            1, // no file is small: only the overlap rule could plan the partition
            DeleteThresholds.NEVER,
            RowLayout.of(table, T));

    assertThat(planned.get(0).groups())
        .as("files 0000-0499 and 0500-0999 do not overlap on name")
        .isEmpty();
  }

  @Test
  void zorderOnANestedColumnIsComputed() {
    Table table = table();
    TableRows.append(table, row(table, 1, 30, "x"), row(table, 2, 10, "y"));
    strategy(table, "zorder", "s.a,id");
    List<Record> rows = storedRows(table);

    assertThatCode(() -> RowLayout.of(table, T).order(table, rows)).doesNotThrowAnyException();
  }

  @Test
  void sortOnANestedFieldCanBePlanned() {
    Table table = table();
    TableRows.append(table, row(table, 1, 30, "x"), row(table, 2, 10, "y"));
    TableRows.append(table, row(table, 3, 20, "z"));
    table.replaceSortOrder().asc("s.a").commit();
    strategy(table, "sort", null);
    List<Slice> slices = CompactionSlices.resolve(T, table, List.of(DAY));

    assertThatCode(
            () ->
                CompactionPlanner.plan(
                    table,
                    table.currentSnapshot().snapshotId(),
                    List.of(DAY),
                    slices,
                    1L << 30,
                    DeleteThresholds.NEVER,
                    RowLayout.of(table, T)))
        .doesNotThrowAnyException();
  }

  @Test
  void aTableSortedOnANestedFieldCanBePlannedByTheCatalogPlanner() {
    Table table = table();
    TableRows.append(table, row(table, 1, 30, "x"), row(table, 2, 10, "y"));
    table.replaceSortOrder().asc("s.a").commit();
    strategy(table, "sort", null);

    dev.floe.catalog.maintain.plan.MaintenancePlan plan =
        dev.floe.catalog.maintain.plan.MaintenancePlanner.withClock(java.time.Clock.systemUTC())
            .plan(catalog.catalog(), List.of(T));

    assertThat(plan.unreadable()).isEmpty();
  }

  @Test
  void zorderOnAFieldOfAStructOrdersTheRowsByIt() {
    Table table = table();
    TableRows.append(table, row(table, 1, 30, "x"), row(table, 3, 10, "y"), row(table, 2, 20, "z"));
    strategy(table, "zorder", "s.a");
    List<Record> rows = storedRows(table);

    List<Record> ordered = RowLayout.of(table, T).order(table, rows);

    // s.a is 100 - id: ascending s.a is descending id
    assertThat(ordered.stream().map(r -> r.getField("id")).toList()).containsExactly(3L, 2L, 1L);
  }

  @Test
  void noSortedGroupHoldsMoreThanMaxGroupBytes() {
    Table table = table();
    strategy(table, "sort", null);
    table.replaceSortOrder().asc("id").commit();
    AppendFiles append = table.newAppend();
    // five 120 MiB files: 600 MiB, over the cap; the old balanced binning made 2 groups of
    // 360 and 240 MiB
    for (int i = 0; i < 5; i++) {
      append.appendFile(
          DataFiles.builder(table.spec())
              .withPath(table.location() + "/data/d=" + DAY + "/big-" + i + ".parquet")
              .withFormat(FileFormat.PARQUET)
              .withPartitionPath("d=" + DAY)
              .withFileSizeInBytes(120L * 1024 * 1024)
              .withRecordCount(100_000) // few rows: the bytes cap decides
              .build());
    }
    append.commit();
    table.refresh();
    List<Slice> slices = CompactionSlices.resolve(T, table, List.of(DAY));

    List<PlannedSlice> planned =
        CompactionPlanner.plan(
            table,
            table.currentSnapshot().snapshotId(),
            List.of(DAY),
            slices,
            MaintenancePolicy.ICEBERG_TARGET_FILE_SIZE, // the default: 512 MiB, all are small
            DeleteThresholds.NEVER,
            RowLayout.of(table, T));

    assertThat(planned.get(0).groups()).isNotEmpty();
    for (RewriteGroup group : planned.get(0).groups()) {
      long bytes = group.inputs().stream().mapToLong(DataFile::fileSizeInBytes).sum();
      assertThat(bytes)
          .as("group %d input bytes", group.index())
          .isLessThanOrEqualTo(SortKeyOverlap.MAX_GROUP_BYTES);
    }
  }

  @Test
  void theOutputOfASortedMultiGroupPartitionIsNotCompactedAgain() {
    Table table = table();
    strategy(table, "sort", null);
    table.replaceSortOrder().asc("id").commit();
    long mib = 1024L * 1024;
    AppendFiles append = table.newAppend();
    long[] sizes = {128 * mib + 1, 72 * mib, 128 * mib + 1, 72 * mib, 128 * mib + 1, 72 * mib};
    for (int i = 0; i < sizes.length; i++) {
      append.appendFile(
          DataFiles.builder(table.spec())
              .withPath(table.location() + "/data/d=" + DAY + "/sorted-" + i + ".parquet")
              .withFormat(FileFormat.PARQUET)
              .withPartitionPath("d=" + DAY)
              .withFileSizeInBytes(sizes[i])
              .withRecordCount(1_000_000)
              .build());
    }
    append.commit();
    table.refresh();
    List<Slice> slices = CompactionSlices.resolve(T, table, List.of(DAY));

    List<PlannedSlice> planned =
        CompactionPlanner.plan(
            table,
            table.currentSnapshot().snapshotId(),
            List.of(DAY),
            slices,
            128 * mib,
            DeleteThresholds.NEVER,
            RowLayout.of(table, T));

    long rewritten =
        planned.get(0).groups().stream()
            .flatMap(g -> g.inputs().stream())
            .mapToLong(DataFile::fileSizeInBytes)
            .sum();
    assertThat(rewritten >> 20).as("MiB rewritten again by a rerun").isZero();
  }

  @Test
  void noSortedGroupHoldsMoreRowsThanTheHeapCapAllows() {
    Table table = table();
    strategy(table, "sort", null);
    table.replaceSortOrder().asc("id").commit();
    AppendFiles append = table.newAppend();
    // six 10 MiB files of 300,000 rows: 60 MiB of Parquet, far more heap as generic records
    for (int i = 0; i < 6; i++) {
      append.appendFile(
          DataFiles.builder(table.spec())
              .withPath(table.location() + "/data/d=" + DAY + "/dense-" + i + ".parquet")
              .withFormat(FileFormat.PARQUET)
              .withPartitionPath("d=" + DAY)
              .withFileSizeInBytes(10L * 1024 * 1024)
              .withRecordCount(300_000)
              .build());
    }
    append.commit();
    table.refresh();
    List<Slice> slices = CompactionSlices.resolve(T, table, List.of(DAY));

    List<PlannedSlice> planned =
        CompactionPlanner.plan(
            table,
            table.currentSnapshot().snapshotId(),
            List.of(DAY),
            slices,
            MaintenancePolicy.ICEBERG_TARGET_FILE_SIZE,
            DeleteThresholds.NEVER,
            RowLayout.of(table, T));

    assertThat(planned.get(0).groups()).isNotEmpty();
    for (RewriteGroup group : planned.get(0).groups()) {
      assertThat(GroupHeap.of(StoredRows.schema(table), group.inputs()))
          .as("group %d estimated heap", group.index())
          .isLessThanOrEqualTo(GroupHeap.MAX_GROUP_HEAP_BYTES);
    }
  }
}
