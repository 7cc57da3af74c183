package dev.floe.flink.check;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A batch of 64-bit key hashes of one unique check, bound for one duplicate finder: what the
 * writers send through the exchange instead of a record per row, so that the exchange pays its
 * per-record costs (a stream record, a partitioner call, a serializer call, a record on disk) once
 * per batch, and the bytes are copied in bulk.
 *
 * <p>A key's hash is the high half of its 128-bit murmur3 hash ({@code RowDataHasher#hash64Of}):
 * the same key always has the same hash, so no duplicate is missed; two different keys sharing one
 * only make a candidate, which the committer's confirmation against the written keys drops ({@code
 * DuplicateKeySamples}). Eight bytes a key halve what 128 bits cost the exchange and the finders;
 * the price is a confirmation read of the key columns in the rare passing run whose keys collide
 * (about n²/2⁶⁵ for n keys: one run in 370,000 at 10 M keys, 3 % at a billion).
 *
 * <p>Sent as {@code byte[]} (Flink's primitive array serializer: a length and one bulk copy, no
 * Kryo, no boxing): the check index and the bucket as two little-endian ints, then each hash as a
 * little-endian long. Every writer puts a hash into the same bucket ({@link #bucketOf(long, int)}),
 * so all copies of a key reach the same finder.
 */
public final class KeyHashBatch {
  /** Hashes per batch at most: 64 KiB of hashes. */
  public static final int DEFAULT_CAPACITY = 8192;

  /** Bytes a hash takes in a batch. */
  public static final int BYTES_PER_HASH = 8;

  /** Hashes per batch at least, however many batches a writer holds. */
  static final int MIN_CAPACITY = 64;

  /**
   * What one writer's batches may hold at once, over all unique checks and buckets: each writer
   * holds a batch per check and per finder, so a fixed batch size would grow with the parallelism
   * (at 256 writers, 3 checks and 8,192 hashes, 50 MB per writer and 13 GB in all).
   */
  public static final long WRITER_BUDGET_BYTES = 8L << 20;

  /**
   * Hashes per batch for a writer holding {@code batches} batches: {@link #DEFAULT_CAPACITY} while
   * they fit {@link #WRITER_BUDGET_BYTES}, less beyond, never below {@link #MIN_CAPACITY}.
   */
  public static int capacityFor(int batches) {
    long fits = WRITER_BUDGET_BYTES / ((long) BYTES_PER_HASH * Math.max(1, batches));
    return (int) Math.max(MIN_CAPACITY, Math.min(DEFAULT_CAPACITY, fits));
  }

  private static final int HEADER_BYTES = 8;
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final int checkIndex;
  private final int bucket;
  private final int capacity;
  private byte[] bytes;
  private int size;

  /**
   * @param checkIndex the unique check's position in the manifest
   * @param bucket the finder bucket every hash of this batch belongs to
   * @param capacity hashes per batch
   */
  public KeyHashBatch(int checkIndex, int bucket, int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("Cannot batch key hashes: capacity " + capacity + " < 1");
    }
    this.checkIndex = checkIndex;
    this.bucket = bucket;
    this.capacity = capacity;
  }

  /** The bucket of a hash among {@code buckets}: the same in every writer. */
  public static int bucketOf(long hash, int buckets) {
    return (int) Long.remainderUnsigned(hash, buckets);
  }

  /** Adds a hash; returns true when the batch is full and must be {@linkplain #take taken}. */
  public boolean add(long hash) {
    if (bytes == null) {
      bytes = newBatch(); // on the first hash: a bucket no hash reaches costs nothing
    }
    LONGS.set(bytes, HEADER_BYTES + BYTES_PER_HASH * size, hash);
    return ++size == capacity;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** The encoded batch (its hashes only); the batch starts empty again. */
  public byte[] take() {
    byte[] taken =
        size == capacity ? bytes : Arrays.copyOf(bytes, HEADER_BYTES + BYTES_PER_HASH * size);
    bytes = size == capacity ? null : bytes;
    size = 0;
    return taken;
  }

  private byte[] newBatch() {
    byte[] fresh = new byte[HEADER_BYTES + BYTES_PER_HASH * capacity];
    INTS.set(fresh, 0, checkIndex);
    INTS.set(fresh, 4, bucket);
    return fresh;
  }

  /** The check index of an encoded batch. */
  public static int checkIndex(byte[] batch) {
    return (int) INTS.get(batch, 0);
  }

  /** The bucket of an encoded batch. */
  public static int bucket(byte[] batch) {
    return (int) INTS.get(batch, 4);
  }

  /** The number of hashes in an encoded batch. */
  public static int size(byte[] batch) {
    return (batch.length - HEADER_BYTES) / BYTES_PER_HASH;
  }

  /** Hash {@code i} of an encoded batch. */
  public static long hash(byte[] batch, int i) {
    return (long) LONGS.get(batch, HEADER_BYTES + BYTES_PER_HASH * i);
  }
}
