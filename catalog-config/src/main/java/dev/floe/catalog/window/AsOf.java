package dev.floe.catalog.window;

import dev.floe.catalog.error.InvalidInputException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * Reads an {@code --as-of} value: an instant with an offset ({@code 2026-10-20T02:00:00Z}) or a
 * date ({@code 2026-10-20}), which means the start of that day in UTC, the same calendar slice
 * bounds use. A date-time without an offset is refused: its instant would depend on the machine.
 */
public final class AsOf {

  private AsOf() {}

  /**
   * @param option the option's name for messages, e.g. {@code --as-of}
   * @param text the value
   * @throws InvalidInputException when the value is neither form
   */
  public static Instant parse(String option, String text) {
    String value = text == null ? "" : text.trim();
    try {
      if (value.length() == 10) {
        return LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant();
      }
      return OffsetDateTime.parse(value).toInstant();
    } catch (DateTimeParseException e) {
      throw InvalidInputException.of(
          "Cannot parse %s '%s': expected a date such as 2026-10-20 (its start in UTC) or an"
              + " instant with an offset such as 2026-10-20T02:00:00Z",
          option, text);
    }
  }
}
