package dev.floe.bench;

import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.RecordHasher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.DataWriter;

/**
 * Fills the staging table with orders by writing Parquet files directly with Iceberg's generic
 * writer, appended in one commit: one day in one file per thread (write path), or many days in one
 * file each (backfill).
 *
 * <p>Why not Flink SQL over the {@code datagen} connector: the data would need a unique {@code
 * order_id}, and datagen's {@code sequence} kind materialises every value of a subtask in a {@code
 * Deque} (10 M boxed longs) before emitting; on top of that a Flink job adds its own start-up and
 * row conversion. Writing directly costs about as much as writing Parquet does, is deterministic
 * (same rows every time), and lets us compute the expected content hash on the way, with the same
 * {@link RecordHasher} that {@code floe verify} uses and independently of Floe's Flink writer.
 */
final class StagingData {
  /** Distinct customers: enough to defeat Parquet's dictionary for that column, like real data. */
  private static final long CUSTOMERS = 1_000_000;

  /** Amounts up to 9 999.99 (unscaled cents), within decimal(10,2). */
  private static final long MAX_CENTS = 1_000_000;

  private StagingData() {}

  /**
   * Writes {@code rows} orders dated {@code day} in {@code files} files of near-equal size.
   *
   * @return the content hash of all rows written (what a correct load of the day must produce)
   */
  static ContentHash write(Table staging, long rows, LocalDate day, int files) {
    List<Callable<Part>> tasks = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      long from = rows * f / files;
      long to = rows * (f + 1) / files;
      int index = f;
      tasks.add(() -> writePart(staging, index, from, to, day));
    }
    ContentHash hash = ContentHash.empty();
    appendAll(staging, tasks, files).forEach(part -> hash.merge(part.hash()));
    return hash;
  }

  /**
   * Writes {@code days} days of {@code rowsPerDay} orders each, one file per day (what a backfill
   * of many small slices reads: one file per slice), appended in one commit. Order ids are unique
   * across days: day {@code d} holds ids {@code d * rowsPerDay + 1} to {@code (d + 1) *
   * rowsPerDay}.
   *
   * @param threads files written at once
   * @return each day's content hash, oldest day first
   */
  static List<ContentHash> writeDays(
      Table staging, LocalDate first, int days, long rowsPerDay, int threads) {
    List<Callable<Part>> tasks = new ArrayList<>();
    for (int d = 0; d < days; d++) {
      long from = Math.multiplyExact(rowsPerDay, d);
      LocalDate day = first.plusDays(d);
      int index = d;
      tasks.add(() -> writePart(staging, index, from, from + rowsPerDay, day));
    }
    return appendAll(staging, tasks, threads).stream().map(Part::hash).toList();
  }

  /** Runs the writers on {@code threads} threads and appends their files in one commit. */
  private static List<Part> appendAll(Table staging, List<Callable<Part>> tasks, int threads) {
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
    try {
      List<Future<Part>> futures = new ArrayList<>();
      tasks.forEach(task -> futures.add(pool.submit(task)));
      AppendFiles append = staging.newAppend();
      List<Part> parts = new ArrayList<>();
      for (Future<Part> future : futures) {
        Part written = future.get();
        append.appendFile(written.file());
        parts.add(written);
      }
      append.commit();
      return parts;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while writing " + staging.name(), e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("Cannot write " + staging.name(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  private record Part(DataFile file, ContentHash hash) {}

  /** Rows {@code [from, to)}: order_id is {@code i + 1}, so ids are unique across parts. */
  private static Part writePart(Table staging, int index, long from, long to, LocalDate day) {
    String name = String.format("staging-%05d.parquet", index);
    RecordHasher hasher = new RecordHasher(staging.schema());
    ContentHash hash = ContentHash.empty();
    // One reused record: the Parquet writer copies values into its column buffers.
    GenericRecord record = GenericRecord.create(staging.schema());
    DataWriter<Record> writer =
        new GenericFileWriterFactory.Builder(staging)
            .dataFileFormat(FileFormat.PARQUET)
            .writerProperties(staging.properties()) // zstd, like the targets
            .build()
            .newDataWriter(
                staging
                    .encryption()
                    .encrypt(
                        staging
                            .io()
                            .newOutputFile(staging.locationProvider().newDataLocation(name))),
                staging.spec(),
                null);
    try (writer) {
      for (long i = from; i < to; i++) {
        fill(record, i, day);
        writer.write(record);
        hasher.add(record, hash);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + name, e);
    }
    return new Part(writer.toDataFile(), hash);
  }

  /**
   * Sets {@code record} to order {@code i} of {@code day}: order_id {@code i + 1}, a pseudo-random
   * customer and amount. The same {@code i} always gives the same row (the raw-appender baseline
   * generates the staging rows again from memory with this).
   */
  static void fill(GenericRecord record, long i, LocalDate day) {
    long mixed = mix(i);
    record.set(0, i + 1);
    record.set(1, 1 + Long.remainderUnsigned(mixed, CUSTOMERS));
    record.set(2, BigDecimal.valueOf(Long.remainderUnsigned(mixed >>> 20, MAX_CENTS), 2));
    record.set(3, day);
  }

  /** SplitMix64's finaliser: cheap, deterministic, well-spread values from a counter. */
  static long mix(long i) {
    long z = i * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
