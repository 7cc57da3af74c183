package dev.floe.catalog.lint;

import java.util.List;

/**
 * A job without an explicit timeout: a hung run holds its slice instead of failing and retrying.
 */
final class MissingTimeout implements Check {
  static final Rule RULE =
      new Rule(
          "missing-timeout",
          Severity.WARNING,
          "A job without timeout: task timeouts should be explicit, so a hung run fails and is"
              + " retried instead of holding its slice.");

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    if (!manifest.is(ManifestKind.JOB) || manifest.present("timeout")) {
      return List.of();
    }
    return List.of(
        RULE.atLine(
            manifest,
            "timeout",
            manifest.line("job"),
            "Job %s sets no timeout: a hung run would hold its slice instead of failing and"
                + " being retried; set timeout:",
            manifest.text("job")));
  }
}
