package dev.floe.catalog.report;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Escaping and formatting for the report page. Every string from a table goes through here. */
final class Html {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

  private Html() {}

  /** Text safe inside an element or a quoted attribute. */
  static String escape(Object value) {
    String text = String.valueOf(value);
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /** An attribute value whose line breaks survive (for {@code title} tooltips). */
  static String multiline(String text) {
    return escape(text).replace("\n", "&#10;");
  }

  /** An instant in UTC, to the second: {@code 2026-10-04 01:00:00Z}. */
  static String time(Instant instant) {
    return TIME.format(instant);
  }

  /** {@code 1 row}, {@code 3 rows}. */
  static String count(long n, String singular) {
    return n + " " + (n == 1 ? singular : singular + "s");
  }
}
