package dev.floe.catalog.lint;

import java.util.List;

/** One rule's static check of a manifest, with the other linted manifests at hand. */
interface Check {
  Rule rule();

  /** The findings in {@code manifest}; none when the rule does not apply to its kind. */
  List<Finding> check(LintedManifest manifest, LintSet set);
}
