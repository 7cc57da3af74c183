package dev.floe.catalog.lint;

import dev.floe.catalog.error.InvalidInputException;
import java.util.Locale;

/** How much a finding matters. Ordered from least to most. */
public enum Severity {
  /** Worth knowing; never fails a lint. */
  INFO,
  /** Probably a mistake, or a safety net left out; fails a lint run with --severity warning. */
  WARNING,
  /** A task that cannot be retried safely, or a manifest the run would refuse. */
  ERROR;

  /** The spelling in output and on the command line, e.g. {@code warning}. */
  public String text() {
    return name().toLowerCase(Locale.ROOT);
  }

  public boolean atLeast(Severity threshold) {
    return compareTo(threshold) >= 0;
  }

  /**
   * @throws InvalidInputException naming the value when it is not info, warning or error
   */
  public static Severity parse(String text) {
    for (Severity severity : values()) {
      if (severity.text().equals(text.toLowerCase(Locale.ROOT))) {
        return severity;
      }
    }
    throw InvalidInputException.of(
        "Cannot use severity '%s': expected info, warning or error", text);
  }
}
