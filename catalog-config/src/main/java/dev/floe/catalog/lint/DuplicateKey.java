package dev.floe.catalog.lint;

import java.util.List;

/** A key set twice in one mapping: YAML readers keep the last one without a word. */
final class DuplicateKey implements Check {
  static final Rule RULE =
      new Rule(
          "duplicate-key",
          Severity.ERROR,
          "A key set twice in one mapping: the last one wins silently, so the first is a setting"
              + " that looks applied and is not.");

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    return manifest.lines().duplicates().stream()
        .map(
            duplicate ->
                RULE.atLine(
                    manifest,
                    duplicate.path(),
                    duplicate.line(),
                    "Cannot tell which '%s' is meant: it is set twice (first on line %d), and the"
                        + " last one wins",
                    duplicate.path(),
                    duplicate.firstLine()))
        .toList();
  }
}
