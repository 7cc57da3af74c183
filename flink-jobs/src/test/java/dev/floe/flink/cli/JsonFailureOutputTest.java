package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.examples;
import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.report.LineageCommits;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With --json a failing command still prints one JSON object on stdout (status, exit code and the
 * error line), so a script that reads stdout gets an object either way; without --json stdout stays
 * empty on failure.
 */
class JsonFailureOutputTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;

  @Test
  void aFailedRunAndAFailedMetadataCommandPrintTheirFailureAsJson() throws Exception {
    CliRun apply = floe(home, "tables", "apply", examples().resolve("tables").toString());
    assertThat(apply.exitCode()).as(apply.err()).isZero();
    String job = examples().resolve("jobs/fact_orders_daily.yaml").toString();

    CliRun badSlice = floe(home, "run", job, "--slice", "2026-02-30", "--json");
    CliRun noTable = floe(home, "snapshots", "sales.nope", "--json");
    CliRun plain = floe(home, "snapshots", "sales.nope");

    for (CliRun run : new CliRun[] {badSlice, noTable}) {
      assertThat(run.exitCode()).isEqualTo(2);
      JsonNode json = JSON.readTree(run.out());
      assertThat(json.get("status").asText()).isEqualTo("failed");
      assertThat(json.get("exit_code").asInt()).isEqualTo(2);
      assertThat("floe: " + json.get("error").asText() + "\n").isEqualTo(run.err());
    }
    assertThat(badSlice.err()).startsWith("floe: Cannot parse --slice '2026-02-30'");
    assertThat(plain.exitCode()).isEqualTo(2);
    assertThat(plain.out()).isEmpty();
  }

  @Test
  void aFailedSqlScriptListsTheStatementsThatRanBeforeItsFailure() throws Exception {
    CliRun run =
        floe(
            home,
            "sql",
            "--json",
            "CREATE DATABASE s; CREATE TABLE s.t (id BIGINT, amount DECIMAL(10, 2));"
                + " INSERT INTO s.t VALUES (70, 1000.00); SELECT amount FROM s.t;"
                + " SELECT * FROM s.nope");

    assertThat(run.exitCode()).isEqualTo(2);
    var parser = JSON.getFactory().createParser(run.out());
    JsonNode json = JSON.readTree(parser);
    assertThat(parser.nextToken()).as("one object").isNull();
    assertThat(json.get("status").asText()).isEqualTo("failed");
    assertThat(json.get("exit_code").asInt()).isEqualTo(2);
    assertThat("floe: " + json.get("error").asText() + "\n").isEqualTo(run.err());
    // The INSERT is committed: the object says so.
    assertThat(json.get("completed").findValuesAsText("kind"))
        .containsExactly("ok", "ok", "insert", "query");
    assertThat(run.out()).contains("\"amount\" : 1000.00");
    assertThat(floe(home, "sql", "SELECT count(*) AS n FROM s.t").out()).contains("1");
  }

  @Test
  void aSqlFileThatCannotBeReadPrintsTheSameFailureObjectWithNothingCompleted() throws Exception {
    CliRun run = floe(home, "sql", "--json", "-f", home.resolve("missing.sql").toString());

    assertThat(run.exitCode()).isEqualTo(2);
    JsonNode json = JSON.readTree(run.out());
    assertThat(json.get("status").asText()).isEqualTo("failed");
    assertThat(json.get("error").asText()).contains("missing.sql", "no such file");
    assertThat(json.get("completed").isArray()).isTrue();
    assertThat(json.get("completed")).isEmpty();
  }

  @Test
  void aCommandLineThatDoesNotParsePrintsItsFailureAsJsonToo() throws Exception {
    CliRun run = floe(home, "snapshots", "sales.fact_orders", "--json", "--limit", "abc");

    assertThat(run.exitCode()).isEqualTo(2);
    JsonNode json = JSON.readTree(run.out());
    assertThat(json.get("status").asText()).isEqualTo("failed");
    assertThat(json.get("error").asText()).contains("--limit", "abc");
  }

  @Test
  void aRefusedDryRunThatPrintedItsPlanPrintsOnlyThatObject() throws Exception {
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      Table fact = LineageCommits.create(catalog, "s.fact", Map.of());
      LineageCommits.load(fact, "2026-10-03", "r1", "daily", null, 1);
      LineageCommits.load(fact, "2026-10-03", "r2", "daily", null, 1);
    } finally {
      Catalogs.close(catalog);
    }

    CliRun run = floe(home, "revert", "s.fact", "--run", "r1", "--dry-run", "--json");

    assertThat(run.exitCode()).isEqualTo(2);
    // Exactly one object: the plan, which says why the revert is refused.
    var parser = JSON.getFactory().createParser(run.out());
    JsonNode plan = JSON.readTree(parser);
    assertThat(parser.nextToken()).as("nothing after the plan").isNull();
    assertThat(plan.get("refusal").asText()).contains("Cannot revert run r1 of s.fact");
    assertThat(run.err()).startsWith("floe: Cannot revert run r1 of s.fact");
  }
}
