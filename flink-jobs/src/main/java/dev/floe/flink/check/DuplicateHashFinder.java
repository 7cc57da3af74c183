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
 * most significant byte, an array of its own that grows as needed. When a partition cannot grow
 * within the memory given, each partition is sorted ({@link HashSort#sortSharingTopByte}) and
 * compacted to at most two copies of each hash (two are all the report needs). The partitions are
 * then written to local disk, in order, as one sorted run when more than three quarters of the
 * memory is still taken, or when the partition that was full cannot take a quarter more; otherwise
 * they keep filling. At the end each partition is sorted and scanned for neighbours that are equal,
 * merged with the runs when there are any (more than {@link #MERGE_FAN_IN} runs are first merged
 * into fewer, {@code MERGE_FAN_IN} at a time, so at most one more file than that is open at once),
 * so a duplicate is found whether both copies were in memory together or lie in different runs.
 * Exact for any number of hashes.
 *
 * <p>The hashes' memory stays within the limit: the arrays, and the copy of the one partition that
 * grows, never hold more than {@code memoryBytes / 8} hashes together. Besides it, a sort takes 16
 * KiB of counts and each file open while runs are merged a 64 KiB buffer. Since only one partition
 * (about 1/256 of the hashes, for uniform hashes) is copied at a time, nearly all of the memory
 * holds hashes; a single array would keep half of it free for its own copy while it grows. Sorting
 * a partition touches a few hundred KiB, which stay in the cache, and two copies of a hash always
 * share a partition, so finding them needs no merge. Many copies of few keys do not spill while two
 * copies of each take at most three quarters of the memory; keys crowded into one partition get
 * less, since that partition and its copy while it grows share the budget. Disk takes at most 16
 * bytes a distinct hash a run.
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

  /** Runs merged at once, each an open file with a 64 KiB buffer. */
  static final int MERGE_FAN_IN = 64;

  private final Path spillDirectory;
  private final int capacity;
  private final List<Path> runs = new ArrayList<>();

  /** Merged runs whose file could not be deleted yet: {@link #close} tries again. */
  private final List<Path> undeleted = new ArrayList<>();

  /** The runs spilled from memory (merging runs at the end does not change it). */
  private int spilled;

  private final long[][] partitions = new long[PARTITIONS][];
  private final int[] sizes = new int[PARTITIONS];

  /** The sort's counts, allocated at the first sort and reused by every one after it. */
  private int[][] sortScratch;

  /** The longs of every partition's array, which may not exceed the capacity. */
  private long allocated;

  /** The most longs held at once, a partition's copy while it grows included. */
  private long peakAllocated;

  /** The hashes held in memory. */
  private long size;

  /** How often the partitions were sorted and compacted to make room. */
  private int compactions;

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
    if (!hasRoom(partition, 1)) {
      compact();
      // Compacting again after a few more hashes would sort everything for little: keep filling
      // only when a quarter of the memory is free and the partition can take a quarter more.
      if (size > capacity - capacity / 4
          || !hasRoom(partition, Math.max(1, sizes[partition] / 4))) {
        spill();
        if (!hasRoom(partition, 1)) {
          throw new IllegalStateException(
              "Cannot find duplicate key hashes: no room for one hash in " + capacity + " longs");
        }
      }
    }
    partitions[partition][sizes[partition]++] = hash;
    size++;
  }

  /** The sorted runs spilled from memory to disk so far; the merges at the end add none. */
  public int spilledRuns() {
    return spilled;
  }

  /** How often the partitions were compacted to make room so far. */
  int compactions() {
    return compactions;
  }

  /** The most bytes the hashes took in memory at once, copies while growing included. */
  long peakMemoryBytes() {
    return peakAllocated * BYTES_PER_HASH;
  }

  /** Calls {@code out} for every hash added more than once, once each, in ascending order. */
  public void finish(Duplicates out) {
    for (int p = 0; p < PARTITIONS; p++) {
      if (sizes[p] > 0) {
        HashSort.sortSharingTopByte(partitions[p], sizes[p], scratch());
      }
    }
    if (runs.isEmpty()) {
      scan(out);
      release();
      return;
    }
    try {
      // One cursor for the partitions, one open file for each run: at most MERGE_FAN_IN.
      mergeRunsDownTo(MERGE_FAN_IN - 1);
      List<Cursor> cursors = new ArrayList<>();
      try {
        cursors.add(new PartitionsCursor());
        for (Path run : runs) {
          cursors.add(new RunCursor(run));
        }
        merge(
            cursors,
            (hash, count) -> {
              if (count > 1) {
                out.accept(hash);
              }
            });
      } finally {
        cursors.forEach(Cursor::close);
      }
    } finally {
      release();
    }
  }

  /**
   * Merges runs, {@link #MERGE_FAN_IN} at a time, into runs that keep at most two copies of each
   * hash, until at most {@code limit} are left: a finder that spilled many runs (a small memory
   * budget, many hashes) has at most {@link #MERGE_FAN_IN} runs and the one it writes open at once.
   */
  private void mergeRunsDownTo(int limit) {
    while (runs.size() > limit) {
      List<Path> group = new ArrayList<>(runs.subList(0, Math.min(MERGE_FAN_IN, runs.size())));
      Path merged = newRun(); // listed before it is written: close() deletes it whatever happens
      List<Cursor> cursors = new ArrayList<>();
      try (RunWriter writer = new RunWriter(merged)) {
        for (Path run : group) {
          cursors.add(new RunCursor(run));
        }
        merge(
            cursors,
            (hash, count) -> {
              writer.write(hash);
              if (count > 1) {
                writer.write(hash); // two copies are all the report needs
              }
            });
      } finally {
        cursors.forEach(Cursor::close);
      }
      runs.removeAll(group); // merged into one: never read again, whether deleted now or later
      for (Path run : group) {
        if (!deleteRun(run)) {
          undeleted.add(run);
        }
      }
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
   * True when {@code partition} can take {@code count} more hashes, growing its array as far as the
   * memory allows.
   */
  private boolean hasRoom(int partition, int count) {
    while (partitions[partition] == null
        || partitions[partition].length - sizes[partition] < count) {
      if (!grow(partition)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Grows the partition's array if the memory allows: to twice its length while the arrays take at
   * most half of the memory, by a quarter past that, so that partitions growing one after another
   * leave little of it unused. False when it cannot grow by one.
   */
  private boolean grow(int partition) {
    long[] hashes = partitions[partition];
    int length = hashes == null ? 0 : hashes.length;
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
    compactions++;
    size = 0;
    for (int p = 0; p < PARTITIONS; p++) {
      long[] hashes = partitions[p];
      if (hashes == null) {
        continue;
      }
      HashSort.sortSharingTopByte(hashes, sizes[p], scratch());
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

  private int[][] scratch() {
    if (sortScratch == null) {
      sortScratch = HashSort.newScratch();
    }
    return sortScratch;
  }

  /** Drops every array: the memory is free for the partitions to grow again. */
  private void release() {
    Arrays.fill(partitions, null);
    Arrays.fill(sizes, 0);
    allocated = 0;
    size = 0;
  }

  /** Receives each hash of a merge once, in ascending unsigned order, with its number of copies. */
  @FunctionalInterface
  private interface Counted {
    void accept(long hash, int copies);
  }

  private static void merge(List<Cursor> cursors, Counted out) {
    CursorHeap heap = new CursorHeap(cursors);
    while (!heap.isEmpty()) {
      long hash = heap.top().hash;
      int seen = 0;
      while (!heap.isEmpty() && heap.top().hash == hash) {
        seen++;
        heap.advanceTop();
      }
      out.accept(hash, seen);
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
    spilled++;
    try (RunWriter writer = new RunWriter(newRun())) {
      for (int p = 0; p < PARTITIONS; p++) {
        writer.write(partitions[p], sizes[p]);
      }
    }
    release();
  }

  /** A new, empty run file, listed in {@link #runs}. */
  private Path newRun() {
    try {
      Files.createDirectories(spillDirectory);
      Path run = Files.createTempFile(spillDirectory, "floe-unique-", ".run");
      runs.add(run);
      return run;
    } catch (IOException e) {
      throw spillFailed(e);
    }
  }

  private UncheckedIOException spillFailed(IOException e) {
    return new UncheckedIOException(
        "Cannot spill key hashes of the unique check to " + spillDirectory + ": " + e, e);
  }

  /** Deletes a run's file; false when it could not (the task's cleanup of its temp dir may). */
  private static boolean deleteRun(Path run) {
    try {
      Files.deleteIfExists(run);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Writes hashes to a run, {@link #IO_LONGS} at a time. */
  private final class RunWriter implements AutoCloseable {
    private final FileChannel channel;
    private final ByteBuffer bytes = ByteBuffer.allocate(8 * IO_LONGS);
    private final LongBuffer longs = bytes.asLongBuffer();

    RunWriter(Path run) {
      try {
        channel = FileChannel.open(run, StandardOpenOption.WRITE);
      } catch (IOException e) {
        throw spillFailed(e);
      }
    }

    void write(long hash) {
      if (!longs.hasRemaining()) {
        flush();
      }
      longs.put(hash);
    }

    void write(long[] hashes, int count) {
      for (int from = 0; from < count; ) {
        if (!longs.hasRemaining()) {
          flush();
        }
        int n = Math.min(longs.remaining(), count - from);
        longs.put(hashes, from, n);
        from += n;
      }
    }

    private void flush() {
      bytes.clear();
      bytes.limit(8 * longs.position());
      try {
        while (bytes.hasRemaining()) {
          channel.write(bytes);
        }
      } catch (IOException e) {
        throw spillFailed(e);
      }
      longs.clear();
    }

    @Override
    public void close() {
      RuntimeException failure = null;
      try {
        flush();
      } catch (RuntimeException e) {
        failure = e;
      }
      try {
        channel.close();
      } catch (IOException e) {
        if (failure == null) {
          failure = spillFailed(e);
        } else {
          failure.addSuppressed(e);
        }
      }
      if (failure != null) {
        throw failure;
      }
    }
  }

  @Override
  public void close() {
    release();
    runs.forEach(DuplicateHashFinder::deleteRun);
    undeleted.forEach(DuplicateHashFinder::deleteRun);
    runs.clear();
    undeleted.clear();
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
