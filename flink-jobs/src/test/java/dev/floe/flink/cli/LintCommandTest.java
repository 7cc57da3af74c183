package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `floe lint` as a user runs it: its output, --json and its exit codes. */
class LintCommandTest {
  @TempDir Path home;
  @TempDir Path dir;

  @Test
  void theExamplesAreCleanEvenAtWarning() {
    String examples = CliRun.examples().toString();

    CliRun atWarning = CliRun.floe(home, "lint", examples, "--severity", "warning");

    assertThat(atWarning.exitCode()).as(atWarning.out()).isZero();
    assertThat(atWarning.out())
        .isEqualTo("0 finding(s) in 7 file(s): 0 error(s), 0 warning(s), 0 info\n");
  }

  @Test
  void aJobWithoutTimeoutIsAWarningThatFailsOnlyAtWarning() throws Exception {
    Path job =
        write(
            "daily.yaml",
            Files.readString(CliRun.examples().resolve("jobs/fact_orders_daily.yaml"))
                .replaceAll("timeout: .*\n", ""));

    CliRun atError = CliRun.floe(home, "lint", job.toString());
    CliRun atWarning = CliRun.floe(home, "lint", job.toString(), "--severity", "warning");

    assertThat(atError.exitCode()).isZero();
    assertThat(atError.out())
        .startsWith(job + ":2: warning missing-timeout: Job fact_orders_daily sets no timeout");
    assertThat(atWarning.exitCode()).isEqualTo(1);
  }

  @Test
  void anErrorFindingExitsOneAndJsonListsItWithTheSummary() throws Exception {
    Path job =
        write(
            "daily.yaml",
            """
            job: daily
            target: sales.fact_orders
            timeout: PT1H
            slice: {column: order_date}
            query: SELECT * FROM sales.staging_orders WHERE order_date = CURRENT_DATE
            """);

    CliRun run = CliRun.floe(home, "lint", job.toString(), "--json");

    assertThat(run.exitCode()).isEqualTo(1);
    JsonNode json = new ObjectMapper().readTree(run.out());
    assertThat(json.get("findings"))
        .extracting(f -> f.get("rule").asText() + "@" + f.get("line").asInt())
        .containsExactly("nondeterministic-query@5", "query-without-slice-bounds@5");
    JsonNode first = json.get("findings").get(0);
    assertThat(first.get("file").asText()).isEqualTo(job.toString());
    assertThat(first.get("severity").asText()).isEqualTo("error");
    assertThat(first.get("message").asText()).contains("CURRENT_DATE");
    assertThat(json.get("summary").get("findings").asInt()).isEqualTo(2);
    assertThat(json.get("summary").get("errors").asInt()).isEqualTo(2);
    assertThat(json.get("summary").get("exit_code").asInt()).isEqualTo(1);
  }

  @Test
  void aMissingPathOrANamedFileThatIsNoManifestExitsTwo() throws Exception {
    Path config = write("floe.yaml", "catalog: {type: embedded}\n");

    CliRun missing = CliRun.floe(home, "lint", dir.resolve("nope").toString());
    CliRun notManifest = CliRun.floe(home, "lint", config.toString());
    CliRun badSeverity = CliRun.floe(home, "lint", config.toString(), "--severity", "info");

    assertThat(missing.exitCode()).isEqualTo(2);
    assertThat(missing.err()).contains("Cannot lint " + dir.resolve("nope") + ": no such file");
    assertThat(notManifest.exitCode()).isEqualTo(2);
    assertThat(notManifest.err()).contains("not a job, table or backfill manifest");
    assertThat(badSeverity.exitCode()).isEqualTo(2);
    assertThat(badSeverity.err()).contains("Cannot use --severity info");
  }

  @Test
  void helpListsEveryRule() {
    CliRun help = CliRun.floe(home, "lint", "--help");

    assertThat(help.exitCode()).isZero();
    dev.floe.catalog.lint.LintRules.ALL.forEach(
        rule ->
            assertThat(help.out())
                .contains("  " + rule.id() + " (" + rule.severity().text() + ")"));
    assertThat(help.out()).doesNotContain("null");
  }

  private Path write(String name, String text) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return file;
  }
}
