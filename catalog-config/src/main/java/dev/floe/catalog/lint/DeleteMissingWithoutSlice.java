package dev.floe.catalog.lint;

import java.util.List;

/** {@code delete_missing: true} without a slice: an empty source would empty the table. */
final class DeleteMissingWithoutSlice implements Check {
  static final Rule RULE =
      new Rule(
          "delete-missing-without-slice",
          Severity.ERROR,
          "delete_missing: true in a job without slice: an empty or partial source would delete"
              + " rows of the whole table.");

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    if (!manifest.is(ManifestKind.JOB)
        || !manifest.isTrue("delete_missing")
        || manifest.present("slice")) {
      return List.of();
    }
    return List.of(
        RULE.at(
            manifest,
            "delete_missing",
            "Cannot delete missing rows of %s without a slice: an empty source would delete every"
                + " row of the table; add a slice, or use mode: swap to rebuild it whole",
            manifest.text("target")));
  }
}
