package dev.floe.catalog.lint;

import dev.floe.catalog.job.WriteMode;
import java.util.List;
import java.util.Optional;

/**
 * A keyed write (merge, insert-if-absent) with no key anywhere lint can see: neither in the job nor
 * in the linted table spec of its target. The run would fall back to the table's identifier fields;
 * lint cannot tell that they exist, and a keyed write without a key cannot be retried safely.
 */
final class MissingKey implements Check {
  static final Rule MERGE =
      new Rule(
          "merge-without-key",
          Severity.ERROR,
          "A merge job without key, whose target has no table spec with a key among the linted"
              + " files: nothing identifies the rows it replaces.");
  static final Rule INSERT_IF_ABSENT =
      new Rule(
          "insert-if-absent-without-key",
          Severity.ERROR,
          "An insert-if-absent job without key, whose target has no table spec with a key among"
              + " the linted files: nothing tells a present row from an absent one.");

  private final WriteMode mode;
  private final Rule rule;

  private MissingKey(WriteMode mode, Rule rule) {
    this.mode = mode;
    this.rule = rule;
  }

  static MissingKey merge() {
    return new MissingKey(WriteMode.MERGE, MERGE);
  }

  static MissingKey insertIfAbsent() {
    return new MissingKey(WriteMode.INSERT_IF_ABSENT, INSERT_IF_ABSENT);
  }

  @Override
  public Rule rule() {
    return rule;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    if (!manifest.is(ManifestKind.JOB)
        || !manifest.mode().equals(Optional.of(mode))
        || manifest.hasValue("key")) {
      return List.of();
    }
    String target = manifest.text("target");
    Optional<LintedManifest> table = set.table(target);
    if (table.isPresent() && table.get().hasValue("key")) {
      return List.of();
    }
    String why =
        table.isPresent()
            ? "its table spec " + table.get().file() + " declares none either"
            : "no table spec for it is among the linted files";
    return List.of(
        rule.atLine(
            manifest,
            "key",
            manifest.modeLine(),
            "Cannot tell which rows of %s the %s job matches: it sets no key and %s; add key:"
                + " [...] to the job or the table spec",
            target,
            mode.text(),
            why));
  }
}
