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
 * Finds the 64-bit key hashes added more than once: they are appended to an array of bounded
 * memory; a full array is sorted ({@link HashSort#sortUniform}) and compacted to at most two copies
 * of each hash (two are all the report needs), and written to local disk as a sorted run only when
 * compacting freed less than a quarter of it, then filled again. At the end the rest in memory is
 * sorted and merged with the runs, so a duplicate is found whether both copies were in memory
 * together or lie in different runs. Exact for any number of hashes: memory stays within the limit
 * (the array, and its copy while it grows), disk takes at most 16 bytes a distinct hash a run, so
 * many copies of few keys never spill (while two copies of each fit in three quarters of the
 * array). Appending and sorting touch memory in order, where a hash set probed a random slot (a
 * cache miss) per hash.
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
   * Hashes the array holds at least (128 bytes): room for two copies of three keys after
   * compaction, so a budget too small to be useful still does not spill a run per copy.
   */
  static final int MIN_CAPACITY = 8;

  /** Hashes of the first array; it doubles up to the capacity. */
  private static final int INITIAL_HASHES = 1 << 12;

  /** Longs a run is written and read with at a time (64 KiB). */
  private static final int IO_LONGS = 1 << 13;

  private final Path spillDirectory;
  private final int capacity;
  private final List<Path> runs = new ArrayList<>();
  private long[] hashes;
  private int size;

  /**
   * @param memoryBytes memory for the hashes in memory; past it, hashes spill to sorted runs
   * @param spillDirectory where runs are written (created files are deleted by {@link #close})
   */
  public DuplicateHashFinder(long memoryBytes, Path spillDirectory) {
    this.capacity = capacityFor(memoryBytes);
    this.spillDirectory = spillDirectory;
  }

  /**
   * The number of hashes {@code bytes} of memory hold: half of what 8 bytes a hash would give,
   * since growing the array holds the old one and the new one at once; at most 2^30, and at least
   * {@link #MIN_CAPACITY} whatever smaller budget is given.
   */
  static int capacityFor(long bytes) {
    return (int) Math.max(MIN_CAPACITY, Math.min(1 << 30, bytes / (2 * BYTES_PER_HASH)));
  }

  public void add(long hash) {
    if (hashes == null || size == hashes.length) {
      if (size < capacity) {
        grow();
      } else if (!compacted()) {
        spill();
      }
    }
    hashes[size++] = hash;
  }

  /** The number of sorted runs written to disk so far. */
  public int spilledRuns() {
    return runs.size();
  }

  /** Calls {@code out} for every hash added more than once, once each, in ascending order. */
  public void finish(Duplicates out) {
    long[] memory = hashes == null ? new long[0] : hashes;
    int count = size;
    hashes = null;
    size = 0;
    HashSort.sortUniform(memory, count);
    List<Cursor> cursors = new ArrayList<>();
    try {
      cursors.add(new ArrayCursor(memory, count));
      for (Path run : runs) {
        cursors.add(new RunCursor(run));
      }
      merge(cursors, out);
    } finally {
      for (Cursor cursor : cursors) {
        cursor.close();
      }
    }
  }

  /**
   * Sorts the full array and keeps at most two copies of each hash; true when that freed at least a
   * quarter of it, and at least one place (the array keeps filling), false when it must spill.
   */
  private boolean compacted() {
    HashSort.sortUniform(hashes, size);
    int kept = 0;
    for (int i = 0; i < size; i++) {
      long hash = hashes[i];
      if (kept >= 2 && hashes[kept - 2] == hash && hashes[kept - 1] == hash) {
        continue; // a third copy: the report needs two
      }
      hashes[kept++] = hash;
    }
    size = kept;
    return kept <= capacity - Math.max(1, capacity / 4);
  }

  private void grow() {
    int length = hashes == null ? Math.min(capacity, INITIAL_HASHES) : Math.min(capacity, 2 * size);
    hashes = hashes == null ? new long[length] : Arrays.copyOf(hashes, length);
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

  /** Writes the array, sorted and compacted already, as a run. */
  private void spill() {
    Path run;
    try {
      Files.createDirectories(spillDirectory);
      run = Files.createTempFile(spillDirectory, "floe-unique-", ".run");
      runs.add(run);
      try (FileChannel channel = FileChannel.open(run, StandardOpenOption.WRITE)) {
        ByteBuffer bytes = ByteBuffer.allocate(8 * IO_LONGS);
        for (int from = 0; from < size; from += IO_LONGS) {
          int longs = Math.min(IO_LONGS, size - from);
          bytes.clear();
          bytes.asLongBuffer().put(hashes, from, longs);
          bytes.limit(8 * longs);
          while (bytes.hasRemaining()) {
            channel.write(bytes);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot spill key hashes of the unique check to " + spillDirectory + ": " + e, e);
    }
    size = 0;
  }

  @Override
  public void close() {
    hashes = null;
    size = 0;
    for (Path run : runs) {
      try {
        Files.deleteIfExists(run);
      } catch (IOException e) {
        // A temporary file in Flink's temp directory; the task's cleanup removes it too.
      }
    }
    runs.clear();
  }

  /** A sorted source of hashes: the rest in memory or one run on disk. */
  private abstract static class Cursor {
    long hash;

    abstract boolean next();

    void close() {}
  }

  private static final class ArrayCursor extends Cursor {
    private final long[] hashes;
    private final int end;
    private int next;

    ArrayCursor(long[] hashes, int count) {
      this.hashes = hashes;
      this.end = count;
    }

    @Override
    boolean next() {
      if (next >= end) {
        return false;
      }
      hash = hashes[next++];
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
