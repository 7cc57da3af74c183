package dev.floe.flink.check;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Finds the 64-bit key hashes added more than once. Each hash goes to one of 256 partitions by its
 * most significant byte, an array of its own that grows as needed. When the arrays fill the memory
 * given, each partition is sorted ({@link HashSort#sortSharingTopByte}) and compacted to at most
 * two copies of each hash (two are all the report needs), and the partitions are written to local
 * disk, in order, as one sorted run only when compacting freed less than a quarter of the memory;
 * then they fill again. At the end each partition is sorted and scanned for neighbours that are
 * equal, merged with the runs when there are any, so a duplicate is found whether both copies were
 * in memory together or lie in different runs. Exact for any number of hashes.
 *
 * <p>Memory stays within the limit: the arrays, and the copy of the one partition that grows, never
 * hold more than {@code memoryBytes / 8} hashes together. Since only one partition (about 1/256 of
 * the hashes, for uniform hashes) is copied at a time, nearly all of the memory holds hashes; a
 * single array would keep half of it free for its own copy while it grows. Sorting a partition
 * touches a few hundred KiB, which stay in the cache, and two copies of a hash always share a
 * partition, so finding them needs no merge. Many copies of few keys never spill while two copies
 * of each fit. Disk takes at most 16 bytes a distinct hash a run.
 *
 * <p>Not thread-safe. {@link #close} deletes the runs.
 */
public final class DuplicateHashFinder implements AutoCloseable {

  /** Receives each duplicated hash once, in ascending unsigned order. */
  @FunctionalInterface
  public interface Duplicates {
    void accept(long hash);
  }

  /** Bytes a hash takes in memory: one long. */
  static final int BYTES_PER_HASH = 8;

  /**
   * Hashes the arrays hold at least (128 bytes), copies while growing included: room for two copies
   * of three keys of one partition after compaction, so a budget too small to be useful still does
   * not spill a run per copy.
   */
  static final int MIN_CAPACITY = 16;

  /** The partitions, by a hash's most significant byte, so in ascending unsigned order. */
  private static final int PARTITIONS = 256;

  private static final int PARTITION_SHIFT = 56;

  /** Hashes of a partition's first array. */
  private static final int INITIAL_HASHES = 2;

  /** Longs a run is written and read with at a time (64 KiB). */
  private static final int IO_LONGS = 1 << 13;

  private final Path spillDirectory;
  private final int capacity;
  private final List<Path> runs = new ArrayList<>();
  private final long[][] partitions = new long[PARTITIONS][];
  private final int[] sizes = new int[PARTITIONS];

  /** The longs of every partition's array, which may not exceed the capacity. */
  private long allocated;

  /** The most longs held at once, a partition's copy while it grows included. */
  private long peakAllocated;

  /** The hashes held in memory. */
  private long size;

  /**
   * @param memoryBytes memory for the hashes in memory; past it, hashes spill to sorted runs
   * @param spillDirectory where runs are written (created files are deleted by {@link #close})
   */
  public DuplicateHashFinder(long memoryBytes, Path spillDirectory) {
    this.capacity = capacityFor(memoryBytes);
    this.spillDirectory = spillDirectory;
  }

  /**
   * The number of longs {@code bytes} of memory hold, for the hashes and the copy of the partition
   * that grows: 8 bytes each, at most 2^30, and at least {@link #MIN_CAPACITY} whatever smaller
   * budget is given.
   */
  static int capacityFor(long bytes) {
    return (int) Math.max(MIN_CAPACITY, Math.min(1 << 30, bytes / BYTES_PER_HASH));
  }

  public void add(long hash) {
    int partition = (int) (hash >>> PARTITION_SHIFT);
    if (!hasRoom(partition)) {
      compact();
      if (size > capacity - capacity / 4 || !hasRoom(partition)) {
        spill();
        if (!hasRoom(partition)) {
          throw new IllegalStateException(
              "Cannot find duplicate key hashes: no room for one hash in " + capacity + " longs");
        }
      }
    }
    partitions[partition][sizes[partition]++] = hash;
    size++;
  }

  /** The number of sorted runs written to disk so far. */
  public int spilledRuns() {
    return runs.size();
  }

  /** The most bytes the hashes took in memory at once, copies while growing included. */
  long peakMemoryBytes() {
    return peakAllocated * BYTES_PER_HASH;
  }

  /** Calls {@code out} for every hash added more than once, once each, in ascending order. */
  public void finish(Duplicates out) {
    for (int p = 0; p < PARTITIONS; p++) {
      if (sizes[p] > 0) {
        HashSort.sortSharingTopByte(partitions[p], sizes[p]);
      }
    }
    if (runs.isEmpty()) {
      scan(out);
      release();
      return;
    }
    List<Cursor> cursors = new ArrayList<>();
    try {
      cursors.add(new PartitionsCursor());
      for (Path run : runs) {
        cursors.add(new RunCursor(run));
      }
      merge(cursors, out);
    } finally {
      for (Cursor cursor : cursors) {
        cursor.close();
      }
      release();
    }
  }

  /** Reports the hashes that occur more than once in the sorted partitions, which are all. */
  private void scan(Duplicates out) {
    for (int p = 0; p < PARTITIONS; p++) {
      long[] hashes = partitions[p];
      int end = sizes[p];
      for (int i = 0; i < end; ) {
        long hash = hashes[i];
        int next = i + 1;
        while (next < end && hashes[next] == hash) {
          next++;
        }
        if (next - i > 1) {
          out.accept(hash);
        }
        i = next;
      }
    }
  }

  /**
   * True when {@code partition} can take one more hash, growing its array if the memory allows: to
   * twice its length while the arrays take at most half of the memory, by a quarter past that, so
   * that partitions growing one after another leave little of it unused.
   */
  private boolean hasRoom(int partition) {
    long[] hashes = partitions[partition];
    int length = hashes == null ? 0 : hashes.length;
    if (sizes[partition] < length) {
      return true;
    }
    long wanted =
        length == 0
            ? INITIAL_HASHES
            : allocated <= capacity / 2 ? 2L * length : length + Math.max(1, length / 4);
    // The new array must fit beside every array held, the old one of this partition included.
    int grown = (int) Math.min(wanted, capacity - allocated);
    if (grown <= length) {
      return false;
    }
    peakAllocated = Math.max(peakAllocated, allocated + grown);
    partitions[partition] = hashes == null ? new long[grown] : Arrays.copyOf(hashes, grown);
    allocated += grown - length;
    return true;
  }

  /**
   * Sorts each partition, keeps at most two copies of each hash and trims each array to what it
   * holds where the copy fits, so that the memory compaction freed can go to any partition.
   */
  private void compact() {
    size = 0;
    for (int p = 0; p < PARTITIONS; p++) {
      long[] hashes = partitions[p];
      if (hashes == null) {
        continue;
      }
      HashSort.sortSharingTopByte(hashes, sizes[p]);
      int kept = 0;
      for (int i = 0; i < sizes[p]; i++) {
        long hash = hashes[i];
        if (kept >= 2 && hashes[kept - 2] == hash && hashes[kept - 1] == hash) {
          continue; // a third copy: the report needs two
        }
        hashes[kept++] = hash;
      }
      sizes[p] = kept;
      size += kept;
      // The trimmed copy must fit beside the arrays held; one that does not keeps its slack.
      if (kept < hashes.length && allocated + kept <= capacity) {
        peakAllocated = Math.max(peakAllocated, allocated + kept);
        partitions[p] = kept == 0 ? null : Arrays.copyOf(hashes, kept);
        allocated -= hashes.length - kept;
      }
    }
  }

  /** Drops every array: the memory is free for the partitions to grow again. */
  private void release() {
    Arrays.fill(partitions, null);
    Arrays.fill(sizes, 0);
    allocated = 0;
    size = 0;
  }

  private static void merge(List<Cursor> cursors, Duplicates out) {
    CursorHeap heap = new CursorHeap(cursors);
    while (!heap.isEmpty()) {
      long hash = heap.top().hash;
      int seen = 0;
      while (!heap.isEmpty() && heap.top().hash == hash) {
        seen++;
        heap.advanceTop();
      }
      if (seen > 1) {
        out.accept(hash);
      }
    }
  }

  /**
   * The cursors by their current hash, smallest on top: advancing the top cursor sifts it down once
   * (a priority queue's poll and add would sift twice).
   */
  private static final class CursorHeap {
    private final Cursor[] heap;
    private int size;

    CursorHeap(List<Cursor> cursors) {
      heap = new Cursor[cursors.size()];
      for (Cursor cursor : cursors) {
        if (cursor.next()) {
          heap[size++] = cursor;
        }
      }
      for (int i = size / 2 - 1; i >= 0; i--) {
        siftDown(i);
      }
    }

    boolean isEmpty() {
      return size == 0;
    }

    Cursor top() {
      return heap[0];
    }

    /** Moves the top cursor to its next hash (dropping it at its end) and restores the order. */
    void advanceTop() {
      if (!heap[0].next()) {
        heap[0] = heap[--size];
        heap[size] = null;
      }
      if (size > 1) {
        siftDown(0);
      }
    }

    private void siftDown(int i) {
      Cursor moving = heap[i];
      while (true) {
        int child = 2 * i + 1;
        if (child >= size) {
          break;
        }
        if (child + 1 < size && less(heap[child + 1], heap[child])) {
          child++;
        }
        if (!less(heap[child], moving)) {
          break;
        }
        heap[i] = heap[child];
        i = child;
      }
      heap[i] = moving;
    }

    private static boolean less(Cursor a, Cursor b) {
      return Long.compareUnsigned(a.hash, b.hash) < 0;
    }
  }

  /** Writes the partitions, sorted and compacted already, in order as one run; then frees them. */
  private void spill() {
    Path run;
    try {
      Files.createDirectories(spillDirectory);
      run = Files.createTempFile(spillDirectory, "floe-unique-", ".run");
      runs.add(run);
      try (FileChannel channel = FileChannel.open(run, StandardOpenOption.WRITE)) {
        ByteBuffer bytes = ByteBuffer.allocate(8 * IO_LONGS);
        for (int p = 0; p < PARTITIONS; p++) {
          for (int from = 0; from < sizes[p]; from += IO_LONGS) {
            int longs = Math.min(IO_LONGS, sizes[p] - from);
            bytes.clear();
            bytes.asLongBuffer().put(partitions[p], from, longs);
            bytes.limit(8 * longs);
            while (bytes.hasRemaining()) {
              channel.write(bytes);
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot spill key hashes of the unique check to " + spillDirectory + ": " + e, e);
    }
    release();
  }

  @Override
  public void close() {
    release();
    for (Path run : runs) {
      try {
        Files.deleteIfExists(run);
      } catch (IOException e) {
        // A temporary file in Flink's temp directory; the task's cleanup removes it too.
      }
    }
    runs.clear();
  }

  /** A sorted source of hashes: the partitions in memory or one run on disk. */
  private abstract static class Cursor {
    long hash;

    abstract boolean next();

    void close() {}
  }

  /** The sorted partitions in memory, one after another. */
  private final class PartitionsCursor extends Cursor {
    private int partition;
    private int next;

    @Override
    boolean next() {
      while (next >= sizes[partition]) {
        if (++partition == PARTITIONS) {
          partition = PARTITIONS - 1;
          next = sizes[partition];
          return false;
        }
        next = 0;
      }
      hash = partitions[partition][next++];
      return true;
    }
  }

  /** Reads a run a chunk at a time. */
  private static final class RunCursor extends Cursor {
    private final Path run;
    private final FileChannel channel;
    private final ByteBuffer bytes = ByteBuffer.allocate(8 * IO_LONGS);
    private LongBuffer chunk = LongBuffer.allocate(0);

    RunCursor(Path run) {
      this.run = run;
      try {
        channel = FileChannel.open(run, StandardOpenOption.READ);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read spilled key hashes " + run + ": " + e, e);
      }
    }

    @Override
    boolean next() {
      if (!chunk.hasRemaining() && !fill()) {
        return false;
      }
      hash = chunk.get();
      return true;
    }

    /** Reads the next chunk (whole hashes); false at the end of the run. */
    private boolean fill() {
      try {
        bytes.clear();
        while (bytes.hasRemaining() && channel.read(bytes) >= 0) {
          // until the chunk is full or the run ends
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read spilled key hashes " + run + ": " + e, e);
      }
      bytes.flip();
      if (bytes.remaining() % BYTES_PER_HASH != 0) {
        throw new UncheckedIOException(
            new IOException(
                "Cannot read spilled key hashes "
                    + run
                    + ": the run ends inside a hash ("
                    + bytes.remaining()
                    + " bytes left)"));
      }
      chunk = bytes.asLongBuffer(); // a view of the bytes read: no second copy
      return chunk.hasRemaining();
    }

    @Override
    void close() {
      try {
        channel.close();
      } catch (IOException e) {
        // read-only; nothing to lose
      }
    }
  }
}
