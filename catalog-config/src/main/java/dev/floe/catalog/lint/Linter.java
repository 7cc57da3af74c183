package dev.floe.catalog.lint;

import dev.floe.catalog.error.InvalidInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code floe lint}: static checks of job, table and backfill manifests, so a task that cannot be
 * retried safely is flagged in code review, before it ever runs. Reads files only: no catalog, no
 * Flink, no network.
 */
public final class Linter {

  private Linter() {}

  /**
   * Lints the manifests at {@code paths}: files, and every *.yaml / *.yml file under folders.
   *
   * @throws InvalidInputException when {@code paths} is empty
   */
  public static LintReport lint(List<Path> paths) {
    InvalidInputException.check(!paths.isEmpty(), "Cannot lint: no path given");
    ManifestFiles.Collected collected = ManifestFiles.collect(paths);
    List<String> problems = new ArrayList<>(collected.problems());
    List<Finding> findings = new ArrayList<>();
    List<LintedManifest> manifests = new ArrayList<>();
    int files = 0;
    for (ManifestFiles.Candidate candidate : collected.candidates()) {
      ManifestLoader.Result result = ManifestLoader.load(candidate.file());
      if (result instanceof ManifestLoader.Loaded loaded) {
        manifests.add(loaded.manifest());
        files++;
      } else if (result instanceof ManifestLoader.NotYaml notYaml) {
        findings.add(notYaml.finding());
        files++;
      } else if (result instanceof ManifestLoader.NotManifest notManifest) {
        if (candidate.named()) {
          problems.add(notManifest.message());
        }
      } else if (result instanceof ManifestLoader.Unreadable unreadable) {
        problems.add(unreadable.message());
      }
    }
    for (Path path : paths) {
      if (Files.isDirectory(path) && !holdsAny(path, manifests, findings)) {
        problems.add(
            String.format("Cannot lint %s: no job, table or backfill manifest in it", path));
      }
    }
    LintSet set = new LintSet(manifests);
    for (LintedManifest manifest : manifests) {
      findings.addAll(check(manifest, set));
    }
    return new LintReport(findings, files, problems);
  }

  /**
   * Every rule's findings in one manifest, and the parser's refusal unless a rule already reported
   * the same key (the parser stops at its first refusal; a rule says more about it).
   */
  static List<Finding> check(LintedManifest manifest, LintSet set) {
    List<Finding> findings = new ArrayList<>();
    for (Check check : LintRules.CHECKS) {
      findings.addAll(check.check(manifest, set));
    }
    ParserRefusal refusal = manifest.refusal();
    if (refusal != null && findings.stream().noneMatch(f -> f.key().equals(refusal.anchor()))) {
      findings.add(InvalidManifest.finding(manifest));
    }
    return findings;
  }

  private static boolean holdsAny(
      Path folder, List<LintedManifest> manifests, List<Finding> findings) {
    Path root = folder.toAbsolutePath().normalize();
    return manifests.stream().anyMatch(m -> m.path().toAbsolutePath().normalize().startsWith(root))
        || findings.stream()
            .anyMatch(f -> Path.of(f.file()).toAbsolutePath().normalize().startsWith(root));
  }
}
