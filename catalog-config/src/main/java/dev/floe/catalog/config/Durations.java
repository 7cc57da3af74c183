package dev.floe.catalog.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one way a duration is written on Floe's command line and in its manifests: ISO-8601 ({@code
 * PT30M}, {@code PT2H}, {@code P3D}) or one number and a unit ({@code 500ms}, {@code 90s}, {@code
 * 30m}, {@code 2h}, {@code 1d}). Callers check the range their setting takes.
 */
public final class Durations {
  /** The forms a duration may take, for help texts and error messages. */
  public static final String FORMS = "ISO-8601 such as PT30M or PT2H, or 90s, 30m, 2h, 1d";

  private static final Pattern SHORT = Pattern.compile("(\\d{1,12})\\s*(ms|s|m|h|d)");

  private Durations() {}

  /**
   * {@code duration} as a message shows it: {@code 30 s}, or {@code 500 ms} below whole seconds.
   */
  public static String shown(Duration duration) {
    long millis = duration.toMillis();
    return millis % 1000 == 0 ? (millis / 1000) + " s" : millis + " ms";
  }

  /**
   * @throws IllegalArgumentException saying what the forms are (without the text itself, which
   *     callers put in their own message with the key or flag)
   */
  public static Duration parse(String text) {
    String trimmed = text == null ? "" : text.trim();
    Matcher matcher = SHORT.matcher(trimmed.toLowerCase(Locale.ROOT));
    try {
      if (matcher.matches()) {
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
          case "ms" -> Duration.ofMillis(amount);
          case "s" -> Duration.ofSeconds(amount);
          case "m" -> Duration.ofMinutes(amount);
          case "h" -> Duration.ofHours(amount);
          default -> Duration.ofDays(amount);
        };
      }
      return Duration.parse(trimmed);
    } catch (DateTimeParseException | ArithmeticException e) {
      throw new IllegalArgumentException("expected a duration, " + FORMS);
    }
  }
}
