package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Compaction carries every value bit for bit, read back with Iceberg's generic reader: the types a
 * Flink {@code RowData} path loses (a {@code time}'s microseconds) or may bend (NaN, -0.0, a uuid,
 * decimal(38,s), dates before 1970).
 */
class CompactionExactValuesITCase {
  private static final String TABLE = "sales.precise";
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()),
          Types.NestedField.optional(3, "t", Types.TimeType.get()),
          Types.NestedField.optional(4, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(5, "tstz", Types.TimestampType.withZone()),
          Types.NestedField.optional(6, "u", Types.UUIDType.get()),
          Types.NestedField.optional(7, "big", Types.DecimalType.of(38, 10)),
          Types.NestedField.optional(8, "f", Types.FloatType.get()),
          Types.NestedField.optional(9, "x", Types.DoubleType.get()),
          Types.NestedField.optional(10, "fx", Types.FixedType.ofLength(3)),
          Types.NestedField.optional(11, "bin", Types.BinaryType.get()),
          Types.NestedField.optional(12, "s", Types.StringType.get()));
  private static final PartitionSpec BY_DAY =
      PartitionSpec.builderFor(SCHEMA).identity("d").build();
  private static final LocalDate MOON = LocalDate.parse("1969-07-20");

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void aTimeWithMicrosecondsAndOtherPreciseValuesAreIdenticalAfterCompaction() {
    Table table = catalog.create(TABLE, SCHEMA, BY_DAY);
    TableRows.append(table, row(table, 1, "08:30:00.123456", 1.5f, 2.5));
    TableRows.append(table, row(table, 2, "23:59:59.999999", Float.NaN, -0.0d));
    TableRows.append(table, row(table, 3, "00:00:00.000001", -0.0f, Double.NaN));
    table.refresh();
    List<Record> before = rows(table);
    ContentHash content = TableContent.hash(table);

    CompactionResult result =
        Compaction.of(catalog.config(), TABLE).slices(List.of(MOON.toString())).commit();

    table.refresh();
    assertThat(result.slices().get(0).status()).isEqualTo(SliceCompaction.Status.COMPACTED);
    assertThat(result.slices().get(0).written().files()).isEqualTo(1);
    List<Record> after = rows(table);
    assertThat(after).hasSize(3);
    assertThat(after.get(0).getField("t")).isEqualTo(LocalTime.parse("08:30:00.123456"));
    assertThat(after.get(1).getField("x"))
        .satisfies(v -> assertThat(Double.doubleToRawLongBits((Double) v)).isEqualTo(1L << 63));
    assertThat(after.get(1).getField("f"))
        .satisfies(v -> assertThat(Float.isNaN((Float) v)).isTrue());
    for (int i = 0; i < before.size(); i++) {
      assertThat(after.get(i)).isEqualTo(before.get(i));
    }
    assertThat(TableContent.hash(table)).isEqualTo(content);
  }

  private static Record row(Table table, long id, String time, float f, double x) {
    Map<String, Object> values = new HashMap<>();
    values.put("id", id);
    values.put("d", MOON);
    values.put("t", LocalTime.parse(time));
    values.put("ts", LocalDateTime.parse("1901-12-13T20:45:52.654321").plusDays(id));
    values.put(
        "tstz", OffsetDateTime.of(2026, 10, 3, 8, 30, 0, 123_456_000, ZoneOffset.UTC).plusDays(id));
    values.put("u", UUID.fromString("123e4567-e89b-12d3-a456-42661417400" + id));
    values.put(
        "big",
        new BigDecimal("-1234567890123456789012345678.0123456789").add(BigDecimal.valueOf(id)));
    values.put("f", f);
    values.put("x", x);
    values.put("fx", new byte[] {(byte) id, 0, (byte) 0xff});
    values.put("bin", ByteBuffer.wrap(new byte[] {0, (byte) 0x80, (byte) id}));
    values.put("s", "zeile " + id + " \u00fc\u20ac\uD83D\uDE00");
    return TableRows.row(table, values);
  }

  private static List<Record> rows(Table table) {
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      records.forEach(rows::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    rows.sort(Comparator.comparing(r -> (Long) r.getField("id")));
    return rows;
  }
}
