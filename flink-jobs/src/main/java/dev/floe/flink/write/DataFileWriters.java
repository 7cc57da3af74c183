package dev.floe.flink.write;

import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.sink.RowDataTaskWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Creates Iceberg data-file writers for Flink rows, with the table's file format and target file
 * size; the writers refuse values the files cannot hold exactly ({@link ValueGuard}). Iceberg's
 * Flink writer classes are public but not API-checked; their use stays here.
 */
public final class DataFileWriters {

  private DataFileWriters() {}

  /**
   * @param table the target (schema, spec, location, IO, properties)
   * @param rowType the rows' type, in the table's column order
   * @param taskId distinguishes the file names of parallel writers
   * @param attempt distinguishes the file names of retried writers
   */
  public static TaskWriter<RowData> create(Table table, RowType rowType, int taskId, int attempt) {
    FileFormat format = format(table);
    long targetFileSize = targetFileSize(table);
    // No equality fields and no upsert: Floe writes plain data files whatever the table's key.
    RowDataTaskWriterFactory factory =
        new RowDataTaskWriterFactory(
            table, rowType, targetFileSize, format, table.properties(), List.of(), false);
    factory.initialize(taskId, attempt);
    return ValueGuard.wrap(table, rowType, factory.create());
  }

  /**
   * A writer of rows of {@code schema}: the table's columns, in order, then the row lineage columns
   * on a table with row lineage ({@link dev.floe.catalog.lineage.StoredRows#schema}), whose values
   * are written as given (a null one is assigned on commit). Otherwise as {@link #create(Table,
   * RowType, int, int)}.
   *
   * @param table the target (spec, location, IO, properties)
   * @param schema the rows' schema
   * @param taskId distinguishes the file names of parallel writers
   * @param attempt distinguishes the file names of retried writers
   */
  public static TaskWriter<RowData> create(Table table, Schema schema, int taskId, int attempt) {
    RowType rowType = FlinkSchemaUtil.convert(schema);
    RowDataTaskWriterFactory factory =
        new RowDataTaskWriterFactory(
            () -> table,
            rowType,
            targetFileSize(table),
            format(table),
            table.properties(),
            List.of(),
            false,
            schema,
            table.spec());
    factory.initialize(taskId, attempt);
    return ValueGuard.wrap(table, rowType, factory.create());
  }

  /**
   * A writer for rows that all belong to one partition (see {@link OnePartitionWriter}): the same
   * files as {@link #create}, without a partition key computed per row. On an unpartitioned table
   * it is {@link #create}'s writer.
   *
   * @param table the target (schema, spec, location, IO, properties)
   * @param rowType the rows' type, in the table's column order
   * @param taskId distinguishes the file names of parallel writers
   * @param attempt distinguishes the file names of retried writers
   */
  public static TaskWriter<RowData> forOnePartition(
      Table table, RowType rowType, int taskId, int attempt) {
    if (table.spec().isUnpartitioned()) {
      return create(table, rowType, taskId, attempt);
    }
    FileFormat format = format(table);
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, taskId, attempt)
            .format(format)
            .ioSupplier(table::io)
            .defaultSpec(table.spec())
            .build();
    return ValueGuard.wrap(
        table,
        rowType,
        new OnePartitionWriter(table, rowType, format, targetFileSize(table), files));
  }

  private static FileFormat format(Table table) {
    return FileFormat.fromString(
        table.properties().getOrDefault(TableProperties.DEFAULT_FILE_FORMAT, "parquet"));
  }

  private static long targetFileSize(Table table) {
    return PropertyUtil.propertyAsLong(
        table.properties(),
        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
  }
}
