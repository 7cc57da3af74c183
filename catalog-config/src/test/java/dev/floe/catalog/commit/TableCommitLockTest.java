package dev.floe.catalog.commit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TableCommitLockTest {

  @Test
  void commitsToOneTableNeverOverlapWhileOtherTablesGoAhead() throws Exception {
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger mostInside = new AtomicInteger();
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch otherTableDone = new CountDownLatch(1);
    CountDownLatch firstInside = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<Future<?>> futures = new ArrayList<>();
      futures.add(
          pool.submit(
              () ->
                  TableCommitLock.commitSerially(
                      "c:t",
                      () -> {
                        firstInside.countDown();
                        // Holds t's lock until a commit to another table has finished: that one
                        // must not wait for t.
                        await(otherTableDone);
                        return enterAndLeave(inside, mostInside, order, "first");
                      })));
      await(firstInside);
      for (int i = 0; i < 4; i++) {
        int n = i;
        futures.add(
            pool.submit(
                () ->
                    TableCommitLock.commitSerially(
                        "c:t", () -> enterAndLeave(inside, mostInside, order, "t" + n))));
      }
      futures.add(
          pool.submit(
              () ->
                  TableCommitLock.commitSerially(
                      "c:other",
                      () -> {
                        order.add("other");
                        otherTableDone.countDown();
                        return null;
                      })));
      for (Future<?> future : futures) {
        future.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(mostInside.get()).isEqualTo(1);
    assertThat(order.get(0)).isEqualTo("other");
    assertThat(order.get(1)).isEqualTo("first");
    assertThat(order).hasSize(6);
  }

  private static Object enterAndLeave(
      AtomicInteger inside, AtomicInteger mostInside, List<String> order, String name) {
    int now = inside.incrementAndGet();
    mostInside.accumulateAndGet(now, Math::max);
    order.add(name);
    try {
      Thread.sleep(20); // long enough for an overlapping commit to show up in `inside`
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    inside.decrementAndGet();
    return null;
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
