package dev.floe.flink.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The file workers hand every finished result to the clean-up whenever the work as a whole fails.
 */
class FileWorkersTest {

  /**
   * A pool of two threads that refuses the third piece of work once the first two finished, as when
   * no thread can start while others already wrote their files.
   */
  private static ExecutorService refusingTheThird() {
    return new ThreadPoolExecutor(2, 2, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>()) {
      private final List<Future<?>> accepted = new ArrayList<>();

      @Override
      public <T> Future<T> submit(Callable<T> task) {
        if (accepted.size() == 2) {
          for (Future<?> earlier : accepted) {
            try {
              earlier.get();
            } catch (Exception e) {
              throw new AssertionError(e);
            }
          }
          throw new RejectedExecutionException("unable to create native thread: injected");
        }
        Future<T> future = super.submit(task);
        accepted.add(future);
        return future;
      }
    };
  }

  @Test
  void workThatCannotBeSubmittedDiscardsWhatTheSubmittedWorkProducedAndFails() {
    List<String> discarded = new ArrayList<>();
    try (FileWorkers workers = new FileWorkers(2, refusingTheThird())) {
      assertThatThrownBy(
              () ->
                  workers.map(
                      List.of("a", "b", "c", "d"),
                      (input, cancelled) -> "written-" + input,
                      discarded::addAll))
          .isInstanceOf(RejectedExecutionException.class)
          .hasMessageContaining("injected");
    }
    assertThat(discarded).containsExactly("written-a", "written-b");
  }

  @Test
  void aSecondFailureIsKeptAsSuppressedByTheFirst() {
    try (FileWorkers workers = new FileWorkers(2, "test")) {
      assertThatThrownBy(
              () ->
                  workers.map(
                      List.of("a", "b"),
                      (input, cancelled) -> {
                        // Both fail, neither sees the other's cancel first: one is thrown, the
                        // other suppressed by it.
                        java.util.concurrent.locks.LockSupport.parkNanos(200_000_000L);
                        throw new IllegalStateException("Cannot read " + input);
                      },
                      done -> {}))
          .isInstanceOf(IllegalStateException.class)
          .satisfies(e -> assertThat(e.getSuppressed()).hasSize(1));
    }
  }
}
