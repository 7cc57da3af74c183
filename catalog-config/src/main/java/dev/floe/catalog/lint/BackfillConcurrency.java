package dev.floe.catalog.lint;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** A backfill whose concurrency is not capped explicitly, or capped high. */
final class BackfillConcurrency implements Check {
  /** More slices in flight than this can starve the daily runs or the source. */
  static final int LIMIT = 4;

  static final Rule RULE =
      new Rule(
          "backfill-concurrency",
          Severity.WARNING,
          "A backfill without max_concurrency, or with more than "
              + LIMIT
              + ": cap it explicitly so the backfill does not starve the daily runs or overwhelm"
              + " the source.");

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    if (!manifest.is(ManifestKind.BACKFILL)) {
      return List.of();
    }
    JsonNode value = manifest.root().get("max_concurrency");
    if (value == null || value.isNull()) {
      return List.of(
          RULE.atLine(
              manifest,
              "max_concurrency",
              manifest.line(manifest.present("backfill") ? "backfill" : "job"),
              "Backfill %s sets no max_concurrency: cap it explicitly (1 to %d) so it does not"
                  + " starve the daily runs or the source",
              name(manifest),
              LIMIT));
    }
    if (value.isIntegralNumber() && value.longValue() > LIMIT) {
      return List.of(
          RULE.at(
              manifest,
              "max_concurrency",
              "Backfill %s runs max_concurrency %d slices at once: more than %d can starve the"
                  + " daily runs or overwhelm the source",
              name(manifest),
              value.longValue(),
              LIMIT));
    }
    return List.of();
  }

  static String name(LintedManifest backfill) {
    String id = backfill.text("backfill");
    return id != null ? id : backfill.file();
  }
}
