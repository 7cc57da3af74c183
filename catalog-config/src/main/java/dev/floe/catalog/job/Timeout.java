package dev.floe.catalog.job;

import dev.floe.catalog.config.Durations;
import dev.floe.catalog.error.InvalidInputException;
import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/**
 * An explicit bound on how long a task may run ("task timeouts should be explicit"), and where it
 * was set, so that a run that outlives it can say which setting stopped it.
 *
 * <p>Written as ISO-8601 ({@code PT30M}, {@code PT2H}, {@code PT1H30M}, {@code P1D}) or as one
 * number and a unit ({@code 90s}, {@code 30m}, {@code 2h}, {@code 1d}; {@code ms} too). It must be
 * positive and at most {@value #MAX_DAYS} days.
 *
 * @param duration how long, positive
 * @param text the value as written, e.g. {@code PT30M} or {@code 30m}
 * @param origin where it was set, e.g. {@code --timeout} or {@code timeout in jobs/x.yaml}
 */
public record Timeout(Duration duration, String text, String origin) implements Serializable {
  /** The forms a timeout may take, for help texts and error messages. */
  public static final String FORMS = Durations.FORMS;

  static final int MAX_DAYS = 365;

  public Timeout {
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(origin, "origin");
  }

  /**
   * Reads a timeout.
   *
   * @throws IllegalArgumentException saying why {@code text} is not one (without the text itself,
   *     which callers put in their own message with the key or flag)
   */
  public static Duration parseDuration(String text) {
    String trimmed = text == null ? "" : text.trim();
    if (trimmed.startsWith("-")) {
      throw new IllegalArgumentException("a timeout must be positive, " + FORMS);
    }
    Duration duration = Durations.parse(trimmed);
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("a timeout must be positive, " + FORMS);
    }
    if (duration.toNanosPart() % 1_000_000 != 0) {
      // Deadlines are counted in milliseconds: a finer part would be dropped, not kept.
      throw new IllegalArgumentException(
          "a timeout is whole milliseconds (PT0.5S or 500ms, not PT0.0005S), " + FORMS);
    }
    if (duration.compareTo(Duration.ofDays(MAX_DAYS)) > 0) {
      throw new IllegalArgumentException("a timeout is at most " + MAX_DAYS + " days (P365D)");
    }
    return duration;
  }

  /**
   * The value of a command-line flag.
   *
   * @throws InvalidInputException (exit 2) naming the flag and the value
   */
  public static Timeout ofFlag(String flag, String text) {
    try {
      return new Timeout(parseDuration(text), text.trim(), flag);
    } catch (IllegalArgumentException e) {
      throw InvalidInputException.of("Cannot use %s '%s': %s", flag, text, e.getMessage());
    }
  }

  /** E.g. {@code 30m (--timeout)} or {@code PT30M (timeout in jobs/x.yaml)}. */
  public String describe() {
    return text + " (" + origin + ")";
  }
}
