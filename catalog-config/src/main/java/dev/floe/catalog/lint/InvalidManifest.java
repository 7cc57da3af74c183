package dev.floe.catalog.lint;

/** The project's own parser refuses the manifest: what {@code floe run} would say, on its line. */
final class InvalidManifest {
  static final Rule RULE =
      new Rule(
          "invalid-manifest",
          Severity.ERROR,
          "The parser floe run, tables and backfill use refuses the manifest (a bad type, a"
              + " missing required key, a key the mode does not take...), unless a rule below"
              + " names the same key.");

  private InvalidManifest() {}

  static Finding finding(LintedManifest manifest) {
    ParserRefusal refusal = manifest.refusal();
    String where = refusal.path().isEmpty() ? "the manifest" : "'" + refusal.path() + "'";
    return RULE.at(manifest, refusal.path(), "Cannot read %s: %s", where, refusal.problem());
  }
}
