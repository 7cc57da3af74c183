package dev.floe.catalog.lineage;

import dev.floe.catalog.error.InvalidInputException;
import java.io.Serializable;
import java.util.Locale;

/**
 * An order-independent hash of a multiset of rows: the row count plus the sum, modulo 2^128, of
 * each row's 128-bit hash. A sum and not XOR, because with XOR two equal rows would cancel out and
 * a duplicated row would go unnoticed. Independent of row order and file layout, so two runs that
 * write the same rows in different files compare equal.
 */
public final class ContentHash implements Serializable {
  private long rows;
  private long high;
  private long low;

  private ContentHash(long rows, long high, long low) {
    this.rows = rows;
    this.high = high;
    this.low = low;
  }

  public static ContentHash empty() {
    return new ContentHash(0, 0, 0);
  }

  /** Adds one row's 128-bit hash (two 64-bit halves). */
  public void add(long rowHigh, long rowLow) {
    long sumLow = low + rowLow;
    long carry = Long.compareUnsigned(sumLow, low) < 0 ? 1 : 0;
    low = sumLow;
    high = high + rowHigh + carry;
    rows++;
  }

  /** Adds every row of {@code other} (the writers' partial hashes combine in the committer). */
  public void merge(ContentHash other) {
    long sumLow = low + other.low;
    long carry = Long.compareUnsigned(sumLow, low) < 0 ? 1 : 0;
    low = sumLow;
    high = high + other.high + carry;
    rows += other.rows;
  }

  public long rows() {
    return rows;
  }

  /** The text kept in the snapshot summary, e.g. {@code 2:0f3a...} (rows, then 32 hex digits). */
  public String encode() {
    return rows + ":" + String.format(Locale.ROOT, "%016x%016x", high, low);
  }

  public static ContentHash decode(String text) {
    int colon = text == null ? -1 : text.indexOf(':');
    if (colon < 0 || text.length() - colon - 1 != 32) {
      throw InvalidInputException.of(
          "Cannot read content hash '%s': expected <rows>:<32 hex digits>", text);
    }
    try {
      return new ContentHash(
          Long.parseLong(text.substring(0, colon)),
          Long.parseUnsignedLong(text.substring(colon + 1, colon + 17), 16),
          Long.parseUnsignedLong(text.substring(colon + 17), 16));
    } catch (NumberFormatException e) {
      throw InvalidInputException.of("Cannot read content hash '%s': %s", text, e.getMessage());
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ContentHash other
        && rows == other.rows
        && high == other.high
        && low == other.low;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(rows) * 31 + Long.hashCode(high) * 17 + Long.hashCode(low);
  }

  @Override
  public String toString() {
    return encode();
  }
}
