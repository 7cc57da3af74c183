package dev.floe.flink.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.job.CheckSpec;
import dev.floe.flink.check.KeyHashBatch;
import dev.floe.flink.row.RowDataHasher;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * A writer holds a batch of key hashes per unique check and per finder: what they hold together
 * stays within {@link KeyHashBatch#WRITER_BUDGET_BYTES} however large the parallelism, and a batch
 * no hash reaches costs nothing.
 */
class UniqueKeysMemoryTest {
  private static final RowType ROW =
      RowType.of(new BigIntType(), new BigIntType(), new BigIntType());
  private static final List<CheckSpec> THREE_UNIQUE =
      List.of(
          new CheckSpec.Unique(List.of("f0")),
          new CheckSpec.Unique(List.of("f1")),
          new CheckSpec.Unique(List.of("f2")));

  @Test
  void batchesShrinkWithTheParallelismToStayWithinTheWriterBudget() {
    assertThat(KeyHashBatch.capacityFor(2 * 3)).isEqualTo(KeyHashBatch.DEFAULT_CAPACITY);
    for (int buckets : new int[] {2, 32, 128, 256, 1024}) {
      int batches = buckets * 3;
      long held = (long) KeyHashBatch.BYTES_PER_HASH * KeyHashBatch.capacityFor(batches) * batches;
      assertThat(held).as("%d buckets", buckets).isLessThanOrEqualTo(budgetOrMinimum(batches));
    }
  }

  @Test
  void aWriterAtParallelism256AllocatesNoBatchBeforeItsFirstRowAndStaysWithinBudgetAfter() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long thread = Thread.currentThread().getId();
    int buckets = 256;
    int capacity = KeyHashBatch.capacityFor(buckets * THREE_UNIQUE.size());

    long before = threads.getThreadAllocatedBytes(thread);
    UniqueKeys keys = UniqueKeys.of(THREE_UNIQUE, ROW, buckets);
    long empty = threads.getThreadAllocatedBytes(thread) - before;

    // Enough rows for every bucket of every check to hold a batch, none of them full yet.
    RowDataHasher hasher = new RowDataHasher(ROW);
    List<byte[]> sent = new ArrayList<>();
    for (long i = 0; i < buckets * 8L; i++) {
      GenericRowData row = GenericRowData.of(i, i * 31, i * 7919);
      hasher.hash128(row);
      keys.add(row, hasher, sent::add);
    }

    assertThat(empty).as("allocated before the first row").isLessThan(1L << 20);
    assertThat(sent).as("no batch is full yet").isEmpty();
    assertThat((long) KeyHashBatch.BYTES_PER_HASH * capacity * buckets * THREE_UNIQUE.size())
        .isLessThanOrEqualTo(KeyHashBatch.WRITER_BUDGET_BYTES);
  }

  private static long budgetOrMinimum(int batches) {
    return Math.max(
        KeyHashBatch.WRITER_BUDGET_BYTES, (long) KeyHashBatch.BYTES_PER_HASH * 64 * batches);
  }
}
