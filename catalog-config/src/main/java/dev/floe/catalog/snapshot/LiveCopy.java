package dev.floe.catalog.snapshot;

import dev.floe.catalog.error.CheckFailedException;
import dev.floe.catalog.lineage.StoredRows;
import dev.floe.catalog.lineage.StoredStrings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * Writes the rows of a data file that were live at an older snapshot (its delete files of then
 * applied) into a new data file, values exactly as stored. A revert re-adds such a copy instead of
 * the old file: a re-added file gets a new sequence number, and the equality deletes and position
 * deletes of then would no longer apply to it (their rows would come back).
 */
final class LiveCopy {
  private final Table table;
  private final String operationId;
  private final Map<FileFormat, OutputFileFactory> files = new EnumMap<>(FileFormat.class);
  private final Map<FileFormat, GenericFileWriterFactory> writers = new EnumMap<>(FileFormat.class);

  /**
   * @param operationId part of every file name (the revert's run id), so names never collide
   */
  LiveCopy(Table table, String operationId) {
    this.table = table;
    this.operationId = operationId;
  }

  /**
   * A new data file holding the live rows of {@code file} under {@code deletes}, in the file's own
   * format: the values read back as they did (ORC cannot store every timestamp a Parquet file
   * holds, {@link dev.floe.catalog.lineage.OrcTimestamps}).
   */
  DataFile copy(DataFile file, List<DeleteFile> deletes) {
    PartitionSpec spec = table.specs().get(file.specId());
    FileFormat format = file.format();
    OutputFileFactory names =
        files.computeIfAbsent(
            format,
            f ->
                OutputFileFactory.builderFor(table, 0, 0)
                    .operationId(operationId)
                    .format(f)
                    .build());
    GenericFileWriterFactory factory =
        writers.computeIfAbsent(
            format,
            f ->
                new GenericFileWriterFactory.Builder(table)
                    .dataFileFormat(f)
                    .dataSchema(StoredRows.schema(table))
                    .writerProperties(table.properties())
                    .build());
    EncryptedOutputFile output = names.newOutputFile(spec, file.partition());
    DataWriter<Record> writer = factory.newDataWriter(output, spec, file.partition());
    StoredStrings.RewriteCheck strings =
        StoredStrings.rewriteCheck(table, file, StoredRows.schema(table).asStruct());
    try (writer;
        CloseableIterable<Record> rows =
            StoredRows.read(table, spec, file, deletes, new AtomicLong())) {
      for (Record row : rows) {
        String refusal = strings.refusal(row);
        if (refusal != null) {
          throw new CheckFailedException(
              "Cannot copy the live rows of a data file of " + table.name() + ": " + refusal);
        }
        writer.write(row);
      }
    } catch (IOException | RuntimeException e) {
      // The copy is in no list the caller deletes from until it is returned.
      table.io().deleteFile(output.encryptingOutputFile().location());
      if (e instanceof RuntimeException failure) {
        throw failure;
      }
      throw new UncheckedIOException(
          "Cannot copy the live rows of " + file.location(), (IOException) e);
    }
    return writer.toDataFile();
  }
}
