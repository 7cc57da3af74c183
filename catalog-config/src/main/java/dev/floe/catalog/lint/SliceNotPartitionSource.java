package dev.floe.catalog.lint;

import dev.floe.catalog.spec.TableSpec;
import java.util.List;
import java.util.Optional;

/** A slice column that does not partition the target: no slice of it replaces whole partitions. */
final class SliceNotPartitionSource implements Check {
  static final Rule RULE =
      new Rule(
          "slice-not-partition-source",
          Severity.ERROR,
          "A job's slice.column is not a partition source column of its target's table spec"
              + " (checked when that spec is among the linted files).");

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    String column = manifest.sliceColumn();
    if (!manifest.is(ManifestKind.JOB) || column == null) {
      return List.of();
    }
    Optional<LintedManifest> table = set.table(manifest.text("target"));
    Optional<TableSpec> spec = table.flatMap(LintedManifest::tableSpec);
    if (spec.isEmpty()) {
      return List.of();
    }
    SliceTarget target = SliceTarget.of(spec.get(), column);
    String reason =
        switch (target.problem()) {
          case NO_SUCH_COLUMN -> "the table has no such column";
          case NOT_PARTITION_SOURCE ->
              "it is not a partition source column (partition: "
                  + spec.get().describePartitioning()
                  + ")";
          default -> null;
        };
    if (reason == null) {
      return List.of();
    }
    return List.of(
        RULE.at(
            manifest,
            "slice.column",
            "Cannot slice %s by '%s': %s, per %s",
            spec.get().table(),
            column,
            reason,
            table.get().file()));
  }
}
