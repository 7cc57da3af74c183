package dev.floe.catalog.lineage;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Encodes one row into a canonical byte string and hashes it (murmur3, 128 bits). The encoding is
 * the contract between the writers (Flink RowData) and table scans (Iceberg records): both call the
 * same put methods for the same logical values, so the same rows hash the same wherever they come
 * from. Columns are put in the table schema's order; every value is preceded by a marker so that
 * null, empty and zero differ. One encoder per thread: it reuses its buffer.
 */
public final class CanonicalRowEncoder {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;
  private static final byte NULL = 0;
  private static final byte VALUE = 1;
  private static final byte STRUCT = 2;
  private static final byte LIST = 3;
  private static final byte MAP = 4;

  private byte[] buffer = new byte[256];
  private int length;
  private long h1;
  private long h2;

  /** Starts a new row. */
  public void reset() {
    length = 0;
  }

  public void putNull() {
    ensure(1);
    buffer[length++] = NULL;
  }

  public void putBoolean(boolean value) {
    ensure(2);
    buffer[length++] = VALUE;
    buffer[length++] = (byte) (value ? 1 : 0);
  }

  /** int and date (days since epoch). */
  public void putInt(int value) {
    ensure(5);
    buffer[length++] = VALUE;
    writeInt(value);
  }

  /** long, time (micros of day), timestamp and timestamptz (micros since epoch UTC). */
  public void putLong(long value) {
    ensure(9);
    buffer[length++] = VALUE;
    writeLong(value);
  }

  /**
   * A float by its bits, every NaN as the canonical one ({@link Float#floatToIntBits}): Parquet's
   * writer stores each NaN so, whatever its sign and payload, and Java's {@code equals} compares
   * them so. -0.0 and 0.0 differ.
   */
  public void putFloat(float value) {
    putInt(Float.floatToIntBits(value));
  }

  /** A double by its bits, every NaN as the canonical one, as {@link #putFloat}. */
  public void putDouble(double value) {
    putLong(Double.doubleToLongBits(value));
  }

  /** A decimal as unscaled value plus scale, so 70.00 and 70.0 differ as the table's type does. */
  public void putDecimal(BigInteger unscaled, int scale) {
    byte[] bytes = unscaled.toByteArray();
    ensure(9 + bytes.length);
    buffer[length++] = VALUE;
    writeInt(scale);
    writeInt(bytes.length);
    System.arraycopy(bytes, 0, buffer, length, bytes.length);
    length += bytes.length;
  }

  /**
   * The same bytes as {@link #putDecimal(BigInteger, int)} with {@code
   * BigInteger.valueOf(unscaled)} (the minimal big-endian two's complement), without allocating one
   * per value.
   */
  public void putDecimal(long unscaled, int scale) {
    int bitLength = 64 - Long.numberOfLeadingZeros(unscaled < 0 ? ~unscaled : unscaled);
    int count = bitLength / 8 + 1;
    ensure(9 + count);
    buffer[length++] = VALUE;
    writeInt(scale);
    writeInt(count);
    for (int shift = 8 * (count - 1); shift >= 0; shift -= 8) {
      buffer[length++] = (byte) (unscaled >>> shift);
    }
  }

  /** Strings as UTF-8, binary, fixed and uuid as their bytes; the length keeps values apart. */
  public void putBytes(byte[] bytes, int offset, int count) {
    ensure(5 + count);
    buffer[length++] = VALUE;
    writeInt(count);
    System.arraycopy(bytes, offset, buffer, length, count);
    length += count;
  }

  public void putBytes(byte[] bytes) {
    putBytes(bytes, 0, bytes.length);
  }

