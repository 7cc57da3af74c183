package dev.floe.catalog.lineage;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.iceberg.relocated.com.google.common.hash.HashCode;
import org.apache.iceberg.relocated.com.google.common.hash.HashFunction;
import org.apache.iceberg.relocated.com.google.common.hash.Hashing;

/**
 * Encodes one row into a canonical byte string and hashes it (murmur3, 128 bits). The encoding is
 * the contract between the writers (Flink RowData) and table scans (Iceberg records): both call the
 * same put methods for the same logical values, so the same rows hash the same wherever they come
 * from. Columns are put in the table schema's order; every value is preceded by a marker so that
 * null, empty and zero differ. One encoder per thread: it reuses its buffer.
 */
public final class CanonicalRowEncoder {
  private static final HashFunction MURMUR3 = Hashing.murmur3_128();
  private static final byte NULL = 0;
  private static final byte VALUE = 1;
  private static final byte STRUCT = 2;
  private static final byte LIST = 3;
  private static final byte MAP = 4;

  private byte[] buffer = new byte[256];
  private int length;

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

  public void putFloat(float value) {
    putInt(Float.floatToIntBits(value));
  }

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

  public void putDecimal(long unscaled, int scale) {
    putDecimal(BigInteger.valueOf(unscaled), scale);
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
    HashCode code = MURMUR3.hashBytes(buffer, 0, length);
    byte[] bits = code.asBytes();
    hash.add(readLong(bits, 0), readLong(bits, 8));
  }

  /** The 128-bit hash of the row put since {@link #reset()}, as {@code {high, low}}. */
  public long[] hash128() {
    byte[] bits = MURMUR3.hashBytes(buffer, 0, length).asBytes();
    return new long[] {readLong(bits, 0), readLong(bits, 8)};
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

  private static long readLong(byte[] bytes, int offset) {
    long value = 0;
    for (int i = 7; i >= 0; i--) {
      value = (value << 8) | (bytes[offset + i] & 0xFF);
    }
    return value;
  }
}
