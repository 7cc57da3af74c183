package dev.floe.catalog.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which files a lint run reads, and what it says about paths it cannot lint. */
class LinterTest {
  @TempDir Path dir;

  @Test
  void aFolderIsReadRecursivelySkippingYamlThatIsNoManifestAndHiddenFolders() {
    LintFiles files = new LintFiles(dir);
    files.write("a/b/daily.yml", LintFiles.DAILY_JOB);
    files.write("floe.yaml", "catalog: {type: embedded}\n");
    files.write(".floe/x.yaml", "job: [broken\n");
    files.write("notes.txt", "job: x\n");

    LintReport report = files.lint();

    assertThat(report.files()).isEqualTo(1);
    assertThat(report.findings()).isEmpty();
    assertThat(report.problems()).isEmpty();
  }

  @Test
  void aJobManifestWithoutItsJobKeyIsLintedAndRefusedNotSkipped() {
    LintFiles files = new LintFiles(dir);
    files.write("jobs/daily.yaml", LintFiles.DAILY_JOB);
    files.write("jobs/nojob.yaml", LintFiles.DAILY_JOB.replaceFirst("job: \\S+\n", ""));

    LintReport report = files.lint();

    assertThat(report.files()).isEqualTo(2);
    assertThat(report.findings())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.rule()).isEqualTo(InvalidManifest.RULE.id());
              assertThat(f.message()).contains("missing required key 'job'");
            });
  }

  @Test
  void aFileReachedByTwoPathsIsLintedOnceAsTheFirstNamesIt() throws Exception {
    LintFiles files = new LintFiles(dir);
    Path daily = files.write("j/now1.yaml", LintFiles.DAILY_JOB.replace("timeout: PT2H\n", ""));
    files.write("j/sub/other.yaml", LintFiles.MERGE_JOB);
    Path dotted = dir.resolve("j/./sub/../now1.yaml");
    Path link = java.nio.file.Files.createSymbolicLink(dir.resolve("link.yaml"), daily);

    LintReport report =
        Linter.lint(List.of(daily, dotted, link, dir.resolve("j"), dir.resolve("j/sub"), dir));

    assertThat(report.files()).isEqualTo(2);
    assertThat(report.problems()).isEmpty();
    assertThat(report.findings())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.rule()).isEqualTo(MissingTimeout.RULE.id());
              assertThat(f.file()).isEqualTo(daily.toString());
            });
  }

  @Test
  void aFileInALintedFolderNamedAgainMustBeAManifest() {
    LintFiles files = new LintFiles(dir);
    files.write("jobs/daily.yaml", LintFiles.DAILY_JOB);
    Path config = files.write("jobs/floe.yaml", "catalog: {type: embedded}\n");

    LintReport report = Linter.lint(List.of(dir.resolve("jobs"), config));

    assertThat(report.files()).isEqualTo(1);
    assertThat(report.problems())
        .singleElement()
        .satisfies(p -> assertThat(p).startsWith("Cannot lint " + config + ": not a job"));
  }

  @Test
  void aNamedFileThatIsNoManifestAndAMissingPathAreProblems() {
    LintFiles files = new LintFiles(dir);
    Path config = files.write("floe.yaml", "catalog: {type: embedded}\n");
    Path missing = dir.resolve("missing.yaml");

    LintReport report = Linter.lint(List.of(config, missing));

    assertThat(report.problems())
        .containsExactly(
            "Cannot lint " + missing + ": no such file or folder",
            "Cannot lint "
                + config
                + ": not a job, table or backfill manifest (expected a top-level job:, table: or"
                + " backfill: key)");
  }

  @Test
  void aManifestOverTheSizeLimitIsAProblemAsForEveryCommandNotReadForMinutes() throws IOException {
    LintFiles files = new LintFiles(dir);
    Path big =
        files.write(
            "jobs/big.yaml",
            LintFiles.DAILY_JOB
                + "description: \""
                + "x".repeat(dev.floe.catalog.manifest.Manifests.MAX_MANIFEST_BYTES)
                + "\"\n");

    LintReport report = Linter.lint(List.of(big));

    assertThat(report.problems())
        .containsExactly(
            "Cannot lint "
                + big
                + ": it is "
                + java.nio.file.Files.size(big)
                + " bytes; a manifest may be at most 1048576 bytes");
  }

  @Test
  void aFolderWithoutManifestsIsAProblem() {
    new LintFiles(dir).write("docs/readme.yaml", "title: x\n");

    LintReport report = Linter.lint(List.of(dir.resolve("docs")));

    assertThat(report.problems())
        .containsExactly(
            "Cannot lint " + dir.resolve("docs") + ": no job, table or backfill manifest in it");
  }

  @Test
  void findingsAreOrderedByFileThenLine() {
    LintFiles files = new LintFiles(dir);
    files.write("b.yaml", LintFiles.DAILY_JOB.replace("timeout: PT2H\n", ""));
    files.write(
        "a.yaml",
        LintFiles.MERGE_JOB.replace("timeout: PT30M\n", "").replace("ordering: updated_at\n", ""));

    assertThat(files.lint().findings())
        .extracting(
            f -> Path.of(f.file()).getFileName().toString() + ":" + f.line() + ":" + f.rule())
        .containsExactly(
            "a.yaml:1:missing-timeout",
            "a.yaml:3:merge-without-ordering",
            "b.yaml:1:missing-timeout");
  }
}
