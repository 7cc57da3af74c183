package dev.floe.flink.maintain;

import dev.floe.catalog.lineage.StoredRows;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Writes one group's rows into files of at most about twice the target size, no more files than its
 * plan expects ({@link RewriteGroup#expectedOutputs()}) unless they would grow far past the target,
 * named by {@link OutputFiles#factory} in order (so a failed job's files can be found again).
 *
 * <p>As Iceberg's rolling writer, it closes a file once the writer's size estimate reaches the
 * target (checked every {@value #CHECK_EVERY} rows), but not before the file holds an equal share
 * of the inputs' rows for the expected count. The estimate counts what the writer still buffers
 * (each column's open page and dictionary) before compression, so with a target of a few megabytes
 * or less, on compressible rows, it closed files far below the target: a compaction wrote as many
 * files as it read, or more, and was planned again forever. With the share as a floor a rewrite
 * writes at most the files its plan announced (fewer when its rows compress better than the inputs
 * did, or when deletes drop rows), and a binpack group of small files ends with fewer files than it
 * read. A file whose estimate passes the {@link #ceiling} is closed before its share: its rows take
 * much more room than the inputs' did (a codec that compresses less, large rows sorted together),
 * and more files than expected are then the right answer.
 */
final class GroupFileWriter implements Closeable {
  /** How often the size estimate is checked, as Iceberg's rolling writer does. */
  static final int CHECK_EVERY = 1000;

  private final GenericFileWriterFactory writers;
  private final OutputFileFactory files;
  private final PartitionSpec spec;
  private final RewriteGroup group;
  private final long targetBytes;
  private final long ceiling;
  private final long share;
  private final List<DataFile> written = new ArrayList<>();
  private DataWriter<Record> current;
  private long rowsInCurrent;

  GroupFileWriter(
      Table table, GenericFileWriterFactory writers, RewriteGroup group, long targetBytes) {
    this.writers = writers;
    this.files = OutputFiles.factory(table, group);
    this.spec = table.specs().get(group.specId());
    this.group = group;
    this.targetBytes = targetBytes;
    this.ceiling = ceiling(table, targetBytes);
    this.share = rowsPerFile(group.stats().rows(), group.expectedOutputs());
  }

  /**
   * The estimate at which a file closes whatever its rows: twice the target, or the target plus
   * what the estimate may count uncompressed (a page and a dictionary per column) when that is
   * more, so that the estimate's own excess never closes a file early.
   */
  static long ceiling(Table table, long targetBytes) {
    long columns =
        TypeUtil.indexById(StoredRows.schema(table).asStruct()).values().stream()
            .filter(field -> field.type().isPrimitiveType())
            .count();
    long buffered =
        PropertyUtil.propertyAsLong(
                table.properties(),
                TableProperties.PARQUET_PAGE_SIZE_BYTES,
                TableProperties.PARQUET_PAGE_SIZE_BYTES_DEFAULT)
            + PropertyUtil.propertyAsLong(
                table.properties(),
                TableProperties.PARQUET_DICT_SIZE_BYTES,
                TableProperties.PARQUET_DICT_SIZE_BYTES_DEFAULT);
    return Math.max(
        targetBytes > Long.MAX_VALUE / 4 ? Long.MAX_VALUE / 2 : 2 * targetBytes,
        targetBytes + Math.max(1, columns) * Math.max(0, buffered));
  }

  /**
   * The rows each of {@code files} files holds for {@code rows} rows to fill exactly that many (the
   * last holds the rest): at least 1.
   */
  static long rowsPerFile(long rows, int files) {
    long perFile = (rows + Math.max(1, files) - 1) / Math.max(1, files);
    return Math.max(1, perFile);
  }

  void write(Record row) {
    if (current == null) {
      current =
          writers.newDataWriter(
              files.newOutputFile(spec, group.partition()), spec, group.partition());
      rowsInCurrent = 0;
    }
    current.write(row);
    rowsInCurrent++;
    if (rowsInCurrent % CHECK_EVERY == 0) {
      long estimate = current.length();
      if (estimate >= ceiling || rowsInCurrent >= share && estimate >= targetBytes) {
        closeCurrent();
      }
    }
  }

  private void closeCurrent() {
    DataWriter<Record> closing = current;
    current = null;
    try {
      closing.close();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot close an output file of compaction group " + group.index(), e);
    }
    written.add(closing.toDataFile());
  }

  /** The files written and closed so far (all of them once {@link #close()} returned). */
  List<DataFile> dataFiles() {
    return List.copyOf(written);
  }

  @Override
  public void close() {
    if (current != null) {
      closeCurrent();
    }
  }
}
