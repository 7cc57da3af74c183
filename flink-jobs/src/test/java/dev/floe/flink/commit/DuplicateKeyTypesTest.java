package dev.floe.flink.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.job.CheckSpec;
import dev.floe.catalog.lineage.CanonicalRowEncoder;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import dev.floe.flink.check.CheckStats;
import dev.floe.flink.check.DuplicateKeys;
import dev.floe.flink.row.RowDataHasher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.data.FlinkParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A key written twice is confirmed as a duplicate, whatever its type: the candidate is the writers'
 * key hash (of the row as Flink reads it), which the committer's confirmation must recompute from
 * the Iceberg records it reads back.
 */
class DuplicateKeyTypesTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  static List<Arguments> types() {
    Types.StructType struct =
        Types.StructType.of(
            Types.NestedField.optional(10, "a", Types.IntegerType.get()),
            Types.NestedField.optional(11, "f", Types.FixedType.ofLength(2)));
    return List.of(
        Arguments.of("uuid", Types.UUIDType.get(), (Supplier<Object>) () -> new UUID(1, 2)),
        Arguments.of(
            "binary",
            Types.BinaryType.get(),
            (Supplier<Object>) () -> ByteBuffer.wrap(new byte[] {1, 2, 3})),
        Arguments.of(
            "fixed", Types.FixedType.ofLength(3), (Supplier<Object>) () -> new byte[] {1, 2, 3}),
        Arguments.of(
            "decimal38",
            Types.DecimalType.of(38, 4),
            (Supplier<Object>) () -> new BigDecimal("-12345678901234567890123.4567")),
        Arguments.of(
            "decimal9",
            Types.DecimalType.of(9, 2),
            (Supplier<Object>) () -> new BigDecimal("-0.01")),
        Arguments.of(
            "string",
            Types.StringType.get(),
            (Supplier<Object>) () -> "é😀 long string over sixteen bytes"),
        Arguments.of(
            "timestamptz",
            Types.TimestampType.withZone(),
            (Supplier<Object>)
                () -> OffsetDateTime.of(2024, 1, 1, 0, 0, 0, 123_456_000, ZoneOffset.UTC)),
        Arguments.of(
            "timestamp",
            Types.TimestampType.withoutZone(),
            (Supplier<Object>) () -> LocalDateTime.of(2024, 1, 1, 0, 0, 0, 123_456_000)),
        Arguments.of(
            "date", Types.DateType.get(), (Supplier<Object>) () -> LocalDate.of(2024, 1, 1)),
        Arguments.of(
            "time",
            Types.TimeType.get(),
            (Supplier<Object>) () -> LocalTime.of(1, 2, 3, 4_000_000)),
        Arguments.of("double", Types.DoubleType.get(), (Supplier<Object>) () -> Double.NaN),
        Arguments.of(
            "struct_with_fixed",
            struct,
            (Supplier<Object>)
                () -> {
                  GenericRecord r = GenericRecord.create(struct);
                  r.set(0, 1);
                  r.set(1, new byte[] {7, 8});
                  return r;
                }),
        Arguments.of(
            "list_of_fixed",
            Types.ListType.ofOptional(12, Types.FixedType.ofLength(2)),
            (Supplier<Object>) () -> List.of(new byte[] {7, 8})));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("types")
  void aKeyWrittenTwiceIsConfirmed(String name, Type type, Supplier<Object> value) {
    Schema schema =
        new Schema(
            Types.NestedField.optional(1, "k", type),
            Types.NestedField.optional(2, "region", Types.StringType.get()));
    Table table = catalog.create("sales.t_" + name, schema, PartitionSpec.unpartitioned());
    List<DataFile> files =
        List.of(
            TableRows.write(table, row(table, value.get(), "eu")),
            TableRows.write(table, row(table, value.get(), "us")));
    DuplicateKeys candidates = new DuplicateKeys();
    candidates.add(0, writersKeyHash(table, files.get(0)));

    CheckStats described =
        DuplicateKeySamples.describe(
            table, files, List.of(new CheckSpec.Unique(List.of("k"))), candidates);

    assertThat(described.count(0)).as(name).isEqualTo(1);
  }

  /** The key hash a writer sends for the first row of {@code file}, read as Flink RowData. */
  private static long writersKeyHash(Table table, DataFile file) {
    Schema schema = table.schema();
    try (CloseableIterable<RowData> rows =
        Parquet.read(table.io().newInputFile(file.location()))
            .project(schema)
            .createReaderFunc(fileSchema -> FlinkParquetReaders.buildReader(schema, fileSchema))
            .build()) {
      RowDataHasher hasher = new RowDataHasher(FlinkSchemaUtil.convert(schema));
      hasher.hash128(rows.iterator().next());
      return hasher.hash64Of(new int[] {0}, new CanonicalRowEncoder());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Record row(Table table, Object k, String region) {
    Map<String, Object> values = new HashMap<>();
    values.put("k", k);
    values.put("region", region);
    return TableRows.row(table, values);
  }
}
