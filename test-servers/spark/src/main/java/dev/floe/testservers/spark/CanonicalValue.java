package dev.floe.testservers.spark;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * One text form for a value, whichever engine read it: Spark's rows (with the java8 datetime API)
 * and Iceberg's generic records encode the same stored value to the same string, so two engines'
 * results compare as multisets of lines. Exact by construction: no value is rounded or reformatted
 * with a precision of its own (decimals keep their scale, timestamps their microseconds, -0.0 and
 * NaN stay themselves), and every form carries a type tag, so {@code 1} (int) never equals {@code
 * 1.0} (double) or {@code "1"} (string). Plain Java: the Spark driver and the tests share it.
 */
public final class CanonicalValue {
  private static final HexFormat HEX = HexFormat.of();

  private CanonicalValue() {}

  /** One row: its values' forms, in column order, separated by {@code |}. */
  public static String row(List<?> values) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        out.append('|');
      }
      out.append(of(values.get(i)));
    }
    return out.toString();
  }

  /**
   * The form of one value. Types map the way Spark's Iceberg runtime maps them: Iceberg's uuid is a
   * Spark string, fixed and binary are Spark binary, timestamptz a Spark timestamp (an instant).
   */
  public static String of(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof String s) {
      return "s'" + s.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'";
    }
    if (value instanceof UUID uuid) {
      return of(uuid.toString());
    }
    if (value instanceof Boolean || value instanceof Integer || value instanceof Long) {
      return value.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT) + ":" + value;
    }
    if (value instanceof Float f) {
      return "float:" + Float.toString(f) + "/" + Integer.toHexString(Float.floatToRawIntBits(f));
    }
    if (value instanceof Double d) {
      return "double:" + Double.toString(d) + "/" + Long.toHexString(Double.doubleToRawLongBits(d));
    }
    if (value instanceof BigDecimal decimal) {
      return "decimal:" + decimal.unscaledValue() + "e-" + decimal.scale();
    }
    if (value instanceof LocalDate date) {
      return "date:" + date;
    }
    if (value instanceof LocalTime time) {
      return "time:" + time.toNanoOfDay() / 1000;
    }
    if (value instanceof LocalDateTime local) {
      return "timestamp:" + local;
    }
    if (value instanceof OffsetDateTime offset) {
      return of(offset.toInstant());
    }
    if (value instanceof Instant instant) {
      return "timestamptz:" + instant;
    }
    if (value instanceof byte[] bytes) {
      return "binary:" + HEX.formatHex(bytes);
    }
    if (value instanceof ByteBuffer buffer) {
      ByteBuffer copy = buffer.duplicate();
      byte[] bytes = new byte[copy.remaining()];
      copy.get(bytes);
      return of(bytes);
    }
    throw new IllegalArgumentException(
        "Cannot encode a value of " + value.getClass().getName() + ": " + value);
  }
}
