package dev.floe.flink.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.io.OutputFileFactory;

/** Equality deletes as another engine's merge-on-read writes them. */
public final class EqualityDeletes {
  private static int written;

  private EqualityDeletes() {}

  /**
   * An equality delete of {@code id} on the table's column {@code id} (field id 1), in the
   * partition {@code inPartition} lies in; not committed.
   */
  public static DeleteFile ofId(Table table, Record inPartition, long id) {
    Schema idOnly = table.schema().select("id");
    PartitionKey partition = new PartitionKey(table.spec(), table.schema());
    partition.partition(new InternalRecordWrapper(table.schema().asStruct()).wrap(inPartition));
    EqualityDeleteWriter<Record> writer =
        new GenericFileWriterFactory.Builder(table)
            .equalityFieldIds(new int[] {table.schema().findField("id").fieldId()})
            .equalityDeleteRowSchema(idOnly)
            .build()
            .newEqualityDeleteWriter(
                OutputFileFactory.builderFor(table, 901, ++written)
                    .format(FileFormat.PARQUET)
                    .build()
                    .newOutputFile(table.spec(), partition),
                table.spec(),
                partition);
    try (writer) {
      Record key = GenericRecord.create(idOnly);
      key.setField("id", id);
      writer.write(key);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDeleteFile();
  }
}
