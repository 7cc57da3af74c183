package dev.floe.flink.sql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import org.apache.flink.types.Row;

/**
 * The canonical text and JSON form of one SQL value as Flink returns it. Values must read the same
 * on every machine: DECIMAL keeps its scale, TIMESTAMP_LTZ is shown in UTC, nothing is rounded.
 *
 * <p>TIMESTAMP_LTZ (a Java {@link Instant}) reads differently in the two forms, on purpose. The
 * text table is for people comparing with SQL databases, so it prints the UTC offset as PostgreSQL
 * prints a timestamptz in a UTC session: {@code 2026-10-03 12:00:00+00}. JSON is for programs, so
 * it stays ISO 8601 with {@code Z} ({@code 2026-10-03T12:00:00Z}): Java's {@code Instant.parse} and
 * JavaScript's {@code Date} read that as is but refuse {@code +00} (hours without minutes), and
 * scripts already parsing {@code --json} output keep working.
 */
final class SqlValues {

  static final String NULL_TEXT = "NULL";

  /** PostgreSQL's spelling of the UTC offset of a timestamptz: hours only, as {@code +00}. */
  static final String UTC_OFFSET_TEXT = "+00";

  private SqlValues() {}

  /** For the text table: SQL style, {@code 2026-10-03 12:00:00} and {@code ...12:00:00+00}. */
  static String text(Object value) {
    if (value == null) {
      return NULL_TEXT;
    }
    if (value instanceof LocalDateTime timestamp) {
      return timestamp(timestamp, ' ');
    }
    if (value instanceof Instant instant) {
      return timestamp(LocalDateTime.ofInstant(instant, ZoneOffset.UTC), ' ') + UTC_OFFSET_TEXT;
    }
    return scalarText(value, SqlValues::text);
  }

  /** For JSON: ISO 8601 strings, {@code 2026-10-03T12:00:00} and {@code ...12:00:00Z}. */
  static String isoText(Object value) {
    if (value instanceof LocalDateTime timestamp) {
      return timestamp(timestamp, 'T');
    }
    if (value instanceof Instant instant) {
      return timestamp(LocalDateTime.ofInstant(instant, ZoneOffset.UTC), 'T') + "Z";
    }
    return scalarText(value, SqlValues::isoText);
  }

  /**
   * Numbers stay JSON numbers (decimals exact, with their scale); the rest as {@link #isoText}. A
   * map is an object keyed by each key's {@link #isoText}, or, for a ROW, ARRAY or MAP key, by its
   * JSON text.
   *
   * @throws IllegalArgumentException naming what JSON cannot hold: a map with a NULL key, or with
   *     two keys of the same text
   */
  static JsonNode json(Object value, JsonNodeFactory nodes) {
    if (value == null) {
      return nodes.nullNode();
    }
    if (value instanceof BigDecimal decimal) {
      return nodes.numberNode(decimal);
    }
    if (value instanceof Long || value instanceof Integer) {
      return nodes.numberNode(((Number) value).longValue());
    }
    if (value instanceof Short || value instanceof Byte) {
      return nodes.numberNode(((Number) value).intValue());
    }
    if (value instanceof BigInteger integer) {
      return nodes.numberNode(integer);
    }
    if (value instanceof Double || value instanceof Float) {
      double number = ((Number) value).doubleValue();
      // JSON has no NaN or Infinity.
      if (Double.isFinite(number)) {
        return value instanceof Float f ? nodes.numberNode(f) : nodes.numberNode(number);
      }
      return nodes.textNode(value.toString());
    }
    if (value instanceof Boolean bool) {
      return nodes.booleanNode(bool);
    }
    if (value instanceof Row row) {
      ArrayNode fields = nodes.arrayNode();
      for (int i = 0; i < row.getArity(); i++) {
        fields.add(json(row.getField(i), nodes));
      }
      return fields;
    }
    if (value instanceof Map<?, ?> map) {
      ObjectNode object = nodes.objectNode();
      map.forEach(
          (k, v) -> {
            // Either would lose an entry without a word: a NULL key reads as the text NULL.
            if (k == null) {
              throw new IllegalArgumentException(
                  "a map with a NULL key, which a JSON object cannot hold; give the key a value"
                      + " (COALESCE)");
            }
            String key = jsonKey(k, nodes);
            if (object.has(key)) {
              throw new IllegalArgumentException(
                  "a map with two keys that read '" + key + "' as JSON text");
            }
            object.set(key, json(v, nodes));
          });
      return object;
    }
    if (value.getClass().isArray() && !(value instanceof byte[])) {
      ArrayNode elements = nodes.arrayNode();
      for (int i = 0; i < Array.getLength(value); i++) {
        elements.add(json(Array.get(value, i), nodes));
      }
      return elements;
    }
    return nodes.textNode(isoText(value));
  }

