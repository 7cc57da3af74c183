package dev.floe.catalog.lint;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;

/** A backfill whose job manifest is not there (moved or renamed). */
final class BackfillJobNotFound implements Check {
  static final Rule RULE =
      new Rule(
          "backfill-job-not-found",
          Severity.ERROR,
          "A backfill whose job: file does not exist (resolved against the backfill's folder).");

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    String job = manifest.text("job");
    Path parent = manifest.path().toAbsolutePath().getParent();
    if (!manifest.is(ManifestKind.BACKFILL) || job == null || job.isBlank() || parent == null) {
      return List.of();
    }
    try {
      if (Files.isRegularFile(parent.resolve(job))) {
        return List.of();
      }
    } catch (InvalidPathException e) {
      return List.of(RULE.at(manifest, "job", "Cannot find job manifest '%s': not a path", job));
    }
    // As the backfill's own path was given: relative stays relative.
    Path folder = manifest.path().getParent();
    Path shown = (folder == null ? Path.of(job) : folder.resolve(job)).normalize();
    return List.of(
        RULE.at(manifest, "job", "Cannot find job manifest '%s': %s does not exist", job, shown));
  }
}
