package dev.floe.catalog.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** invalid-yaml, invalid-manifest, unknown-key, duplicate-key and missing-timeout. */
class ManifestReadingRulesTest {
  @TempDir Path dir;

  private LintFiles files() {
    return new LintFiles(dir);
  }

  @Test
  void cleanManifestsOfEveryKindHaveNoFindingAtAll() {
    LintFiles files = files();
    files.write("jobs/daily.yaml", LintFiles.DAILY_JOB);
    files.write("jobs/merge.yaml", LintFiles.MERGE_JOB);
    files.write("tables/fact_orders.yaml", LintFiles.FACT_ORDERS);
    files.write("tables/dim_customer.yaml", LintFiles.DIM_CUSTOMER);
    files.write("backfills/january.yaml", LintFiles.BACKFILL);

    LintReport report = files.lint();

    assertThat(report.findings()).isEmpty();
    assertThat(report.files()).isEqualTo(5);
    assertThat(report.problems()).isEmpty();
  }

  @Test
  void yamlThatDoesNotParseIsOneFindingAtTheLineOfTheProblem() {
    LintFiles files = files();
    files.write("jobs/broken.yaml", "job: x\ntarget: sales.t\nquery: [SELECT 1\nmode: swap\n");

    List<Finding> findings = files.findings(LintRules.INVALID_YAML);

    assertThat(findings).singleElement().satisfies(f -> assertThat(f.line()).isEqualTo(4));
    assertThat(files.lint().findings()).hasSize(1);
  }

