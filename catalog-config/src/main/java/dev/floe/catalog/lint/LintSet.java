package dev.floe.catalog.lint;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Every manifest of one lint run, so a rule can look across files: the table spec of a job's
 * target, the jobs that write a table, the job a backfill runs. A file outside the run is never
 * read for this: what lint does not see it does not assume.
 */
final class LintSet {
  private final List<LintedManifest> manifests;

  LintSet(List<LintedManifest> manifests) {
    this.manifests = List.copyOf(manifests);
  }

  List<LintedManifest> manifests() {
    return manifests;
  }

  /** The table spec declaring {@code table}, when one was linted. */
  Optional<LintedManifest> table(String table) {
    if (table == null) {
      return Optional.empty();
    }
    return manifests.stream()
        .filter(m -> m.is(ManifestKind.TABLE) && table.equalsIgnoreCase(m.text("table")))
        .findFirst();
  }

  /** The linted job manifests whose target is {@code table}. */
  List<LintedManifest> jobsWriting(String table) {
    return manifests.stream()
        .filter(m -> m.is(ManifestKind.JOB) && table != null)
        .filter(m -> table.equalsIgnoreCase(m.text("target")))
        .toList();
  }

  /** The linted job manifest at {@code file}. */
  Optional<LintedManifest> job(Path file) {
    Path wanted = file.toAbsolutePath().normalize();
    return manifests.stream()
        .filter(m -> m.is(ManifestKind.JOB))
        .filter(m -> m.path().toAbsolutePath().normalize().equals(wanted))
        .findFirst();
  }
}
