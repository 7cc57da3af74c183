package dev.floe.flink.maintain;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * Writes one group's rows into files of the target size, never more files than its plan expects
 * ({@link RewriteGroup#expectedOutputs()}), named by {@link OutputFiles#factory} in order (so a
 * failed job's files can be found again).
 *
 * <p>As Iceberg's rolling writer, it closes a file once the writer's size estimate reaches the
 * target (checked every {@value #CHECK_EVERY} rows), but never before the file holds an equal share
 * of the inputs' rows for the expected count (so it holds at least {@value #CHECK_EVERY} rows). The
 * estimate counts the row group still being written before compression, so with a target of a few
 * megabytes or less, on compressible rows, it closed files far below the target: a compaction wrote
 * as many files as it read, or more, and was planned again forever. With the share as a floor a
 * rewrite writes at most the files its plan announced (fewer when its rows compress better than the
 * inputs did, or when deletes drop rows), and a binpack group of small files always ends with fewer
 * files than it read.
 */
final class GroupFileWriter implements Closeable {
  /** How often the size estimate is checked, as Iceberg's rolling writer does. */
  static final int CHECK_EVERY = 1000;

  private final GenericFileWriterFactory writers;
  private final OutputFileFactory files;
  private final PartitionSpec spec;
  private final RewriteGroup group;
  private final long targetBytes;
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
    this.share = rowsPerFile(group.stats().rows(), group.expectedOutputs());
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
    if (rowsInCurrent % CHECK_EVERY == 0
        && rowsInCurrent >= share
        && current.length() >= targetBytes) {
      closeCurrent();
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
