package dev.floe.catalog.lint;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.catalog.slice.SliceUnit;
import dev.floe.catalog.spec.ColumnTypes;
import dev.floe.catalog.spec.TableSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A slice that cannot cover whole partitions: the slice column's type or partition transform does
 * not cut time, or a backfill's range is finer than the partitions (hours on a day-partitioned
 * table).
 */
final class SliceUnaligned implements Check {
  static final Rule RULE =
      new Rule(
          "slice-unaligned",
          Severity.ERROR,
          "A slice that cannot align with the partition transform of the target's table spec: a"
              + " column that is not a date or timestamp, a transform that does not cut time"
              + " (bucket, truncate, identity on a timestamp), or a backfill range finer than the"
              + " partitions.");

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    if (manifest.is(ManifestKind.JOB)) {
      return job(manifest, set);
    }
    if (manifest.is(ManifestKind.BACKFILL)) {
      return backfill(manifest, set);
    }
    return List.of();
  }

  private static List<Finding> job(LintedManifest job, LintSet set) {
    String column = job.sliceColumn();
    Optional<TableSpec> spec = set.table(job.text("target")).flatMap(LintedManifest::tableSpec);
    if (column == null || spec.isEmpty()) {
      return List.of();
    }
    SliceTarget target = SliceTarget.of(spec.get(), column);
    String reason =
        switch (target.problem()) {
          case NOT_TEMPORAL_TYPE ->
              "its type is "
                  + ColumnTypes.format(spec.get().column(column).orElseThrow().type())
                  + "; a slice column must be a date or timestamp";
          case NOT_TEMPORAL_TRANSFORM ->
              "its partition field " + target.field().describe() + " does not cut time into slices";
          default -> null;
        };
    if (reason == null) {
      return List.of();
    }
    return List.of(
        RULE.at(
            job,
            "slice.column",
            "Cannot slice %s by '%s': %s",
            spec.get().table(),
            column,
            reason));
  }

  /** A backfill of a linted job into a linted table: are its slices at least one partition? */
  private static List<Finding> backfill(LintedManifest backfill, LintSet set) {
    String jobPath = backfill.text("job");
    Path parent = backfill.path().toAbsolutePath().getParent();
    if (jobPath == null || parent == null) {
      return List.of();
    }
    Optional<LintedManifest> job = set.job(parent.resolve(jobPath));
    String column = job.map(LintedManifest::sliceColumn).orElse(null);
    Optional<TableSpec> spec =
        job.flatMap(j -> set.table(j.text("target"))).flatMap(LintedManifest::tableSpec);
    if (column == null || spec.isEmpty()) {
      return List.of();
    }
    SliceTarget target = SliceTarget.of(spec.get(), column);
    if (target.problem() != SliceTarget.Problem.NONE) {
      return List.of(); // said at the job
    }
    List<Finding> findings = new ArrayList<>();
    for (String key : List.of("from", "to")) {
      String value = backfill.text(key);
      SliceUnit unit = unitOf(value, column);
      if (unit != null && !unit.alignsWith(target.unit())) {
        findings.add(
            RULE.at(
                backfill,
                key,
                "Cannot backfill %s by %s: a slice such as %s does not cover whole partitions of"
                    + " %s; give %s (%s) or coarser",
                spec.get().table(),
                unit.name().toLowerCase(Locale.ROOT),
                value,
                spec.get().describePartitioning(),
                target.unit().name().toLowerCase(Locale.ROOT),
                target.unit().format()));
      }
    }
    return findings;
  }

  private static SliceUnit unitOf(String value, String column) {
    if (value == null) {
      return null;
    }
    try {
      return SliceResolver.parse(value, column).unit();
    } catch (InvalidInputException e) {
      return null; // not a slice value: floe backfill says so itself
    }
  }
}
