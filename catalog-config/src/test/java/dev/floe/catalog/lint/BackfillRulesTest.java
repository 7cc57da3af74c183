package dev.floe.catalog.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** backfill-concurrency, backfill-allow-effects and backfill-job-not-found. */
class BackfillRulesTest {
  @TempDir Path dir;

  private LintFiles backfill(String text) {
    LintFiles files = new LintFiles(dir);
    files.write("jobs/daily.yaml", LintFiles.DAILY_JOB);
    files.write("backfills/january.yaml", text);
    return files;
  }

  @Test
  void aBackfillWithoutMaxConcurrencyIsAWarningOnItsFirstLine() {
    LintFiles files = backfill(LintFiles.BACKFILL.replace("max_concurrency: 2\n", ""));

    assertThat(files.lint().findings())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.rule()).isEqualTo(BackfillConcurrency.RULE.id());
              assertThat(f.severity()).isEqualTo(Severity.WARNING);
              assertThat(f.line()).isEqualTo(1);
              assertThat(f.message()).contains("orders_january sets no max_concurrency");
            });
  }

  @Test
  void aBackfillAboveFourSlicesInFlightIsAWarningOnThatLine() {
    LintFiles files =
        backfill(LintFiles.BACKFILL.replace("max_concurrency: 2", "max_concurrency: 16"));

    assertThat(files.findings(BackfillConcurrency.RULE))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.line()).isEqualTo(5);
              assertThat(f.message()).contains("max_concurrency 16", "more than 4");
            });
  }

  @Test
  void aBackfillCappedAtFourIsClean() {
    LintFiles files =
        backfill(LintFiles.BACKFILL.replace("max_concurrency: 2", "max_concurrency: 4"));

    assertThat(files.lint().findings()).isEmpty();
  }

  @Test
  void aBackfillThatAllowsEffectsIsAWarning() {
    LintFiles files = backfill(LintFiles.BACKFILL + "allow_effects: true\n");

    assertThat(files.findings(BackfillAllowEffects.RULE))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.severity()).isEqualTo(Severity.WARNING);
              assertThat(f.line()).isEqualTo(6);
            });
  }

  @Test
  void aBackfillThatLeavesEffectsOffIsClean() {
    LintFiles files = backfill(LintFiles.BACKFILL + "allow_effects: false\n");

    assertThat(files.findings(BackfillAllowEffects.RULE)).isEmpty();
  }

  @Test
  void aRangeNoBackfillCanRunIsAnInvalidManifestOnItsToLine() {
    for (String[] range :
        new String[][] {
          {"2026-02-01", "2026-01-01", "is not after from '2026-02-01': the range is empty"},
          {"2026-01-01", "2026-01-01", "is not after from '2026-01-01': the range is empty"},
          {"2026-01", "2026-02-01", "'2026-02-01' is a day and from '2026-01' a month"},
        }) {
      LintFiles files =
          backfill(
              LintFiles.BACKFILL
                  .replace("from: 2026-01-01", "from: " + range[0])
                  .replace("to: 2026-02-01", "to: " + range[1]));

      assertThat(files.findings(InvalidManifest.RULE))
          .as(range[0] + " .. " + range[1])
          .singleElement()
          .satisfies(
              f -> {
                assertThat(f.line()).isEqualTo(4);
                assertThat(f.message()).contains(range[2]);
              });
    }
  }

  @Test
  void aBackfillOfAMissingJobIsAFindingNamingThePath() {
    LintFiles files =
        backfill(LintFiles.BACKFILL.replace("../jobs/daily.yaml", "../jobs/gone.yaml"));

    assertThat(files.findings(BackfillJobNotFound.RULE))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.line()).isEqualTo(2);
              assertThat(f.message())
                  .isEqualTo(
                      "Cannot find job manifest '../jobs/gone.yaml': "
                          + dir.resolve("jobs/gone.yaml")
                          + " does not exist");
            });
  }

  @Test
  void aBackfillOfAnExistingJobIsClean() {
    LintFiles files = backfill(LintFiles.BACKFILL);

    assertThat(files.findings(BackfillJobNotFound.RULE)).isEmpty();
  }

  @Test
  void aBackfillOfAJobFileNamedLikeANumberFindsItAsTheFileSpellsIt() {
    // YAML 1.1 reads `job: 0755` as 493: lint looked for a file named 493.
    LintFiles files = new LintFiles(dir);
    files.write("backfills/0755", LintFiles.DAILY_JOB);
    files.write("backfills/january.yaml", LintFiles.BACKFILL.replace("../jobs/daily.yaml", "0755"));

    assertThat(files.findings(BackfillJobNotFound.RULE)).isEmpty();
    assertThat(files.findings(InvalidManifest.RULE)).isEmpty();
  }
}
