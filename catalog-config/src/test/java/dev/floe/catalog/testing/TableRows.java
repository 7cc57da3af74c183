package dev.floe.catalog.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.parquet.Parquet;

/** Writes real rows into test tables: one Parquet data file, appended or handed over. */
public final class TableRows {

  private TableRows() {}

  /** A row of {@code table}'s current schema with the given column values, the rest null. */
  public static Record row(Table table, Map<String, Object> values) {
    GenericRecord record = GenericRecord.create(table.schema());
    values.forEach(record::setField);
    return record;
  }

  /** Appends {@code rows}, which must all fall into the same partition. */
  public static void append(Table table, Record... rows) {
    table.newAppend().appendFile(write(table, rows)).commit();
  }

  /**
   * Writes {@code rows} (all in one partition) into one Parquet data file of {@code table} without
   * committing it: the input of a committer under test.
   */
  public static DataFile write(Table table, Record... rows) {
    PartitionKey partition = null;
    // Not isPartitioned(): a v1 table's dropped field stays as a void transform and still needs
    // a partition tuple (of nulls).
    if (!table.spec().fields().isEmpty()) {
      partition = new PartitionKey(table.spec(), table.schema());
      // Partition transforms read Iceberg's internal values (days for dates, micros for times).
      partition.partition(new InternalRecordWrapper(table.schema().asStruct()).wrap(rows[0]));
    }
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 1, 1).format(FileFormat.PARQUET).build();
    // Parquet directly: the generic writer factories look up every file format, ORC included,
    // and iceberg-orc is not on this module's classpath.
    DataWriter<Record> writer;
    try {
      writer =
          Parquet.writeData(files.newOutputFile(table.spec(), partition))
              .forTable(table)
              .withSpec(table.spec())
              .withPartition(partition)
              .createWriterFunc(GenericParquetWriter::create)
              .build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try (writer) {
      for (Record row : rows) {
        writer.write(row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDataFile();
  }
}
