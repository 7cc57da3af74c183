package dev.floe.catalog.lint;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.catalog.backfill.BackfillSpecParser;
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
   * {@code floe backfill} decides) a backfill manifest; {@code job:}, {@code target:} or {@code
   * query:} a job manifest. Anything else (floe.yaml, a Kubernetes or Compose file) is not a
   * manifest.
   */
  static Optional<ManifestKind> of(JsonNode root) {
    if (root == null || !root.isObject()) {
      return Optional.empty();
    }
    if (root.has("table")) {
      return Optional.of(TABLE);
    }
    // By its keys, as floe backfill decides: also when the file holds a duplicate key, which the
    // strict reader refuses and lint reports as a finding of its own.
    if (BackfillSpecParser.isBackfillManifest(root::has)) {
      return Optional.of(BACKFILL);
    }
    // A job manifest missing its job: key (or with it misspelt) is still one: its target: or
    // query: says so, and the parser then reports what is missing, as floe run would.
    if (root.has("job") || root.has("target") || root.has("query")) {
      return Optional.of(JOB);
    }
    return Optional.empty();
  }
}