  /**
   * A map key as JSON object key: a scalar as its {@link #isoText}, a ROW, ARRAY or MAP as its JSON
   * text ({@code ["a, b","c"]}), which keeps apart what the SQL-style text would not ({@code
   * ROW('a, b', 'c')} and {@code ROW('a', 'b, c')}).
   */
  private static String jsonKey(Object key, JsonNodeFactory nodes) {
    boolean composite =
        key instanceof Row
            || key instanceof Map<?, ?>
            || (key.getClass().isArray() && !(key instanceof byte[]));
    return composite ? json(key, nodes).toString() : isoText(key);
  }

  private interface Renderer {
    String render(Object value);
  }

  private static String scalarText(Object value, Renderer nested) {
    if (value == null) {
      return NULL_TEXT;
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    }
    if (value instanceof LocalTime time) {
      return time(time);
    }
    if (value instanceof LocalDate date) {
      return date.toString();
    }
    if (value instanceof Boolean bool) {
      return bool ? "TRUE" : "FALSE";
    }
    if (value instanceof byte[] bytes) {
      return HexFormat.of().formatHex(bytes);
    }
    if (value instanceof Row row) {
      StringJoiner fields = new StringJoiner(", ", "(", ")");
      for (int i = 0; i < row.getArity(); i++) {
        fields.add(nested.render(row.getField(i)));
      }
      return fields.toString();
    }
    if (value instanceof Map<?, ?> map) {
      StringJoiner entries = new StringJoiner(", ", "{", "}");
      map.forEach((k, v) -> entries.add(nested.render(k) + "=" + nested.render(v)));
      return entries.toString();
    }
    if (value.getClass().isArray()) {
      StringJoiner elements = new StringJoiner(", ", "[", "]");
      for (int i = 0; i < Array.getLength(value); i++) {
        elements.add(nested.render(Array.get(value, i)));
      }
      return elements.toString();
    }
    return value.toString();
  }

  private static String timestamp(LocalDateTime timestamp, char separator) {
    return timestamp.toLocalDate() + String.valueOf(separator) + time(timestamp.toLocalTime());
  }

  /**
   * Seconds always, fractions only when present and in groups of three digits: {@code 12:00:00},
   * {@code 12:00:00.123}, {@code 12:00:00.123456}. ({@code LocalTime.toString} drops zero seconds.)
   */
  private static String time(LocalTime time) {
    String hms =
        String.format(
            Locale.ROOT, "%02d:%02d:%02d", time.getHour(), time.getMinute(), time.getSecond());
    int nanos = time.getNano();
    if (nanos == 0) {
      return hms;
    }
    if (nanos % 1_000_000 == 0) {
      return hms + String.format(Locale.ROOT, ".%03d", nanos / 1_000_000);
    }
    if (nanos % 1_000 == 0) {
      return hms + String.format(Locale.ROOT, ".%06d", nanos / 1_000);
    }
    return hms + String.format(Locale.ROOT, ".%09d", nanos);
  }
}
