package dev.floe.catalog.lint;

import java.util.List;

/** A table spec without key, written by key by a linted merge or insert-if-absent job. */
final class TableWithoutKey implements Check {
  static final Rule RULE =
      new Rule(
          "table-without-key",
          Severity.WARNING,
          "A table spec without key whose table a linted merge or insert-if-absent job writes:"
              + " declare the key so the table itself says what identifies a row.");

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    String table = manifest.text("table");
    if (!manifest.is(ManifestKind.TABLE) || manifest.hasValue("key")) {
      return List.of();
    }
    return set.jobsWriting(table).stream()
        .filter(job -> job.mode().map(mode -> mode.isKeyed()).orElse(false))
        .findFirst()
        .map(
            job ->
                List.of(
                    RULE.atLine(
                        manifest,
                        "key",
                        manifest.line("table"),
                        "Table %s declares no key, but %s job %s (%s) writes it by key; add key:"
                            + " [...] so every writer and reader agrees what identifies a row",
                        table,
                        job.mode().orElseThrow().text(),
                        job.text("job"),
                        job.file())))
        .orElse(List.of());
  }
}
