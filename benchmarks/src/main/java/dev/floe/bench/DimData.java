package dev.floe.bench;

import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.RecordHasher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * Fills the merge target and the staging batch by writing Parquet files directly with Iceberg's
 * generic writer (as {@link StagingData} does, for the same reasons), and computes on the way the
 * content hash a correct merge must leave: every target row, with the updated keys in their new
 * version, plus the new keys.
 */
final class DimData {

  /**
   * @param files the target's data files
   * @param bytes their total size
   * @param merged the content hash of the target after merging the batch
   * @param batch the content hash of the staging rows (what a merge records as its lineage)
   */
  record Written(int files, long bytes, ContentHash merged, ContentHash batch) {}

  private DimData() {}

  /**
   * Writes the target's days on {@code threads} threads, each day in files of at most {@code
   * rowsPerFile} rows (0: one file), appends them in one commit, then writes the staging batch.
   */
  static Written write(Table dim, Table staging, DimRows rows, long rowsPerFile, int threads) {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Part>> parts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        parts.add(pool.submit(() -> writeDays(dim, rows, rowsPerFile, thread, threads)));
      }
      AppendFiles append = dim.newAppend();
      ContentHash merged = ContentHash.empty();
      int files = 0;
      long bytes = 0;
      for (Future<Part> part : parts) {
        Part written = part.get();
        for (DataFile file : written.files()) {
          append.appendFile(file);
          files++;
          bytes += file.fileSizeInBytes();
        }
        merged.merge(written.merged());
      }
      append.commit();
      ContentHash batch = writeBatch(staging, rows, merged);
      return new Written(files, bytes, merged, batch);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while writing " + dim.name(), e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("Cannot write " + dim.name(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  private record Part(List<DataFile> files, ContentHash merged) {}

  /**
   * Days {@code thread, thread + threads, ...}. Clustered: a day's rows in ascending id order, a
   * new file every {@code rowsPerFile} rows. Random: each row into one of the day's files by a
   * hash, so every file holds ids from the whole range (ascending within the file).
   */
  private static Part writeDays(
      Table dim, DimRows rows, long rowsPerFile, int thread, int threads) {
    RecordHasher hasher = new RecordHasher(dim.schema());
    ContentHash merged = ContentHash.empty();
    List<DataFile> files = new ArrayList<>();
    // Reused records: the Parquet writer copies values into its column buffers.
    GenericRecord record = GenericRecord.create(dim.schema());
    GenericRecord update = GenericRecord.create(dim.schema());
    boolean random = rows.layout() == Layout.RANDOM;
    int slots = random ? Layout.randomFilesPerDay(rows.rows(), rows.days(), rowsPerFile) : 1;
    for (int day = thread; day < rows.days(); day += threads) {
      DayWriter[] writers = new DayWriter[slots];
      for (int slot = 0; slot < slots; slot++) {
        writers[slot] = new DayWriter(dim, day, slot, random ? 0 : rowsPerFile, files);
      }
      try {
        long from = 0;
        long to = rows.rows();
        if (!random) {
          from = Layout.firstIndexOfDay(day, rows.rows(), rows.days());
          to = Layout.firstIndexOfDay(day + 1, rows.rows(), rows.days());
        }
        for (long i = from; i < to; i++) {
          if (rows.day(i) != day) {
            continue; // random layout: another thread's or another pass's day
          }
          rows.fill(record, i, 1);
          writers[slots == 1 ? 0 : Layout.randomFile(i, slots)].write(record);
          if (rows.isUpdated(i)) {
            rows.fill(update, i, 2);
            hasher.add(update, merged);
          } else {
            hasher.add(record, merged);
          }
        }
      } finally {
        for (DayWriter writer : writers) {
          writer.close();
        }
      }
    }
    return new Part(files, merged);
  }

  /** The batch: the updates (version 2), then the new keys (version 1), in one file. */
  private static ContentHash writeBatch(Table staging, DimRows rows, ContentHash merged) {
    RecordHasher hasher = new RecordHasher(staging.schema());
    ContentHash batch = ContentHash.empty();
    GenericRecord record = GenericRecord.create(staging.schema());
    DataWriter<Record> writer =
        new GenericFileWriterFactory.Builder(staging)
            .dataFileFormat(FileFormat.PARQUET)
            .writerProperties(staging.properties())
            .build()
            .newDataWriter(
                OutputFileFactory.builderFor(staging, 0, 0)
                    .format(FileFormat.PARQUET)
                    .build()
                    .newOutputFile(),
                staging.spec(),
                null);
    try (writer) {
      for (long i : rows.updatedIndexes()) {
        rows.fill(record, i, 2);
        writer.write(record);
        hasher.add(record, batch);
      }
      for (long i = rows.rows(); i < rows.rowsAfterMerge(); i++) {
        rows.fill(record, i, 1);
        writer.write(record);
        hasher.add(record, batch);
        hasher.add(record, merged);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + staging.name(), e);
    }
    staging.newAppend().appendFile(writer.toDataFile()).commit();
    return batch;
  }

  /** Files of one day, one at a time: a new file every {@code rowsPerFile} rows (0: never). */
  private static final class DayWriter implements AutoCloseable {
    private final Table table;
    private final long rowsPerFile;
    private final List<DataFile> files;
    private final OutputFileFactory names;
    private final GenericFileWriterFactory factory;
    private PartitionKey partition;
    private DataWriter<Record> current;
    private long rowsInFile;

    /**
     * @param slot which of the day's writers this is (random layout), 0 otherwise
     */
    DayWriter(Table table, int day, int slot, long rowsPerFile, List<DataFile> files) {
      this.table = table;
      this.rowsPerFile = rowsPerFile;
      this.files = files;
      // Partition id = day, task id = slot: file names are unique across threads and writers.
      this.names =
          OutputFileFactory.builderFor(table, day, slot).format(FileFormat.PARQUET).build();
      this.factory =
          new GenericFileWriterFactory.Builder(table)
              .dataFileFormat(FileFormat.PARQUET)
              .writerProperties(table.properties()) // zstd
              .build();
    }

    void write(Record record) {
      if (current != null && rowsPerFile > 0 && rowsInFile >= rowsPerFile) {
        close();
      }
      if (current == null) {
        if (partition == null) {
          partition = new PartitionKey(table.spec(), table.schema());
          // Partition transforms read Iceberg's internal values (days for dates).
          partition.partition(new InternalRecordWrapper(table.schema().asStruct()).wrap(record));
        }
        current =
            factory.newDataWriter(
                names.newOutputFile(table.spec(), partition), table.spec(), partition);
        rowsInFile = 0;
      }
      current.write(record);
      rowsInFile++;
    }

    @Override
    public void close() {
      if (current == null) {
        return;
      }
      try {
        current.close();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot write a data file of " + table.name(), e);
      }
      files.add(current.toDataFile());
      current = null;
    }
  }
}
