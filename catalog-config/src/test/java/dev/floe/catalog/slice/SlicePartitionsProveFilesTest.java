package dev.floe.catalog.slice;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Whether Iceberg's check that an overwrite's new files lie inside the slice accepts them by their
 * partitions alone: {@link Slice#partitionsProveFiles} against Iceberg 1.11's own check, run on
 * files without column statistics in the partitions of instants across the slice.
 */
class SlicePartitionsProveFilesTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "order_date", Types.DateType.get()),
          Types.NestedField.required(3, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(4, "region", Types.StringType.get()));

  private InMemoryCatalog catalog;
  private int tables;

  @BeforeEach
  void openACatalog() {
    catalog = new InMemoryCatalog();
    catalog.initialize("proofs", Map.of());
    catalog.createNamespace(Namespace.of("t"));
  }

  @Test
  void theAnswerIsIcebergsForEverySpecAndSlice() {
    List<Function<PartitionSpec.Builder, PartitionSpec.Builder>> specs =
        List.of(
            b -> b,
            b -> b.identity("region"),
            b -> b.hour("ts"),
            b -> b.day("ts"),
            b -> b.month("ts"),
            b -> b.year("ts"),
            b -> b.identity("region").day("ts"),
            b -> b.identity("ts").day("ts"),
            b -> b.bucket("ts", 4),
            b -> b.identity("order_date"),
            b -> b.day("order_date"),
            b -> b.month("order_date"),
            b -> b.identity("region").year("order_date"));
    List<Slice> slices = new ArrayList<>();
    for (LocalDateTime start :
        List.of(
            LocalDateTime.of(2026, 10, 3, 5, 0),
            LocalDateTime.of(2026, 10, 1, 0, 0),
            LocalDateTime.of(2026, 1, 1, 0, 0),
            LocalDateTime.of(1970, 1, 1, 0, 0),
            LocalDateTime.of(1970, 1, 2, 0, 0),
            LocalDateTime.of(1970, 1, 3, 0, 0),
            LocalDateTime.of(1970, 2, 1, 0, 0),
            LocalDateTime.of(1969, 12, 31, 0, 0),
            LocalDateTime.of(1969, 12, 1, 0, 0),
            LocalDateTime.of(1969, 1, 1, 0, 0),
            LocalDateTime.of(1958, 6, 1, 0, 0))) {
      for (SliceUnit unit : SliceUnit.values()) {
        if (startsA(unit, start)) {
          slices.add(new Slice("ts", Slice.ColumnKind.TIMESTAMP, unit, start, unit.next(start)));
          // Not a slice a run takes, but the contract holds for any interval: one that ends half
          // way into a partition whose start lies inside it.
          slices.add(
              new Slice(
                  "ts", Slice.ColumnKind.TIMESTAMP, unit, start, halfPast(unit, unit.next(start))));
          if (unit != SliceUnit.HOUR) {
            slices.add(
                new Slice("order_date", Slice.ColumnKind.DATE, unit, start, unit.next(start)));
          }
        }
      }
    }

    int proven = 0;
    int refused = 0;
    for (Function<PartitionSpec.Builder, PartitionSpec.Builder> shape : specs) {
      PartitionSpec spec = shape.apply(PartitionSpec.builderFor(SCHEMA)).build();
      for (Slice slice : slices) {
        boolean accepted = icebergAcceptsFilesAcross(spec, slice);
        assertThat(slice.partitionsProveFiles(spec))
            .as("%s in spec %s", slice.label(), spec)
            .isEqualTo(accepted);
        if (accepted) {
          proven++;
        } else {
          refused++;
        }
      }
    }
    // Both answers occur, often: the comparison is not one-sided.
    assertThat(proven).isGreaterThan(50);
    assertThat(refused).isGreaterThan(50);
  }

  @Test
  void slicesOfWholePartitionsAwayFromTheEpochAreProvenAndOthersNot() {
    PartitionSpec byDay = PartitionSpec.builderFor(SCHEMA).day("ts").build();
    Slice oct3 = slice(SliceUnit.DAY, LocalDateTime.of(2026, 10, 3, 0, 0));

    assertThat(oct3.partitionsProveFiles(byDay)).isTrue();
    assertThat(
            slice(SliceUnit.MONTH, LocalDateTime.of(2026, 10, 1, 0, 0)).partitionsProveFiles(byDay))
        .isTrue();
    assertThat(
            slice(SliceUnit.HOUR, LocalDateTime.of(2026, 10, 3, 5, 0)).partitionsProveFiles(byDay))
        .isFalse();
    assertThat(oct3.partitionsProveFiles(PartitionSpec.unpartitioned())).isFalse();
    assertThat(
            oct3.partitionsProveFiles(PartitionSpec.builderFor(SCHEMA).identity("region").build()))
        .isFalse();
    // Iceberg's strict projection of a day is one day short before 1970 and on its first day.
    assertThat(
            slice(SliceUnit.DAY, LocalDateTime.of(1969, 12, 30, 0, 0)).partitionsProveFiles(byDay))
        .isFalse();
    assertThat(slice(SliceUnit.DAY, LocalDateTime.of(1970, 1, 1, 0, 0)).partitionsProveFiles(byDay))
        .isFalse();
  }

  /**
   * Whether Iceberg 1.11 commits an overwrite of {@code slice} adding files without column
   * statistics in the partitions of the slice's first instant, a second later, its middle and its
   * last microsecond.
   */
  private boolean icebergAcceptsFilesAcross(PartitionSpec spec, Slice slice) {
    Table table = catalog.createTable(TableIdentifier.of("t", "table" + (++tables)), SCHEMA, spec);
    long start = slice.startInternal();
    long end = slice.endInternal();
    long[] values =
        slice.kind() == Slice.ColumnKind.DATE
            ? new long[] {start, start + (end - start) / 2, end - 1}
            : new long[] {start, start + 1_000_000L, start + (end - start) / 2, end - 1};
    OverwriteFiles overwrite =
        table
            .newOverwrite()
            .overwriteByRowFilter(slice.toExpression())
            .validateAddedFilesMatchOverwriteFilter();
    for (int i = 0; i < values.length; i++) {
      overwrite.addFile(fileHolding(table, slice, values[i], i));
    }
    try {
      overwrite.commit();
      return true;
    } catch (ValidationException e) {
      assertThat(e).hasMessageStartingWith("Cannot append file with rows that do not match filter");
      return false;
    }
  }

  /** A data file without column statistics in the partition of a row holding {@code value}. */
  private static DataFile fileHolding(Table table, Slice slice, long value, int n) {
    Object[] row = new Object[SCHEMA.columns().size()];
    int position = SCHEMA.columns().indexOf(SCHEMA.findField(slice.column()));
    row[position] = slice.kind() == Slice.ColumnKind.DATE ? (Object) (int) value : (Object) value;
    PartitionKey partition = new PartitionKey(table.spec(), SCHEMA);
    partition.partition(new Row(row));
    return DataFiles.builder(table.spec())
        .withPath(table.location() + "/data/file-" + n + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(100)
        .withRecordCount(1)
        .withPartition(partition)
        .build();
  }

  private record Row(Object[] values) implements StructLike {
    @Override
    public int size() {
      return values.length;
    }

    @Override
    public <T> T get(int pos, Class<T> javaClass) {
      return javaClass.cast(values[pos]);
    }

    @Override
    public <T> void set(int pos, T value) {
      values[pos] = value;
    }
  }

  private static LocalDateTime halfPast(SliceUnit unit, LocalDateTime time) {
    return switch (unit) {
      case HOUR -> time.plusMinutes(30);
      case DAY -> time.plusHours(12);
      case MONTH -> time.plusDays(15);
      case YEAR -> time.plusMonths(6);
    };
  }

  private static boolean startsA(SliceUnit unit, LocalDateTime start) {
    return switch (unit) {
      case HOUR -> true;
      case DAY -> start.getHour() == 0;
      case MONTH -> start.getHour() == 0 && start.getDayOfMonth() == 1;
      case YEAR -> start.getHour() == 0 && start.getDayOfYear() == 1;
    };
  }

  private static Slice slice(SliceUnit unit, LocalDateTime start) {
    return new Slice("ts", Slice.ColumnKind.TIMESTAMP, unit, start, unit.next(start));
  }
}
