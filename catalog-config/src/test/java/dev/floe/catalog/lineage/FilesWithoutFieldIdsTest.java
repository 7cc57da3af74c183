package dev.floe.catalog.lineage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.testing.EmbeddedCatalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.mapping.MappingUtil;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.parquet.ParquetSchemaUtil;
import org.apache.iceberg.types.Types;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Parquet data file without field ids (as a migration or {@code add_files} adds it) is read
 * through the table's name mapping: its columns are matched by name even when the file stores them
 * in another order than the table, so compaction and revert copy the true values, and table scans
 * (content hashes, diffs) read them, with delete files and filters applied.
 */
class FilesWithoutFieldIdsTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "a", Types.StringType.get()),
          Types.NestedField.optional(3, "b", Types.StringType.get()),
          Types.NestedField.optional(4, "d", Types.DateType.get()));

  /** The file's own column order: b before a, and no field ids. */
  private static final MessageType FILE_SCHEMA =
      MessageTypeParser.parseMessageType(
          "message migrated {"
              + " required int64 id;"
              + " optional binary b (STRING);"
              + " optional binary a (STRING);"
              + " optional int32 d (DATE); }");

  private static final LocalDate DAY = LocalDate.of(2026, 10, 3);

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;

  @BeforeEach
  void createTable() {
    table = catalog.create("sales.migrated", SCHEMA, PartitionSpec.unpartitioned());
    table
        .updateProperties()
        .set(
            TableProperties.DEFAULT_NAME_MAPPING,
            NameMappingParser.toJson(MappingUtil.create(table.schema())))
        .commit();
  }

  @Test
  void storedRowsMatchTheColumnsOfAFileWithoutFieldIdsByNameThroughTheNameMapping()
      throws IOException {
    DataFile file = writeWithoutFieldIds(List.of(row(1, "a1", "b1"), row(2, "a2", null)));
    table.newAppend().appendFile(file).commit();

    List<Record> read = new ArrayList<>();
    AtomicLong rowsInFile = new AtomicLong();
    try (CloseableIterable<Record> rows =
        StoredRows.read(table, table.spec(), file, List.of(), rowsInFile)) {
      rows.forEach(r -> read.add(r.copy()));
    }

    assertThat(read).containsExactly(row(1, "a1", "b1"), row(2, "a2", null));
    assertThat(rowsInFile).hasValue(2);
    assertThat(TableContent.hashWholeFiles(table, tasks()))
        .isEqualTo(hash(row(1, "a1", "b1"), row(2, "a2", null)));
  }

  @Test
  void tableScansMatchTheColumnsOfAFileWithoutFieldIdsByNameWithDeletesAndFilters()
      throws IOException {
    DataFile file = writeWithoutFieldIds(List.of(row(1, "a1", "b1"), row(2, "a2", null)));
    table.newAppend().appendFile(file).commit();
    long appended = table.currentSnapshot().snapshotId();

    assertThat(TableContent.hash(table)).isEqualTo(hash(row(1, "a1", "b1"), row(2, "a2", null)));
    assertThat(TableContent.hash(table)).isEqualTo(TableContent.hashWholeFiles(table, tasks()));
    // The residual filter is evaluated on the values read, so it must see them unswapped.
    assertThat(TableContent.hash(table, Expressions.equal("b", "b1")))
        .isEqualTo(hash(row(1, "a1", "b1")));
    assertThat(TableContent.hash(table, Expressions.equal("a", "a2")))
        .isEqualTo(hash(row(2, "a2", null)));

    deletePositions(file, 0);

    assertThat(TableContent.hash(table)).isEqualTo(hash(row(2, "a2", null)));
    assertThat(TableContent.hash(table, Expressions.isNull("b")))
        .isEqualTo(hash(row(2, "a2", null)));
    assertThat(TableContent.hash(table, Expressions.equal("b", "b1"))).isEqualTo(hash());
    assertThat(TableContent.hash(table, appended, Expressions.alwaysTrue()))
        .isEqualTo(hash(row(1, "a1", "b1"), row(2, "a2", null)));
    assertThat(read(table.currentSnapshot().snapshotId(), Expressions.alwaysTrue()))
        .containsExactly(row(2, "a2", null));
    assertThat(read(appended, Expressions.equal("a", "a1"))).containsExactly(row(1, "a1", "b1"));
  }

  /** What {@link TableRows} reads with the snapshot's own schema (as revert and diff read). */
  private List<Record> read(long snapshotId, Expression filter) throws IOException {
    List<Record> read = new ArrayList<>();
    try (CloseableIterable<Record> rows = TableRows.read(table, snapshotId, filter)) {
      rows.forEach(r -> read.add(r.copy()));
    }
    return read;
  }

  /** Commits a position delete file deleting {@code positions} of {@code file}. */
  private void deletePositions(DataFile file, long... positions) throws IOException {
    OutputFile out =
        table
            .io()
            .newOutputFile(
                table
                    .locationProvider()
                    .newDataLocation("deletes-" + file.recordCount() + ".parquet"));
    PositionDeleteWriter<Record> writer =
        Parquet.writeDeletes(out)
            .withSpec(table.spec())
            .overwrite()
            .createWriterFunc(GenericParquetWriter::create)
            .buildPositionWriter();
    PositionDelete<Record> delete = PositionDelete.create();
    try (writer) {
      for (long pos : positions) {
        writer.write(delete.set(file.location(), pos, null));
      }
    }
    table.newRowDelta().addDeletes(writer.toDeleteFile()).commit();
  }

  private Record row(long id, String a, String b) {
    GenericRecord record = GenericRecord.create(SCHEMA);
    record.setField("id", id);
    record.setField("a", a);
    record.setField("b", b);
    record.setField("d", DAY);
    return record;
  }

  private static ContentHash hash(Record... records) {
    RecordHasher hasher = new RecordHasher(SCHEMA);
    ContentHash hash = ContentHash.empty();
    for (Record record : records) {
      hasher.add(record, hash);
    }
    return hash;
  }

  private List<FileScanTask> tasks() {
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned = table.newScan().planFiles()) {
      planned.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tasks;
  }

  /**
   * Writes {@code rows} with Parquet's own example writer in {@link #FILE_SCHEMA}'s column order,
   * and checks the footer really has no field ids: Iceberg's writers always write them.
   */
  private DataFile writeWithoutFieldIds(List<Record> rows) throws IOException {
    Path data = Path.of(java.net.URI.create(table.location())).resolve("data");
    Files.createDirectories(data);
    Path path = data.resolve("migrated-00000.parquet");
    SimpleGroupFactory groups = new SimpleGroupFactory(FILE_SCHEMA);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(path)).withType(FILE_SCHEMA).build()) {
      for (Record row : rows) {
        Group group = groups.newGroup().append("id", (Long) row.getField("id"));
        if (row.getField("b") != null) {
          group.append("b", (String) row.getField("b"));
        }
        if (row.getField("a") != null) {
          group.append("a", (String) row.getField("a"));
        }
        group.append("d", (int) ((LocalDate) row.getField("d")).toEpochDay());
        writer.write(group);
      }
    }
    try (ParquetFileReader footer = ParquetFileReader.open(new LocalInputFile(path))) {
      MessageType stored = footer.getFooter().getFileMetaData().getSchema();
      assertThat(ParquetSchemaUtil.hasIds(stored)).as("field ids in %s", path).isFalse();
      assertThat(stored.getFields())
          .extracting(f -> f.getName())
          .containsExactly("id", "b", "a", "d");
    }
    return DataFiles.builder(table.spec())
        .withPath(path.toUri().toString())
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(Files.size(path))
        .withRecordCount(rows.size())
        .build();
  }
}