  public void putString(CharSequence value) {
    putBytes(value.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** The number of bytes encoded since {@link #reset()}: a mark for {@link #putEncoded}. */
  public int length() {
    return length;
  }

  /**
   * Appends the bytes {@code source} encoded from mark {@code from} to mark {@code to} since its
   * reset, as they are: the same bytes as putting the same values again, without reading them again
   * (e.g. a key's columns, taken from the row's encoding).
   */
  public void putEncoded(CanonicalRowEncoder source, int from, int to) {
    int count = to - from;
    ensure(count);
    System.arraycopy(source.buffer, from, buffer, length, count);
    length += count;
  }

  /** A struct of {@code fields} fields follows (each put in order, nulls as null). */
  public void putStructStart(int fields) {
    ensure(5);
    buffer[length++] = STRUCT;
    writeInt(fields);
  }

  /** A list of {@code size} elements follows, in order. */
  public void putListStart(int size) {
    ensure(5);
    buffer[length++] = LIST;
    writeInt(size);
  }

  /**
   * A map, as the order-independent hash of its entries: each entry (key then value) is hashed with
   * its own encoder and added to {@code entries}, as rows are added to a content hash.
   */
  public void putMap(ContentHash entries) {
    String encoded = entries.encode();
    ensure(1);
    buffer[length++] = MAP;
    putString(encoded);
  }

  /** Hashes the row put since {@link #reset()} and adds it to {@code hash}. */
  public void addTo(ContentHash hash) {
    murmur3();
    hash.add(h1, h2);
  }

  /** A copy of the bytes encoded since {@link #reset()}: equal exactly when the values are. */
  public byte[] toByteArray() {
    return java.util.Arrays.copyOf(buffer, length);
  }

  /** The 128-bit hash of the row put since {@link #reset()}, as {@code {high, low}}. */
  public long[] hash128() {
    murmur3();
    return new long[] {h1, h2};
  }

  /**
   * The first 64 bits of the row's {@linkplain #hash128 128-bit hash} (its {@code high}), without
   * allocating: the unique check's key hash.
   */
  public long hash64() {
    murmur3();
    return h1;
  }

  /**
   * The row's murmur3 x64 128-bit hash (seed 0) into {@link #h1}, {@link #h2}: the same values as
   * Guava's {@code Hashing.murmur3_128().hashBytes(...)} read as two little-endian longs, without
   * its hasher, {@code HashCode} and byte copies per row ({@code CanonicalRowEncoderTest} pins the
   * equality).
   */
  private void murmur3() {
    long a = 0;
    long b = 0;
    int blocks = length >>> 4;
    for (int i = 0; i < blocks; i++) {
      long k1 = (long) LONGS.get(buffer, i << 4);
      long k2 = (long) LONGS.get(buffer, (i << 4) + 8);
      a ^= mixK1(k1);
      a = Long.rotateLeft(a, 27) + b;
      a = a * 5 + 0x52dce729;
      b ^= mixK2(k2);
      b = Long.rotateLeft(b, 31) + a;
      b = b * 5 + 0x38495ab5;
    }
    int tail = blocks << 4;
    long k1 = 0;
    long k2 = 0;
    switch (length & 15) {
      case 15:
        k2 ^= (long) (buffer[tail + 14] & 0xFF) << 48;
      case 14:
        k2 ^= (long) (buffer[tail + 13] & 0xFF) << 40;
      case 13:
        k2 ^= (long) (buffer[tail + 12] & 0xFF) << 32;
      case 12:
        k2 ^= (long) (buffer[tail + 11] & 0xFF) << 24;
      case 11:
        k2 ^= (long) (buffer[tail + 10] & 0xFF) << 16;
      case 10:
        k2 ^= (long) (buffer[tail + 9] & 0xFF) << 8;
      case 9:
        k2 ^= buffer[tail + 8] & 0xFF;
      case 8:
        k1 ^= (long) LONGS.get(buffer, tail);
        break;
      case 7:
        k1 ^= (long) (buffer[tail + 6] & 0xFF) << 48;
      case 6:
        k1 ^= (long) (buffer[tail + 5] & 0xFF) << 40;
      case 5:
        k1 ^= (long) (buffer[tail + 4] & 0xFF) << 32;
      case 4:
        k1 ^= (long) (buffer[tail + 3] & 0xFF) << 24;
      case 3:
        k1 ^= (long) (buffer[tail + 2] & 0xFF) << 16;
      case 2:
        k1 ^= (long) (buffer[tail + 1] & 0xFF) << 8;
      case 1:
        k1 ^= buffer[tail] & 0xFF;
        break;
      default:
        break;
    }
    a ^= mixK1(k1);
    b ^= mixK2(k2);
    a ^= length;
    b ^= length;
    a += b;
    b += a;
    a = fmix64(a);
    b = fmix64(b);
    a += b;
    b += a;
    h1 = a;
    h2 = b;
  }

  private static long mixK1(long k1) {
    return Long.rotateLeft(k1 * C1, 31) * C2;
  }

  private static long mixK2(long k2) {
    return Long.rotateLeft(k2 * C2, 33) * C1;
  }

  private static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }

  private void ensure(int extra) {
    if (length + extra > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + extra));
    }
  }

  private void writeInt(int value) {
    buffer[length++] = (byte) value;
    buffer[length++] = (byte) (value >>> 8);
    buffer[length++] = (byte) (value >>> 16);
    buffer[length++] = (byte) (value >>> 24);
  }

  private void writeLong(long value) {
    writeInt((int) value);
    writeInt((int) (value >>> 32));
  }
}
