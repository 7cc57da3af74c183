package dev.floe.catalog.job;

import dev.floe.catalog.error.InvalidInputException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How a job's result replaces what the target holds. Every mode is rerun-safe; none appends. */
public enum WriteMode {
  /** Replace exactly the slice, in one snapshot. */
  OVERWRITE("overwrite", true),
  /** Upsert by key with an ordering guard (planned). */
  MERGE("merge", false),
  /** Insert rows whose key is absent (planned). */
  INSERT_IF_ABSENT("insert-if-absent", false),
  /** Rebuild a small table and replace it whole (planned). */
  SWAP("swap", false);

  private final String text;
  private final boolean implemented;

  WriteMode(String text, boolean implemented) {
    this.text = text;
    this.implemented = implemented;
  }

  public String text() {
    return text;
  }

  public static WriteMode parse(String value, String source) {
    for (WriteMode mode : values()) {
      if (mode.text.equals(value.toLowerCase(Locale.ROOT))) {
        if (!mode.implemented) {
          throw InvalidInputException.of(
              "Cannot read %s at 'mode': mode '%s' is not available in this version (available:"
                  + " overwrite)",
              source, value);
        }
        return mode;
      }
    }
    throw InvalidInputException.of(
        "Cannot read %s at 'mode': unknown mode '%s' (expected one of %s; there is no append"
            + " mode, because an append is not rerun-safe)",
        source,
        value,
        Arrays.stream(values()).map(WriteMode::text).collect(Collectors.joining(", ")));
  }
}
