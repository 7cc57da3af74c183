package dev.floe.catalog.lineage;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.BaseFileScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.ResidualEvaluator;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Reads one data file's rows as Iceberg generic {@link Record}s, exactly as stored (a {@code time}
 * keeps its microseconds, a uuid its 16 bytes), with its delete files applied: position deletes,
 * equality deletes and deletion vectors, through Iceberg's own {@link GenericDeleteFilter}. This is
 * what {@code IcebergGenerics} does for a table scan, for one chosen file: compaction rewrites
 * files with it, and a revert re-creates a data file as it was read at an older snapshot. A file
 * without field ids (added by a migration) is read through the table's name mapping ({@link
 * DataFileReaders}), so its columns are matched by name, never by position.
 *
 * <p>On a table with row lineage (format version 3) the records also carry {@code _row_id} and
 * {@code _last_updated_sequence_number} after the table's columns ({@link #schema}), so a rewrite
 * writes them into the new files and every row keeps its identity.
 */
public final class StoredRows {

  private StoredRows() {}

  /**
   * The schema of the records read and written: the table's columns, then on a table with row
   * lineage the two lineage columns. The table's columns always come first, in order, so a hasher
   * over the table schema reads a record by position.
   */
  public static Schema schema(Table table) {
    return TableUtil.supportsRowLineage(table)
        ? MetadataColumns.schemaWithRowLineage(table.schema())
        : table.schema();
  }

  /**
   * The live rows of {@code file} (after {@code deletes}), each a fresh record of {@link
   * #schema(Table)}.
   *
   * @param rowsInFile counts every row of the file, deleted or not, to compare with its metadata
   */
  public static CloseableIterable<Record> read(
      Table table,
      PartitionSpec spec,
      DataFile file,
      List<DeleteFile> deletes,
      AtomicLong rowsInFile) {
    return read(table, spec, file, deletes, rowsInFile, false);
  }

  /**
   * How many rows of {@code file} its {@code deletes} leave; its record count when it has no
   * deletes, or when it cannot be read with them (an equality delete on a column dropped since, a
   * missing file): such counts are information for an operator, and must never stop the operation
   * (a rollback, a revert) that repairs such a table.
   */
  public static long liveRowCount(
      Table table, PartitionSpec spec, DataFile file, List<DeleteFile> deletes) {
    if (deletes.isEmpty()) {
      return file.recordCount();
    }
    long live = 0;
    try (CloseableIterable<Record> records = read(table, spec, file, deletes, new AtomicLong())) {
      for (Record ignored : records) {
        live++;
      }
    } catch (IOException | RuntimeException e) {
      return file.recordCount();
    }
    return live;
  }

  /**
   * The rows of a data file this process just wrote (not committed: it has no first row id nor
   * sequence number yet), each with the row lineage values stored in it. Iceberg's reader returns
   * null lineage for a file without a first row id; here any stored value is read as it is (and a
   * missing one comes out as a made-up value, so it never compares equal to a null that was read).
   */
  public static CloseableIterable<Record> readWritten(
      Table table, PartitionSpec spec, DataFile file, AtomicLong rows) {
    return read(table, spec, file, List.of(), rows, true);
  }

  private static CloseableIterable<Record> read(
      Table table,
      PartitionSpec spec,
      DataFile file,
      List<DeleteFile> deletes,
      AtomicLong rowsInFile,
      boolean uncommitted) {
    Schema projection = schema(table);
    FileScanTask task =
        new BaseFileScanTask(
            file,
            deletes.toArray(new DeleteFile[0]),
            SchemaParser.toJson(table.schema()),
            PartitionSpecParser.toJson(spec),
            ResidualEvaluator.unpartitioned(Expressions.alwaysTrue()));
    DeleteFilter<Record> filter =
        new GenericDeleteFilter(table.io(), task, table.schema(), projection);
    Schema required = filter.requiredSchema();
    Map<Integer, Object> constants = new HashMap<>(DataFileReaders.partitionConstants(task));
    if (uncommitted) {
      constants.putIfAbsent(MetadataColumns.ROW_ID.fieldId(), 0L);
      constants.putIfAbsent(MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.fieldId(), 0L);
    }
    CloseableIterable<Record> raw =
        DataFileReaders.readBuilder(table, file).project(required).idToConstant(constants).build();
    CloseableIterable<Record> counted =
        CloseableIterable.transform(
            raw,
            r -> {
              rowsInFile.incrementAndGet();
              return r;
            });
    CloseableIterable<Record> live = filter.filter(counted);
    if (required.columns().size() == projection.columns().size()) {
      return live;
    }
    // The filter read extra columns (an equality delete's key, the row position): drop them.
    return CloseableIterable.transform(live, r -> trim(r, projection));
  }

  private static Record trim(Record record, Schema projection) {
    GenericRecord trimmed = GenericRecord.create(projection);
    for (int i = 0; i < projection.columns().size(); i++) {
      trimmed.set(i, record.get(i));
    }
    return trimmed;
  }
}
