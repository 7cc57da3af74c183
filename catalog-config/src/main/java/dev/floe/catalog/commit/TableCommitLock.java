package dev.floe.catalog.commit;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Serializes the commit phase (no-op check, validation, commit, conflict resolution) of runs that
 * write the same table from one JVM, e.g. the slices of a backfill in flight on one local cluster.
 * Iceberg would let them race and retry, and enough parallel committers exhaust its retries
 * (apache/iceberg#732); queued one at a time, each validates against the previous commit and goes
 * through first time. Fair, so no slice waits forever. Runs in separate processes are not
 * serialized by this; Iceberg's optimistic concurrency and Floe's conflict resolution cover them.
 */
public final class TableCommitLock {
  private static final ConcurrentHashMap<String, ReentrantLock> LOCKS = new ConcurrentHashMap<>();

  private TableCommitLock() {}

  /** Runs {@code commit} while holding {@code table}'s lock. */
  public static <T> T commitSerially(String table, Supplier<T> commit) {
    ReentrantLock lock = LOCKS.computeIfAbsent(table, name -> new ReentrantLock(true));
    try {
      // Interruptible: a cancelled Flink task waiting for its turn stops waiting.
      lock.lockInterruptibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(
          "Cannot commit to " + table + ": interrupted while waiting for the commit lock", e);
    }
    try {
      return commit.get();
    } finally {
      lock.unlock();
    }
  }
}
