package dev.floe.catalog.lint;

import java.util.List;

/**
 * A partitioned table spec without a late-data policy. Only partitioned tables are sliced, so only
 * they have slices that late rows can reopen.
 */
final class TableWithoutLateData implements Check {
  static final Rule RULE =
      new Rule(
          "table-without-late-data",
          Severity.INFO,
          "A partitioned table spec without late_data: decide up front how long a slice stays open"
              + " for late rows (floe late reads it).");

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    if (!manifest.is(ManifestKind.TABLE)
        || !manifest.hasValue("partition")
        || manifest.present("late_data")) {
      return List.of();
    }
    return List.of(
        RULE.atLine(
            manifest,
            "late_data",
            manifest.line("table"),
            "Table %s has no late_data policy: decide how long a slice stays open for late rows,"
                + " e.g. late_data: {window: P3D}",
            manifest.text("table")));
  }
}
