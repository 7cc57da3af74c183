package dev.floe.flink.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one-partition writer writes the files Iceberg's fanout writer writes for the same rows of one
 * partition: the same partition, spec, format, counts, bounds and stored rows, in files that roll
 * over at the table's target size.
 */
class OnePartitionWriterTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "amount", Types.DecimalType.of(10, 2)),
          Types.NestedField.optional(3, "note", Types.StringType.get()),
          Types.NestedField.required(4, "ts", Types.TimestampType.withoutZone()));

  private static final LocalDateTime FIVE_AM = LocalDateTime.of(2026, 10, 3, 5, 0);

  @TempDir Path home;
  private Catalog catalog;

  @Test
  void writesTheFilesIcebergsFanoutWriterWritesForOnePartition() throws IOException {
    Table table = table(PartitionSpec.builderFor(SCHEMA).day("ts").build(), Map.of());
    RowType rowType = FlinkSchemaUtil.convert(table.schema());
    List<RowData> rows = rows(1_000);

    TaskWriter<RowData> onePartition = DataFileWriters.forOnePartition(table, rowType, 0, 0);
    DataFile[] fast = write(onePartition, rows);
    DataFile[] fanout = write(DataFileWriters.create(table, rowType, 1, 0), rows);

    assertThat(ValueGuard.unwrap(onePartition)).isInstanceOf(OnePartitionWriter.class);
    assertThat(fast).hasSize(1);
    assertThat(fanout).hasSize(1);
    DataFile a = fast[0];
    DataFile b = fanout[0];
    assertThat(a.partition()).isEqualTo(b.partition());
    assertThat(a.partition().get(0, Integer.class))
        .isEqualTo((int) FIVE_AM.toLocalDate().toEpochDay());
    assertThat(a.specId()).isEqualTo(b.specId());
    assertThat(a.format()).isEqualTo(b.format());
    assertThat(a.recordCount()).isEqualTo(b.recordCount()).isEqualTo(1_000);
    assertThat(a.fileSizeInBytes()).isEqualTo(b.fileSizeInBytes());
    assertThat(a.columnSizes()).isEqualTo(b.columnSizes());
    assertThat(a.valueCounts()).isEqualTo(b.valueCounts());
    assertThat(a.nullValueCounts()).isEqualTo(b.nullValueCounts());
    assertThat(a.lowerBounds()).isEqualTo(b.lowerBounds());
    assertThat(a.upperBounds()).isEqualTo(b.upperBounds());
    assertThat(a.splitOffsets()).isEqualTo(b.splitOffsets());
    assertThat(a.keyMetadata()).isEqualTo(b.keyMetadata());
    assertThat(a.sortOrderId()).isEqualTo(b.sortOrderId());
    assertThat(a.location()).isNotEqualTo(b.location());
    assertThat(read(table, a)).isEqualTo(read(table, b)).hasSize(1_000);
  }

  @Test
  void rollsOverAtTheTablesTargetFileSizeAsTheFanoutWriterDoes() throws IOException {
    // Iceberg's rolling writer checks the file's length every 1,000 rows.
    Table table =
        table(
            PartitionSpec.builderFor(SCHEMA).day("ts").build(),
            Map.of("write.target-file-size-bytes", "1"));
    RowType rowType = FlinkSchemaUtil.convert(table.schema());
    List<RowData> rows = rows(3_500);

    DataFile[] fast = write(DataFileWriters.forOnePartition(table, rowType, 0, 0), rows);
    DataFile[] fanout = write(DataFileWriters.create(table, rowType, 1, 0), rows);

    assertThat(Arrays.stream(fast).mapToLong(DataFile::recordCount))
        .containsExactly(1_000L, 1_000L, 1_000L, 500L);
    assertThat(Arrays.stream(fanout).mapToLong(DataFile::recordCount))
        .containsExactly(1_000L, 1_000L, 1_000L, 500L);
  }

  @Test
  void abortDeletesTheFilesWritten() throws IOException {
    Table table = table(PartitionSpec.builderFor(SCHEMA).day("ts").build(), Map.of());
    TaskWriter<RowData> writer =
        DataFileWriters.forOnePartition(table, FlinkSchemaUtil.convert(table.schema()), 0, 0);
    for (RowData row : rows(10)) {
      writer.write(row);
    }

    writer.abort();

    try (var files = Files.walk(home)) {
      assertThat(files.filter(p -> p.toString().endsWith(".parquet")).toList()).isEmpty();
    }
  }

  @Test
  void anUnpartitionedTableGetsIcebergsOwnWriter() {
    Table table = table(PartitionSpec.unpartitioned(), Map.of());

    TaskWriter<RowData> writer =
        DataFileWriters.forOnePartition(table, FlinkSchemaUtil.convert(table.schema()), 0, 0);

    assertThat(writer).isNotInstanceOf(OnePartitionWriter.class);
  }

  private Table table(PartitionSpec spec, Map<String, String> properties) {
    if (catalog == null) {
      catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("t"));
    }
    return catalog.createTable(
        TableIdentifier.of("t", "w" + System.nanoTime()), SCHEMA, spec, properties);
  }

  @AfterEach
  void closeTheCatalog() {
    if (catalog != null) {
      Catalogs.close(catalog);
    }
  }

  private static List<RowData> rows(int count) {
    List<RowData> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      LocalDateTime ts = FIVE_AM.plusSeconds(i * 7L);
      rows.add(
          GenericRowData.of(
              (long) i,
              i % 5 == 0 ? null : DecimalData.fromBigDecimal(BigDecimal.valueOf(i * 13L, 2), 10, 2),
              i % 3 == 0 ? null : StringData.fromString("note " + i),
              TimestampData.fromLocalDateTime(ts)));
    }
    return rows;
  }

  private static DataFile[] write(TaskWriter<RowData> writer, List<RowData> rows)
      throws IOException {
    for (RowData row : rows) {
      writer.write(row);
    }
    return writer.complete().dataFiles();
  }

  private static List<String> read(Table table, DataFile file) throws IOException {
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<Record> records =
        Parquet.read(table.io().newInputFile(file.location()))
            .project(table.schema())
            .createReaderFunc(type -> GenericParquetReaders.buildReader(table.schema(), type))
            .build()) {
      for (Record record : records) {
        rows.add(record.toString());
      }
    }
    return rows;
  }
}
