package dev.floe.flink.write;

import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.flink.sink.RowDataTaskWriterFactory;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Creates Iceberg data-file writers for Flink rows, with the table's file format and target file
 * size. Iceberg's Flink writer classes are public but not API-checked; their use stays here.
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
    FileFormat format =
        FileFormat.fromString(
            table.properties().getOrDefault(TableProperties.DEFAULT_FILE_FORMAT, "parquet"));
    long targetFileSize =
        PropertyUtil.propertyAsLong(
            table.properties(),
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    // No equality fields and no upsert: Floe writes plain data files whatever the table's key.
    RowDataTaskWriterFactory factory =
        new RowDataTaskWriterFactory(
            table, rowType, targetFileSize, format, table.properties(), List.of(), false);
    factory.initialize(taskId, attempt);
    return factory.create();
  }
}
