package dev.floe.catalog.lint;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.catalog.backfill.BackfillSpecParser;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.manifest.Manifests;
import java.util.Optional;

/** The three manifests Floe reads, told apart by their top-level keys. */
enum ManifestKind {
  JOB("job manifest"),
  TABLE("table spec"),
  BACKFILL("backfill manifest");

  private final String noun;

  ManifestKind(String noun) {
    this.noun = noun;
  }

  /** How messages call it, e.g. {@code job manifest}. */
  String noun() {
    return noun;
  }

  /**
   * {@code table:} makes a table spec; {@code backfill:} (or a range without a {@code target}, as
   * {@code floe backfill} decides) a backfill manifest; {@code job:} a job manifest. Anything else
   * (floe.yaml, a Kubernetes or Compose file) is not a manifest.
   */
  static Optional<ManifestKind> of(JsonNode root, String source, String text) {
    if (root == null || !root.isObject()) {
      return Optional.empty();
    }
    if (root.has("table")) {
      return Optional.of(TABLE);
    }
    if (isBackfill(source, text)) {
      return Optional.of(BACKFILL);
    }
    if (root.has("job")) {
      return Optional.of(JOB);
    }
    return Optional.empty();
  }

  /**
   * As {@code floe backfill} decides. The strict reader refuses duplicate keys and second documents
   * ({@link Manifests#parse}); lint reports those as findings of their own, so such a file is
   * judged by its keys alone here.
   */
  private static boolean isBackfill(String source, String text) {
    try {
      return BackfillSpecParser.isBackfillManifest(Manifests.parse(source, text));
    } catch (InvalidInputException refused) {
      return false;
    }
  }
}
