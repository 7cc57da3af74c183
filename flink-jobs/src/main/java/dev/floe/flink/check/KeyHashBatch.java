package dev.floe.flink.check;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A batch of 128-bit key hashes of one unique check, bound for one duplicate finder: what the
 * writers send through the exchange instead of a record per row, so that the exchange pays its
 * per-record costs (a stream record, a partitioner call, a serializer call, a record on disk) once
 * per batch, and the bytes are copied in bulk.
 *
 * <p>Sent as {@code byte[]} (Flink's primitive array serializer: a length and one bulk copy, no
 * Kryo, no boxing): the check index and the bucket as two little-endian ints, then each hash as two
 * little-endian longs, high then low. Every writer puts a hash into the same bucket ({@link
 * #bucketOf(long, int)}), so all copies of a key reach the same finder.
 */
public final class KeyHashBatch {
  /** Hashes per batch: 64 KiB of hashes. */
  public static final int DEFAULT_CAPACITY = 4096;

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
    this.bytes = newBatch();
  }

  /** The bucket of a hash among {@code buckets}: the same in every writer. */
  public static int bucketOf(long high, int buckets) {
    return (int) Long.remainderUnsigned(high, buckets);
  }

  /** Adds a hash; returns true when the batch is full and must be {@linkplain #take taken}. */
  public boolean add(long high, long low) {
    int at = HEADER_BYTES + 16 * size;
    LONGS.set(bytes, at, high);
    LONGS.set(bytes, at + 8, low);
    return ++size == capacity;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** The encoded batch (its hashes only); the batch starts empty again. */
  public byte[] take() {
    byte[] taken = size == capacity ? bytes : Arrays.copyOf(bytes, HEADER_BYTES + 16 * size);
    bytes = size == capacity ? newBatch() : bytes;
    size = 0;
    return taken;
  }

  private byte[] newBatch() {
    byte[] fresh = new byte[HEADER_BYTES + 16 * capacity];
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
    return (batch.length - HEADER_BYTES) / 16;
  }

  /** The high half of hash {@code i} of an encoded batch. */
  public static long high(byte[] batch, int i) {
    return (long) LONGS.get(batch, HEADER_BYTES + 16 * i);
  }

  /** The low half of hash {@code i} of an encoded batch. */
  public static long low(byte[] batch, int i) {
    return (long) LONGS.get(batch, HEADER_BYTES + 16 * i + 8);
  }
}
