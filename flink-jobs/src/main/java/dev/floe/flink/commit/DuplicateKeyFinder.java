package dev.floe.flink.commit;

import dev.floe.flink.check.DuplicateHashFinder;
import dev.floe.flink.check.KeyHashBatch;
import java.io.File;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The unique check's second half: receives the key hash of every written row in batches ({@link
 * KeyHashBatch}: check index, bucket, hashes), partitioned by bucket so that all copies of a key
 * meet in one subtask, and at end of input sends the committer each hash seen more than once, in
 * batches. No keyed exchange: Flink sorts a keyed stream in batch mode, and sorting every row's
 * hash was the largest cost of a checked run. Each subtask finds duplicates with a {@link
 * DuplicateHashFinder} (bounded memory, spilling sorted runs to Flink's temporary directories). The
 * committer confirms each hash against the real keys before reporting it ({@code
 * DuplicateKeySamples}).
 */
public final class DuplicateKeyFinder extends AbstractStreamOperator<byte[]>
    implements OneInputStreamOperator<byte[], byte[]>, BoundedOneInput {

  /**
   * Memory for each subtask's key hashes of one unique check before they spill (a subtask holds a
   * finder per check): 64 MiB hold about 8 M hashes (8 bytes each, and room for the copy of the one
   * partition that grows). The partitions start small and grow to that.
   */
  public static final long DEFAULT_MEMORY_BYTES = 64L << 20;

  /** A counter of the sorted runs the finders spilled to disk (0 when all fit in memory). */
  public static final String SPILLED_RUNS = "floe-unique-spilled-runs";

  /** Hashes per message to the committer (64 KiB). */
  static final int HASHES_PER_MESSAGE = 8192;

  private final long memoryBytes;

  private transient Map<Integer, DuplicateHashFinder> finders;
  private transient File spillDirectory;
  private transient LongCounter spilledRuns;

  /**
   * @param memoryBytes memory for the key hashes of each unique check in each subtask, past which
   *     they spill to disk
   */
  public DuplicateKeyFinder(long memoryBytes) {
    this.memoryBytes = memoryBytes;
  }

  /**
   * Wires the check: {@code keys} (the writers' side output, batches of key hashes) partitioned by
   * bucket to {@code parallelism} finders; their output goes to the committer. A bucket always goes
   * to the same finder, whatever the number of buckets the writers use.
   */
  public static DataStream<byte[]> attach(
      DataStream<byte[]> keys, int parallelism, long memoryBytes) {
    return keys.partitionCustom(
            (Integer bucket, int partitions) -> bucket % partitions, KeyHashBatch::bucket)
        .transform(
            "floe-unique-check",
            PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO,
            new DuplicateKeyFinder(memoryBytes))
        .setParallelism(parallelism);
  }

  @Override
  public void open() throws Exception {
    super.open();
    finders = new TreeMap<>();
    spilledRuns = getRuntimeContext().getLongCounter(SPILLED_RUNS);
    File[] directories =
        getContainingTask().getEnvironment().getIOManager().getSpillingDirectories();
    spillDirectory =
        directories[getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() % directories.length];
  }

  @Override
  public void processElement(StreamRecord<byte[]> element) {
    byte[] batch = element.getValue();
    int checkIndex = KeyHashBatch.checkIndex(batch);
    DuplicateHashFinder finder = finders.get(checkIndex);
    if (finder == null) {
      finder = new DuplicateHashFinder(memoryBytes, spillDirectory.toPath());
      finders.put(checkIndex, finder);
    }
    for (int i = 0, size = KeyHashBatch.size(batch); i < size; i++) {
      finder.add(KeyHashBatch.hash(batch, i));
    }
  }

  @Override
  public void endInput() {
    for (Map.Entry<Integer, DuplicateHashFinder> entry : finders.entrySet()) {
      int checkIndex = entry.getKey();
      long[] batch = new long[HASHES_PER_MESSAGE];
      int[] filled = {0};
      entry
          .getValue()
          .finish(
              hash -> {
                batch[filled[0]++] = hash;
                if (filled[0] == batch.length) {
                  send(checkIndex, batch, filled[0]);
                  filled[0] = 0;
                }
              });
      if (filled[0] > 0) {
        send(checkIndex, batch, filled[0]);
      }
      spilledRuns.add(entry.getValue().spilledRuns());
      entry.getValue().close();
    }
    finders.clear();
  }

  private void send(int checkIndex, long[] batch, int length) {
    output.collect(
        new StreamRecord<>(
            CommitMessages.encode(
                new CommitMessage.DuplicateKeyHashes(checkIndex, Arrays.copyOf(batch, length)))));
  }

  @Override
  public void close() throws Exception {
    try {
      if (finders != null) {
        for (DuplicateHashFinder finder : finders.values()) {
          finder.close();
        }
      }
    } finally {
      super.close();
    }
  }
}
