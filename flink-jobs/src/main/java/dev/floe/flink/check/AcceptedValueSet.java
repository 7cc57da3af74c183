package dev.floe.flink.check;

import dev.floe.flink.row.RowDataHasher;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * The values an {@code accepted_values} check accepts, compared as values of the column's type, not
 * as text: {@code 1.5} accepts a decimal(10,2) 1.50, {@code 2026-10-04 10:00} and {@code
 * 2026-10-04T10:00:00.000000} accept the same timestamp. A value the column's type cannot hold is
 * refused when the job is planned ({@link #of}).
 */
final class AcceptedValueSet {
  private final Set<Object> accepted;
  private final Function<RowData, Object> read;

  private AcceptedValueSet(Set<Object> accepted, Function<RowData, Object> read) {
    this.accepted = accepted;
    this.read = read;
  }

  /**
   * @param type the column's type
   * @param pos the column's position in the rows
   * @param values the manifest's values, as written
   * @throws IllegalArgumentException naming the first value the type cannot hold, and why
   */
  static AcceptedValueSet of(LogicalType type, int pos, List<String> values) {
    Function<String, Object> parse;
    Function<RowData, Object> read;
    switch (type.getTypeRoot()) {
      case TINYINT, SMALLINT, INTEGER, BIGINT -> {
        long min =
            switch (type.getTypeRoot()) {
              case TINYINT -> Byte.MIN_VALUE;
              case SMALLINT -> Short.MIN_VALUE;
              case INTEGER -> Integer.MIN_VALUE;
              default -> Long.MIN_VALUE;
            };
        long max = -(min + 1);
        parse = text -> inRange(Long.parseLong(text.strip()), min, max);
        read =
            switch (type.getTypeRoot()) {
              case TINYINT -> row -> (long) row.getByte(pos);
              case SMALLINT -> row -> (long) row.getShort(pos);
              case INTEGER -> row -> (long) row.getInt(pos);
              default -> row -> row.getLong(pos);
            };
      }
      case DECIMAL -> {
        DecimalType decimal = (DecimalType) type;
        parse = text -> canonical(fits(new BigDecimal(text.strip()), decimal));
        read =
            row ->
                canonical(
                    row.getDecimal(pos, decimal.getPrecision(), decimal.getScale()).toBigDecimal());
      }
      case FLOAT -> {
        parse = text -> canonical((float) exactly(text, true));
        read = row -> canonical(row.getFloat(pos));
      }
      case DOUBLE -> {
        parse = text -> canonical(exactly(text, false));
        read = row -> canonical(row.getDouble(pos));
      }
      case BOOLEAN -> {
        parse = AcceptedValueSet::parseBoolean;
        read = row -> row.getBoolean(pos);
      }
      case DATE -> {
        parse = text -> (int) LocalDate.parse(text.strip()).toEpochDay();
        read = row -> row.getInt(pos);
      }
      case TIMESTAMP_WITHOUT_TIME_ZONE -> {
        int precision = ((TimestampType) type).getPrecision();
        parse = text -> micros(LocalDateTime.parse(isoText(text)));
        read = row -> RowDataHasher.micros(row.getTimestamp(pos, precision));
      }
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
        int precision = ((LocalZonedTimestampType) type).getPrecision();
        parse =
            text ->
                micros(
                    OffsetDateTime.parse(isoText(text))
                        .withOffsetSameInstant(ZoneOffset.UTC)
                        .toLocalDateTime());
        read = row -> RowDataHasher.micros(row.getTimestamp(pos, precision));
      }
      case CHAR, VARCHAR -> {
        parse = text -> text;
        read = row -> row.getString(pos).toString();
      }
      default -> {
        return null;
      }
    }
    Set<Object> accepted = new HashSet<>();
    for (String value : values) {
      try {
        accepted.add(parse.apply(value));
      } catch (NumberFormatException | DateTimeParseException e) {
        throw new IllegalArgumentException(
            String.format(
                "value '%s' is not a %s%s%s",
                value,
                type.asSummaryString().toLowerCase(Locale.ROOT),
                e instanceof Unfit ? " (" + e.getMessage() + ")" : "",
                type.getTypeRoot().name().startsWith("TIMESTAMP_WITH")
                    ? " (give an offset: 2026-10-04 10:00:00Z)"
                    : ""),
            e);
      }
    }
    return new AcceptedValueSet(accepted, read);
  }

  /** Whether the (non-null) value at the column's position is accepted. */
  boolean accepts(RowData row) {
    return accepted.contains(read.apply(row));
  }

  private static long inRange(long value, long min, long max) {
    if (value < min || value > max) {
      throw new Unfit("out of the column's range");
    }
    return value;
  }

  /** The decimal, when the column holds it without rounding (its scale and precision). */
  private static BigDecimal fits(BigDecimal value, DecimalType type) {
    BigDecimal stripped = value.stripTrailingZeros();
    // Digits left of the point, from precision and scale alone: 1e999999999 is never expanded.
    long integerDigits = (long) stripped.precision() - stripped.scale();
    if (Math.max(stripped.scale(), 0) > type.getScale()
        || (stripped.signum() != 0 && integerDigits > type.getPrecision() - type.getScale())) {
      throw new Unfit("more digits than the column holds");
    }
    return value;
  }

  /**
   * The float or double the text names exactly: NaN and the infinities as spelled, any other value
   * only when the binary value equals the decimal one (0.5, 16777216; not 0.1 or 16777217 for a
   * float, nor 1e400).
   */
  private static double exactly(String text, boolean single) {
    String value = text.strip();
    switch (value) {
      case "NaN":
        return Double.NaN;
      case "Infinity", "+Infinity":
        return Double.POSITIVE_INFINITY;
      case "-Infinity":
        return Double.NEGATIVE_INFINITY;
      default:
        break;
    }
    BigDecimal decimal = new BigDecimal(value);
    double parsed = single ? Float.parseFloat(value) : Double.parseDouble(value);
    if (Double.isInfinite(parsed) || decimal.compareTo(new BigDecimal(parsed)) != 0) {
      throw new Unfit("no " + (single ? "float" : "double") + " is exactly that");
    }
    return parsed;
  }

  private static Object parseBoolean(String text) {
    String value = text.strip().toLowerCase(Locale.ROOT);
    if (!value.equals("true") && !value.equals("false")) {
      throw new NumberFormatException(text);
    }
    return Boolean.valueOf(value);
  }

  /** "2026-10-04 10:00:00" as ISO: the date and the time separated by T. */
  private static String isoText(String text) {
    String value = text.strip();
    return value.length() > 10 && value.charAt(10) == ' '
        ? value.substring(0, 10) + 'T' + value.substring(11)
        : value;
  }

  /** Microseconds from the epoch; a value finer than a microsecond no column here can hold. */
  private static long micros(LocalDateTime utc) {
    if (utc.getNano() % 1_000 != 0) {
      throw new NumberFormatException("finer than a microsecond");
    }
    return ChronoUnit.MICROS.between(LocalDateTime.of(1970, 1, 1, 0, 0), utc);
  }

  private static BigDecimal canonical(BigDecimal value) {
    return value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
  }

  private static Object canonical(float value) {
    return value == 0f ? 0f : value; // -0.0 = 0.0, as SQL compares them
  }

  private static Object canonical(double value) {
    return value == 0d ? 0d : value;
  }

  /** A number the column's type cannot hold exactly, with why. */
  private static final class Unfit extends NumberFormatException {
    Unfit(String reason) {
      super(reason);
    }
  }
}
