package dev.floe.catalog.lint;

import java.util.List;
import java.util.Optional;

/**
 * A merge or insert-if-absent with a slice whose key does not hold the slice column. Such a run
 * owns only the target's rows in its slice: a key whose slice value changes (an order moved to
 * another day) is not seen in its new slice and is inserted there again, so the target holds it
 * twice.
 */
final class SlicedKeyWithoutSliceColumn implements Check {
  static final Rule RULE =
      new Rule(
          "sliced-key-without-slice-column",
          Severity.WARNING,
          "A merge or insert-if-absent with a slice whose key does not hold the slice column: a"
              + " key that moves to another slice is inserted there again, and the target holds it"
              + " twice.");

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    String column = manifest.sliceColumn();
    if (!manifest.is(ManifestKind.JOB)
        || column == null
        || manifest.mode().filter(mode -> mode.isKeyed()).isEmpty()) {
      return List.of();
    }
    Optional<List<String>> key = key(manifest, set);
    if (key.isEmpty() || key.get().stream().anyMatch(column::equalsIgnoreCase)) {
      return List.of();
    }
    return List.of(
        RULE.at(
            manifest,
            "slice",
            "A key %s of %s whose %s changes is not seen in its new slice and is inserted there"
                + " again, so %s holds it twice; add %s to the key if it never changes for a key,"
                + " or run without a slice",
            key.get(),
            manifest.text("target"),
            column,
            manifest.text("target"),
            column));
  }

  /** The job's key, else the key of its target's linted table spec; empty when neither has one. */
  private static Optional<List<String>> key(LintedManifest manifest, LintSet set) {
    if (manifest.hasValue("key")) {
      return manifest.strings("key");
    }
    return set.table(manifest.text("target"))
        .filter(table -> table.hasValue("key"))
        .flatMap(table -> table.strings("key"));
  }
}
