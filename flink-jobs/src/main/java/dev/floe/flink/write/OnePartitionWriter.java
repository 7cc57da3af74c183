package dev.floe.flink.write;

import java.io.IOException;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.RowDataWrapper;
import org.apache.iceberg.flink.sink.FlinkFileWriterFactory;
import org.apache.iceberg.io.BaseTaskWriter;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * Writes rows that all belong to one partition of a partitioned table: the partition is read from
 * the first row, and every later row goes to the same rolling file without computing its partition
 * key and looking up its writer, as Iceberg's fanout writer does per row. Only for rows the caller
 * has already confined to one partition (a slice that {@linkplain
 * dev.floe.catalog.slice.Slice#fitsOnePartition fits one partition}, every row guarded to lie in
 * it).
 */
final class OnePartitionWriter extends BaseTaskWriter<RowData> {
  private final PartitionKey key;
  private final RowDataWrapper wrapper;
  private RollingFileWriter current;

  /**
   * @param table the target (schema, spec, IO, properties)
   * @param rowType the rows' type, in the table's column order
   * @param format the data file format
   * @param targetFileSize the size at which a file is rolled over
   * @param files names the data files
   */
  OnePartitionWriter(
      Table table,
      RowType rowType,
      FileFormat format,
      long targetFileSize,
      OutputFileFactory files) {
    // The file writer factory Iceberg's fanout writer is built on (RowDataTaskWriterFactory,
    // Iceberg 1.11), with the same settings: the same files, encrypted the same way.
    super(
        table.spec(),
        format,
        new FlinkFileWriterFactory.Builder(table)
            .dataFileFormat(format)
            .dataSchema(table.schema())
            .dataFlinkType(rowType)
            .writerProperties(table.properties())
            .build(),
        files,
        table.io(),
        targetFileSize);
    this.key = new PartitionKey(table.spec(), table.schema());
    this.wrapper = new RowDataWrapper(rowType, table.schema().asStruct());
  }

  @Override
  public void write(RowData row) throws IOException {
    if (current == null) {
      key.partition(wrapper.wrap(row));
      current = new RollingFileWriter(key.copy());
    }
    current.write(row);
  }

  @Override
  public void close() throws IOException {
    if (current != null) {
      current.close();
      current = null;
    }
  }
}
