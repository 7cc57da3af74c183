package dev.floe.flink.check;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Finds the 128-bit key hashes added more than once, without sorting every hash: they go into a
 * {@link KeyHashSet} of bounded memory; a full set is written to local disk as a sorted run and
 * emptied. At the end the runs and what is left in memory are merged, so a duplicate is found
 * whether both copies met in memory or lie in different runs. Exact for any number of hashes:
 * memory stays at the limit, disk takes 16 bytes a distinct hash of each run.
 *
 * <p>Not thread-safe. {@link #close} deletes the runs.
 */
public final class DuplicateHashFinder implements AutoCloseable {

  /** Receives each duplicated hash once, in ascending unsigned order. */
  @FunctionalInterface
  public interface Duplicates {
    void accept(long high, long low);
  }

  private final Path spillDirectory;
  private final int capacity;
  private final List<Path> runs = new ArrayList<>();
  private KeyHashSet set;

  /**
   * @param memoryBytes memory for the in-memory set; past it, hashes spill to sorted runs
   * @param spillDirectory where runs are written (created files are deleted by {@link #close})
   */
  public DuplicateHashFinder(long memoryBytes, Path spillDirectory) {
    this.capacity = KeyHashSet.capacityFor(memoryBytes);
    this.spillDirectory = spillDirectory;
  }

  public void add(long high, long low) {
    if (set == null) {
      set = new KeyHashSet(capacity);
    }
    set.add(high, low);
    if (set.isFull()) {
      spill();
    }
  }

  /** The number of sorted runs written to disk so far. */
  public int spilledRuns() {
    return runs.size();
  }

  /** Calls {@code out} for every hash added more than once, once each, in ascending order. */
  public void finish(Duplicates out) {
    if (runs.isEmpty()) {
      // Nothing spilled: the set alone knows which hashes came twice; no need to sort the rest.
      long[] twice = set == null ? new long[0] : set.drainTwiceSorted();
      set = null;
      for (int i = 0; i < twice.length; i += 2) {
        out.accept(twice[i], twice[i + 1]);
      }
      return;
    }
    long[] memory = set == null ? new long[0] : set.drainSorted();
    set = null;
    List<Cursor> cursors = new ArrayList<>();
    try {
      cursors.add(new ArrayCursor(memory));
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

  private static void merge(List<Cursor> cursors, Duplicates out) {
    PriorityQueue<Cursor> queue =
        new PriorityQueue<>(
            Math.max(1, cursors.size()), (a, b) -> HashPairs.compare(a.high, a.low, b.high, b.low));
    for (Cursor cursor : cursors) {
      if (cursor.next()) {
        queue.add(cursor);
      }
    }
    while (!queue.isEmpty()) {
      Cursor first = queue.poll();
      long high = first.high;
      long low = first.low;
      int seen = 1;
      if (first.next()) {
        queue.add(first);
      }
      while (!queue.isEmpty() && queue.peek().high == high && queue.peek().low == low) {
        Cursor same = queue.poll();
        seen++;
        if (same.next()) {
          queue.add(same);
        }
      }
      if (seen > 1) {
        out.accept(high, low);
      }
    }
  }

  private void spill() {
    long[] sorted = set.drainSorted();
    Path run;
    try {
      Files.createDirectories(spillDirectory);
      run = Files.createTempFile(spillDirectory, "floe-unique-", ".run");
      runs.add(run);
      try (DataOutputStream out =
          new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(run), 1 << 16))) {
        for (long value : sorted) {
          out.writeLong(value);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot spill key hashes of the unique check to " + spillDirectory + ": " + e, e);
    }
  }

  @Override
  public void close() {
    set = null;
    for (Path run : runs) {
      try {
        Files.deleteIfExists(run);
      } catch (IOException e) {
        // A temporary file in Flink's temp directory; the task's cleanup removes it too.
      }
    }
    runs.clear();
  }

  /** A sorted source of hashes: the in-memory rest or one run on disk. */
  private abstract static class Cursor {
    long high;
    long low;

    abstract boolean next();

    void close() {}
  }

  private static final class ArrayCursor extends Cursor {
    private final long[] pairs;
    private int next;

    ArrayCursor(long[] pairs) {
      this.pairs = pairs;
    }

    @Override
    boolean next() {
      if (next >= pairs.length) {
        return false;
      }
      high = pairs[next++];
      low = pairs[next++];
      return true;
    }
  }

  private static final class RunCursor extends Cursor {
    private final Path run;
    private final DataInputStream in;

    RunCursor(Path run) {
      this.run = run;
      try {
        in = new DataInputStream(new BufferedInputStream(Files.newInputStream(run), 1 << 16));
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read spilled key hashes " + run + ": " + e, e);
      }
    }

    @Override
    boolean next() {
      try {
        high = in.readLong();
      } catch (EOFException end) {
        return false;
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read spilled key hashes " + run + ": " + e, e);
      }
      try {
        low = in.readLong();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read spilled key hashes " + run + ": " + e, e);
      }
      return true;
    }

    @Override
    void close() {
      try {
        in.close();
      } catch (IOException e) {
        // read-only; nothing to lose
      }
    }
  }
}
