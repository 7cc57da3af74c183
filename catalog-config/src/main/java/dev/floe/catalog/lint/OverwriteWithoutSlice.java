package dev.floe.catalog.lint;

import dev.floe.catalog.job.WriteMode;
import java.util.List;
import java.util.Optional;

/** An overwrite without a slice: it would have to replace the whole table, which is a swap. */
final class OverwriteWithoutSlice implements Check {
  static final Rule RULE =
      new Rule(
          "overwrite-without-slice",
          Severity.ERROR,
          "An overwrite job (the default mode) without slice: an overwrite replaces one slice;"
              + " replacing a whole table is mode: swap.");

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    if (!manifest.is(ManifestKind.JOB)
        || !manifest.mode().equals(Optional.of(WriteMode.OVERWRITE))
        || manifest.present("slice")) {
      return List.of();
    }
    return List.of(
        RULE.atLine(
            manifest,
            "slice",
            manifest.modeLine(),
            "Cannot overwrite %s without a slice: an overwrite replaces exactly one slice; add"
                + " slice: {column: ...}, or use mode: swap to replace the whole table",
            manifest.text("target")));
  }
}
