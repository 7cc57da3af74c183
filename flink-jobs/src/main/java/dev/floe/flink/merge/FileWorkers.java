package dev.floe.flink.merge;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Runs independent per-file work (the merge's probe reads and rewrites) on at most {@code threads}
 * threads, and returns the results in the inputs' order, so that what is built from them does not
 * depend on the thread count or on which file finished first.
 *
 * <p>The first failure stops the rest: work not yet started never starts, work in flight sees
 * {@code cancelled} turn true (and cleans up after itself, as a rewrite aborts its writer), the
 * results of work that finished are handed to {@code discard}, and the first failure is thrown as
 * it was raised (an {@link IOException} wrapped in an {@link UncheckedIOException} with its message
 * unchanged). At most {@code threads} pieces of work are in flight, which bounds the open writers.
 */
final class FileWorkers implements AutoCloseable {

  /** One piece of work on one input. */
  @FunctionalInterface
  interface Work<I, O> {
    /**
     * @param cancelled true once another piece failed: stop early, clean up, and throw
     */
    O apply(I input, BooleanSupplier cancelled) throws IOException;
  }

  /** Thrown by work that stopped because another piece failed; never surfaces. */
  static final class Cancelled extends RuntimeException {
    Cancelled() {
      super("cancelled: another file's work failed", null, false, false);
    }
  }

  private final int threads;
  private final ExecutorService pool;

  /**
   * @param threads at most this many pieces of work run at once; 1 runs them in the caller's thread
   * @param name the threads' name prefix
   */
  FileWorkers(int threads, String name) {
    if (threads < 1) {
      throw new IllegalArgumentException("Cannot run file work on " + threads + " threads");
    }
    this.threads = threads;
    this.pool = threads == 1 ? null : Executors.newFixedThreadPool(threads, factory(name));
  }

  /** Runs the work on {@code pool} (tests give one that refuses work). */
  FileWorkers(int threads, ExecutorService pool) {
    this.threads = threads;
    this.pool = pool;
  }

  int threads() {
    return threads;
  }

  /**
   * @return one result per input, in the inputs' order
   */
  <I, O> List<O> map(List<I> inputs, Work<I, O> work, Consumer<List<O>> discard) {
    AtomicBoolean cancelled = new AtomicBoolean();
    AtomicReference<Throwable> first = new AtomicReference<>();
    List<O> done = new ArrayList<>();
    if (pool == null || inputs.size() <= 1) {
      for (I input : inputs) {
        try {
          done.add(work.apply(input, cancelled::get));
        } catch (IOException | RuntimeException | Error e) {
          first.set(e);
          break;
        }
      }
    } else {
      List<Future<O>> futures = new ArrayList<>(inputs.size());
      for (I input : inputs) {
        try {
          futures.add(
              pool.submit(
                  () -> {
                    if (cancelled.get()) {
                      throw new Cancelled();
                    }
                    try {
                      return work.apply(input, cancelled::get);
                    } catch (Throwable e) {
                      if (!(e instanceof Cancelled)) {
                        fail(first, cancelled, e);
                      }
                      throw e;
                    }
                  }));
        } catch (RuntimeException | Error e) {
          // A thread that cannot start (out of native threads): what was submitted is still
          // waited for and discarded below, so no file it wrote is left behind.
          fail(first, cancelled, e);
          break;
        }
      }
      // Wait for every piece, also after a failure: one still writing must have aborted its
      // files before the caller deletes the rest and reports.
      for (Future<O> future : futures) {
        try {
          O result = await(future, cancelled, first);
          done.add(result);
        } catch (ExecutionException e) {
          first.compareAndSet(null, e.getCause()); // normally already recorded by the piece
        }
      }
    }
    Throwable failure = first.get();
    if (failure == null) {
      return done;
    }
    discard.accept(done);
    if (failure instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (failure instanceof Error error) {
      throw error;
    }
    if (failure instanceof IOException io) {
      throw new UncheckedIOException(io.getMessage(), io);
    }
    if (failure instanceof InterruptedException) {
      throw new IllegalStateException(
          "Cannot finish the work on " + inputs.size() + " files: the task was interrupted",
          failure);
    }
    throw new IllegalStateException(failure.getMessage(), failure);
  }

  /** Records the first failure and cancels the rest; a later one is kept as suppressed. */
  private static void fail(AtomicReference<Throwable> first, AtomicBoolean cancelled, Throwable e) {
    if (first.compareAndSet(null, e)) {
      cancelled.set(true);
    } else if (first.get() != e) {
      first.get().addSuppressed(e);
    }
  }

  private static <O> O await(
      Future<O> future, AtomicBoolean cancelled, AtomicReference<Throwable> first)
      throws ExecutionException {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return future.get();
        } catch (InterruptedException e) {
          // The task is being cancelled (Flink interrupts its thread): stop the pieces, but keep
          // waiting, since a piece may hold files that only it can abort; re-interrupt after.
          interrupted = true;
          if (first.compareAndSet(null, e)) {
            cancelled.set(true);
          }
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public void close() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }

  private static ThreadFactory factory(String name) {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    // Named after the thread that starts them (a Flink task thread, "chain (1/1)#0"): thread dumps
    // and profilers that follow task threads show them as the task's own work.
    String owner = Thread.currentThread().getName();
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet() + " of " + owner);
      thread.setDaemon(true);
      // Flink's user-code class loader, which Iceberg and Hadoop look classes up with.
      thread.setContextClassLoader(loader);
      return thread;
    };
  }
}
