package dev.floe.catalog.lint;

import java.util.Comparator;

/**
 * One thing {@code floe lint} found in a manifest.
 *
 * @param file the manifest, as the path was given (e.g. {@code examples/jobs/x.yaml})
 * @param line the 1-based line of the offending key or value
 * @param severity how much it matters
 * @param rule the rule's stable id, e.g. {@code missing-timeout}
 * @param message one line that names the value and what to do
 * @param key the key path the finding is about, e.g. {@code slice.column} (a key that is missing
 *     included); empty when it is about the whole file
 */
public record Finding(
    String file, int line, Severity severity, String rule, String message, String key) {

  /** File, then line, then rule: the order of the output. */
  public static final Comparator<Finding> ORDER =
      Comparator.comparing(Finding::file)
          .thenComparingInt(Finding::line)
          .thenComparing(Finding::rule)
          .thenComparing(Finding::message);

  /** {@code path:line: severity rule-id: message}, the compiler-style line editors understand. */
  public String text() {
    return file + ":" + line + ": " + severity.text() + " " + rule + ": " + message;
  }
}
