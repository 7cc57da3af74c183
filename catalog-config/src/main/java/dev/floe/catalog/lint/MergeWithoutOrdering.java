package dev.floe.catalog.lint;

import dev.floe.catalog.job.WriteMode;
import java.util.List;
import java.util.Optional;

/** A merge without {@code ordering}: replaying an older batch would overwrite newer rows. */
final class MergeWithoutOrdering implements Check {
  static final Rule RULE =
      new Rule(
          "merge-without-ordering",
          Severity.ERROR,
          "A merge job without ordering: nothing says which row is newer, so replaying an older"
              + " batch would overwrite newer values.");

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    if (!manifest.is(ManifestKind.JOB)
        || !manifest.mode().equals(Optional.of(WriteMode.MERGE))
        || manifest.hasValue("ordering")) {
      return List.of();
    }
    return List.of(
        RULE.atLine(
            manifest,
            "ordering",
            manifest.modeLine(),
            "Cannot merge into %s without ordering: replaying an older batch would overwrite"
                + " newer rows; name the column whose greater value wins, e.g. ordering:"
                + " updated_at",
            manifest.text("target")));
  }
}
