package dev.floe.catalog.lint;

import java.util.List;

/** A backfill that lets every slice fire its job's webhooks. */
final class BackfillAllowEffects implements Check {
  static final Rule RULE =
      new Rule(
          "backfill-allow-effects",
          Severity.WARNING,
          "A backfill with allow_effects: true: each slice fires its job's webhooks; disable"
              + " side effects during backfills (on_backfill_done sends one when it is done).");

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    if (!manifest.is(ManifestKind.BACKFILL) || !manifest.isTrue("allow_effects")) {
      return List.of();
    }
    return List.of(
        RULE.at(
            manifest,
            "allow_effects",
            "Backfill %s sets allow_effects: true, so every slice fires its job's webhooks; leave"
                + " it off and use on_backfill_done to notify once",
            BackfillConcurrency.name(manifest)));
  }
}
