package dev.floe.catalog.lint;

/**
 * What a lint rule is called and how much its findings matter; {@code floe lint --help} and
 * docs/operators/lint.md list every one.
 *
 * @param id the stable id printed with each finding, e.g. {@code overwrite-without-slice}
 * @param severity the severity of its findings
 * @param summary one line: what it flags and why
 */
public record Rule(String id, Severity severity, String summary) {

  /** A finding at the line of {@code key} (or of its nearest ancestor that the file has). */
  Finding at(LintedManifest manifest, String key, String format, Object... args) {
    return atLine(manifest, key, manifest.line(key), format, args);
  }

  /** A finding about {@code key} (e.g. a missing one) shown at another line. */
  Finding atLine(LintedManifest manifest, String key, int line, String format, Object... args) {
    return new Finding(manifest.file(), line, severity, id, String.format(format, args), key);
  }
}
