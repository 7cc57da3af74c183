package dev.floe.flink.job;

import dev.floe.catalog.error.InvalidInputException;
import java.util.Locale;

/** Where a run's commit becomes visible: main at once, or an audit branch published later. */
public enum PublishMode {
  /** Commit to main. */
  AUTO,
  /**
   * Write-audit-publish: commit to the branch {@code audit-<run-id>}; main is unchanged until
   * {@code floe publish}.
   */
  MANUAL;

  public String text() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * @throws InvalidInputException for anything but auto or manual
   */
  public static PublishMode parse(String text) {
    for (PublishMode mode : values()) {
      if (mode.text().equals(text)) {
        return mode;
      }
    }
    throw InvalidInputException.of("Cannot read --publish '%s': expected auto or manual", text);
  }
}
