package dev.floe.flink.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.flink.check.KeyHashBatch;
import dev.floe.flink.session.FlinkSessions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;

/**
 * The unique check's finders in a real Flink batch job: copies of a key written by different
 * writers, in batches per bucket, meet in one finder through the bucket partitioning (more buckets
 * than finders), and are found even when a finder's memory holds only a few dozen hashes and its
 * copies lie in different spilled runs.
 */
class DuplicateKeyFinderITCase {
  private static final TypeInformation<byte[]> KEYS =
      PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO;

  /** Buckets per writer: more than finders, so a finder gets several buckets. */
  private static final int BUCKETS = 5;

  private static final int DISTINCT = 3000;

  @Test
  void findsEveryKeyWrittenByTwoWritersOnceAcrossTasksAndSpilledRuns() throws Exception {
    StreamExecutionEnvironment env = FlinkSessions.batchEnvironment(2);
    // Two "writers": each emits every key of check 0 once; for check 1 only key 7 is shared.
    DataStream<byte[]> keys =
        env.fromData(0L, 1L).rebalance().flatMap(new Writer(), KEYS).setParallelism(2);

    CloseableIterator<byte[]> messages = DuplicateKeyFinder.attach(keys, 2, 1024).collectAsync();
    JobClient job = env.executeAsync("duplicate-key-finder");
    List<Long> check0 = new ArrayList<>();
    List<Long> check1 = new ArrayList<>();
    try (messages) {
      while (messages.hasNext()) {
        CommitMessage.DuplicateKeyHashes found =
            CommitMessages.decode(messages.next(), getClass().getClassLoader());
        List<Long> into = found.checkIndex() == 0 ? check0 : check1;
        for (long hash : found.hashes()) {
          into.add(hash);
        }
      }
    }
    JobExecutionResult result = job.getJobExecutionResult().get();

    Set<Long> expected = new HashSet<>();
    for (long key = 0; key < DISTINCT; key++) {
      expected.add(hash(key));
    }
    assertThat(check0).hasSize(DISTINCT).doesNotHaveDuplicates();
    assertThat(new HashSet<>(check0)).isEqualTo(expected);
    assertThat(check1).containsExactly(hash(7));
    assertThat((Long) result.getAccumulatorResult(DuplicateKeyFinder.SPILLED_RUNS))
        .as("runs spilled by the finders")
        .isGreaterThan(10L);
  }

  /** A stand-in for the writers' side output: uniform 64-bit hashes of small numbers. */
  static long hash(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Batches hashes per check and bucket as the writers do, in small batches. */
  private static final class Writer implements FlatMapFunction<Long, byte[]> {
    @Override
    public void flatMap(Long writer, Collector<byte[]> out) {
      KeyHashBatch[][] batches = new KeyHashBatch[2][BUCKETS];
      for (int check = 0; check < 2; check++) {
        for (int bucket = 0; bucket < BUCKETS; bucket++) {
          batches[check][bucket] = new KeyHashBatch(check, bucket, 7);
        }
      }
      for (long key = 0; key < DISTINCT; key++) {
        add(batches[0], hash(key), out);
      }
      for (long key = 1; key < DISTINCT; key++) {
        add(batches[1], hash(key == 7 ? 7 : writer * DISTINCT + key + DISTINCT), out);
      }
      for (KeyHashBatch[] check : batches) {
        for (KeyHashBatch batch : check) {
          if (!batch.isEmpty()) {
            out.collect(batch.take());
          }
        }
      }
    }

    private static void add(KeyHashBatch[] batches, long hash, Collector<byte[]> out) {
      KeyHashBatch batch = batches[KeyHashBatch.bucketOf(hash, BUCKETS)];
      if (batch.add(hash)) {
        out.collect(batch.take());
      }
    }
  }
}