  @Test
  void aManifestWithASecondDocumentIsAFindingAtItsStartButOtherMultiDocumentYamlIsSkipped() {
    LintFiles files = files();
    files.write("jobs/daily.yaml", LintFiles.DAILY_JOB + "---\njob: another\n");
    files.write("k8s/deployment.yaml", "kind: Deployment\n---\nkind: Service\n");

    LintReport report = files.lint();

    assertThat(report.findings())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.rule()).isEqualTo(LintRules.INVALID_YAML.id());
              assertThat(f.line()).isEqualTo(11);
              assertThat(f.message()).contains("second document");
            });
    assertThat(report.problems()).isEmpty();
  }

  @Test
  void yamlThatParsesHasNoInvalidYamlFinding() {
    LintFiles files = files();
    files.write("jobs/daily.yaml", LintFiles.DAILY_JOB);

    assertThat(files.findings(LintRules.INVALID_YAML)).isEmpty();
  }

  @Test
  void whatTheParserRefusesIsReportedOnTheLineOfItsKey() {
    LintFiles files = files();
    files.write(
        "tables/t.yaml",
        """
        table: sales.t
        schema:
          - {name: id, type: long, required: true}
          - {name: amount, type: money}
        """);

    assertThat(files.findings(InvalidManifest.RULE))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.line()).isEqualTo(4);
              assertThat(f.key()).isEqualTo("schema[1].type");
              assertThat(f.message())
                  .startsWith("Cannot read 'schema[1].type': unknown type 'money'");
            });
  }

  @Test
  void aManifestTheParserAcceptsHasNoInvalidManifestFinding() {
    LintFiles files = files();
    files.write("tables/t.yaml", LintFiles.FACT_ORDERS);

    assertThat(files.findings(InvalidManifest.RULE)).isEmpty();
  }

  @Test
  void aParserRefusalThatARuleAlreadyNamesIsReportedOnce() {
    LintFiles files = files();
    files.write("jobs/merge.yaml", LintFiles.MERGE_JOB.replace("ordering: updated_at\n", ""));

    List<Finding> findings = files.lint().findings();

    assertThat(findings).extracting(Finding::rule).containsExactly("merge-without-ordering");
  }

  @Test
  void everyUnknownKeyIsAFindingOnItsLineWithTheClosestKnownKey() {
    LintFiles files = files();
    files.write(
        "jobs/daily.yaml",
        LintFiles.DAILY_JOB
            .replace("slice: {column: order_date}", "slice: {colum: order_date}")
            .replace("mode: overwrite", "mode: overwrite\nparalelism: 4"));

    List<Finding> findings = files.findings(UnknownKey.RULE);

    assertThat(findings)
        .extracting(Finding::line, Finding::key)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(4, "paralelism"),
            org.assertj.core.groups.Tuple.tuple(5, "slice.colum"));
    assertThat(findings.get(0).message())
        .isEqualTo(
            "Cannot read key 'paralelism': a job manifest has no such key; did you mean"
                + " 'parallelism'?");
    assertThat(findings.get(1).message()).contains("in 'slice'", "did you mean 'column'?");
  }

  @Test
  void unknownKeysInsideEffectsAndBackfillWebhooksAreFound() {
    LintFiles files = files();
    files.write("jobs/daily.yaml", LintFiles.DAILY_JOB);
    files.write(
        "backfills/january.yaml",
        LintFiles.BACKFILL
            + """
            on_backfill_done:
              - name: refresh
                webhook: {url: "https://bi.example.com/hook", method: PUT}
            """);

    assertThat(files.findings(UnknownKey.RULE))
        .singleElement()
        .satisfies(f -> assertThat(f.key()).isEqualTo("on_backfill_done[0].webhook.method"));
  }

  @Test
  void declaredKeysAndFreeMappingsAreNotUnknown() {
    LintFiles files = files();
    files.write(
        "tables/t.yaml",
        LintFiles.FACT_ORDERS + "properties: {write.parquet.compression-codec: zstd}\n");
    files.write("jobs/daily.yaml", LintFiles.DAILY_JOB);

    assertThat(files.findings(UnknownKey.RULE)).isEmpty();
  }

  @Test
  void aKeySetTwiceIsAFindingOnTheSecondLine() {
    LintFiles files = files();
    files.write("jobs/daily.yaml", LintFiles.DAILY_JOB.replace("timeout: PT2H", "mode: swap"));

    assertThat(files.findings(DuplicateKey.RULE))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.line()).isEqualTo(5);
              assertThat(f.message()).contains("'mode'", "first on line 3");
            });
  }

  @Test
  void aBackfillManifestWithAKeySetTwiceIsJudgedAsABackfillWithThatOneFinding() {
    LintFiles files = files();
    files.write("jobs/daily.yaml", LintFiles.DAILY_JOB);
    files.write("backfills/january.yaml", LintFiles.BACKFILL + "max_concurrency: 3\n");

    LintReport report = files.lint();

    assertThat(report.findings())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.rule()).isEqualTo(DuplicateKey.RULE.id());
              assertThat(f.message()).contains("'max_concurrency'");
            });
  }

  @Test
  void keysSetOnceAreNotDuplicates() {
    LintFiles files = files();
    files.write("jobs/daily.yaml", LintFiles.DAILY_JOB);

    assertThat(files.findings(DuplicateKey.RULE)).isEmpty();
  }

  @Test
  void aJobWithoutTimeoutIsAWarningOnItsJobLine() {
    LintFiles files = files();
    files.write(
        "jobs/daily.yaml", "# daily\n" + LintFiles.DAILY_JOB.replace("timeout: PT2H\n", ""));

    assertThat(files.findings(MissingTimeout.RULE))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.severity()).isEqualTo(Severity.WARNING);
              assertThat(f.line()).isEqualTo(2);
              assertThat(f.message()).contains("fact_orders_daily sets no timeout");
            });
  }

  @Test
  void aTimeoutIsAJobKeyTheParserReads() {
    LintFiles files = files();
    files.write("jobs/daily.yaml", LintFiles.DAILY_JOB.replace("timeout: PT2H", "timeout: 45m"));

    assertThat(files.lint().findings()).isEmpty();
  }

  @Test
  void aTimeoutThatIsNotADurationIsAnInvalidManifestOnItsLineNamingTheValue() {
    LintFiles files = files();
    files.write("jobs/daily.yaml", LintFiles.DAILY_JOB.replace("timeout: PT2H", "timeout: soon"));

    assertThat(files.lint().findings())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.rule()).isEqualTo(InvalidManifest.RULE.id());
              assertThat(f.line()).isEqualTo(5);
              assertThat(f.message()).contains("'timeout'", "'soon' is not a timeout");
            });
  }

  @Test
  void aJobWithAnUnknownKeyIsParsedWithEveryOtherValueAsTheFileSpellsIt() {
    // The rest of the file was written back as YAML without the unknown key: `job: 010` became
    // job 8 and `parallelism: 010` a parallelism of 8, which the parser accepted.
    LintFiles files = files();
    files.write(
        "jobs/daily.yaml",
        LintFiles.DAILY_JOB
            .replace("job: fact_orders_daily", "job: 010\ncolour: blue\nparallelism: 010")
            .replace("timeout: PT2H\n", ""));

    assertThat(files.findings(UnknownKey.RULE)).hasSize(1);
    assertThat(files.findings(InvalidManifest.RULE))
        .singleElement()
        .satisfies(f -> assertThat(f.message()).contains("got 010 (YAML reads it as 8)"));
    assertThat(files.findings(MissingTimeout.RULE))
        .singleElement()
        .satisfies(f -> assertThat(f.message()).startsWith("Job 010 sets no timeout"));
  }

  @Test
  void aKeyListHoldingAMappingIsTheParsersRefusalAndTheOtherFilesAreStillLinted() {
    // floe lint stopped with exit 2 on the first such file and reported nothing for the others.
    LintFiles files = files();
    files.write(
        "jobs/daily.yaml",
        LintFiles.DAILY_JOB.replace("mode: overwrite", "mode: merge\nkey: [{order_id: 1}, ~]"));
    files.write("jobs/other.yaml", LintFiles.DAILY_JOB.replace("timeout: PT2H\n", ""));

    LintReport report = files.lint();

    assertThat(report.files()).isEqualTo(2);
    assertThat(files.findings(InvalidManifest.RULE))
        .singleElement()
        .satisfies(f -> assertThat(f.file()).endsWith("daily.yaml"));
    assertThat(files.findings(MissingTimeout.RULE))
        .singleElement()
        .satisfies(f -> assertThat(f.file()).endsWith("other.yaml"));
  }
}
