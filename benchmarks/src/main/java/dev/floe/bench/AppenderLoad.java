package dev.floe.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingDataWriter;
import org.apache.iceberg.util.PropertyUtil;

/**
 * A slice load in plain Java with Iceberg's own Parquet appender, the two limits of issue 15 goal
 * 1: {@code threads} threads each write their part of the day's rows through a {@link
 * RollingDataWriter} (Iceberg's generic Parquet writer, the table's properties: zstd and its target
 * file size), then the files replace the day in ONE {@code overwriteByRowFilter} commit. No Flink,
 * no checks, no content hash, no lineage: what the hardware and Iceberg's writer allow.
 *
 * <p>The threads are named like Flink task threads ({@code "name (i/n)#0"}) so that {@link
 * StackSampler} profiles them like a Flink job's tasks.
 */
final class AppenderLoad {

  /** Writes part {@code part} of {@code parts} of the slice's rows into {@code writer}. */
  @FunctionalInterface
  interface Rows {
    /**
     * @return rows written
     */
    long write(int part, int parts, RollingDataWriter<Record> writer) throws IOException;
  }

  private AppenderLoad() {}

  /**
   * Writes the rows with {@code threads} threads and commits them as one overwrite of {@code day}.
   *
   * @return rows written
   */
  static long run(String name, Table target, LocalDate day, int threads, Rows rows) {
    GenericFileWriterFactory factory =
        new GenericFileWriterFactory.Builder(target)
            .dataFileFormat(FileFormat.PARQUET)
            .writerProperties(target.properties())
            .build();
    long targetFileSize =
        PropertyUtil.propertyAsLong(
            target.properties(),
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    PartitionKey partition = partitionOf(target, day);
    AtomicInteger started = new AtomicInteger();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            threads,
            task ->
                new Thread(
                    task, String.format("%s (%d/%d)#0", name, started.incrementAndGet(), threads)));
    try {
      List<Future<Written>> futures = new ArrayList<>();
      for (int p = 0; p < threads; p++) {
        int part = p;
        Callable<Written> write =
            () -> {
              OutputFileFactory files =
                  OutputFileFactory.builderFor(target, part, 0).format(FileFormat.PARQUET).build();
              RollingDataWriter<Record> writer =
                  new RollingDataWriter<>(
                      factory, files, target.io(), targetFileSize, target.spec(), partition);
              long count;
              try (writer) {
                count = rows.write(part, threads, writer);
              }
              return new Written(writer.result().dataFiles(), count);
            };
        futures.add(pool.submit(write));
      }
      OverwriteFiles overwrite =
          target
              .newOverwrite()
              .overwriteByRowFilter(Expressions.equal("order_date", day.toString()));
      long total = 0;
      for (Future<Written> future : futures) {
        Written written = future.get();
        written.files().forEach(overwrite::addFile);
        total += written.rows();
      }
      overwrite.commit();
      return total;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while loading " + target.name(), e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw new UncheckedIOException("Cannot load " + target.name() + ": " + io.getMessage(), io);
      }
      throw new IllegalStateException("Cannot load " + target.name() + ": " + cause, cause);
    } finally {
      pool.shutdownNow();
    }
  }

  private record Written(List<DataFile> files, long rows) {}

  /** The target's partition for {@code day} (identity on order_date), from a row of that day. */
  private static PartitionKey partitionOf(Table target, LocalDate day) {
    GenericRecord row = GenericRecord.create(target.schema());
    row.setField("order_date", day);
    PartitionKey key = new PartitionKey(target.spec(), target.schema());
    key.partition(new InternalRecordWrapper(target.schema().asStruct()).wrap(row));
    return key;
  }
}
