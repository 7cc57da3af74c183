package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.examples;
import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI as a user drives it, on the manifests in examples/ (this keeps them working): one catalog
 * for the class, commands in the order of the README's tour, then bad input.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FloeCliITCase {
  @TempDir static Path home;
  @TempDir static Path work;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DIMENSION =
      "SELECT customer_id, tier, updated_at FROM sales.dim_customer ORDER BY customer_id";

  @BeforeAll
  static void applyTheExampleTables() {
    CliRun dryRun =
        floe(home, "tables", "apply", examples().resolve("tables").toString(), "--dry-run");
    assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
    assertThat(dryRun.out())
        .contains("Plan (dry run, nothing changed)", "create table sales.fact_orders");

    CliRun apply = floe(home, "tables", "apply", examples().resolve("tables").toString());
    assertThat(apply.exitCode()).as(apply.err()).isZero();
    assertThat(apply.out()).contains("Applied:", "create namespace sales");
  }

  @Test
  @Order(1)
  void applyingTheExampleTablesAgainChangesNothing() {
    CliRun again = floe(home, "tables", "apply", examples().resolve("tables").toString());
    assertThat(again.exitCode()).isZero();
    assertThat(again.out()).contains("No changes");
  }

  @Test
  @Order(2)
  void theTourLoadsTheSliceTwiceAndTheTableHoldsTwoRowsTotalling70() throws Exception {
    CliRun seed = floe(home, "sql", "-f", examples().resolve("sql/seed_staging.sql").toString());
    assertThat(seed.exitCode()).as(seed.err()).isZero();
    String job = examples().resolve("jobs/fact_orders_daily.yaml").toString();

    CliRun first = floe(home, "run", job, "--slice", "2026-10-03");
    CliRun second = floe(home, "run", job, "--slice", "2026-10-03", "--json");
    CliRun totals =
        floe(
            home,
            "sql",
            "SELECT count(*) AS rows_for_day, sum(amount) AS total FROM sales.fact_orders");

    assertThat(first.exitCode()).as(first.err()).isZero();
    assertThat(first.out()).contains("status    committed", "rows      2");
    assertThat(second.exitCode()).as(second.err()).isZero();
    JsonNode result = JSON.readTree(second.out());
    assertThat(result.get("status").asText()).isEqualTo("no-op");
    assertThat(result.get("rows").asLong()).isEqualTo(2);
    assertThat(totals.out()).containsPattern("\\s2 \\| 70\\.00");

    CliRun history = floe(home, "snapshots", "sales.fact_orders", "--json");
    JsonNode snapshots = JSON.readTree(history.out());
    assertThat(snapshots).hasSize(1);
    assertThat(snapshots.get(0).get("job").asText()).isEqualTo("fact_orders_daily");
    assertThat(snapshots.get(0).get("slice").asText())
        .isEqualTo("order_date=[2026-10-03,2026-10-04)");
    assertThat(snapshots.get(0).get("run_id").asText()).isNotBlank();
    assertThat(snapshots.get(0).get("current").asBoolean()).isTrue();
    assertThat(floe(home, "snapshots", "sales.fact_orders").out())
        .contains("fact_orders_daily", "* = current snapshot");
  }

  @Test
  @Order(3)
  void aMissingSliceIsAUsageErrorThatExplainsWhy() {
    CliRun run = floe(home, "run", examples().resolve("jobs/fact_orders_daily.yaml").toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("missing --slice", "fact_orders_daily.yaml");
  }

  @Test
  @Order(3)
  void aSliceOrForceCommitOnAMergeIsAUsageErrorThatSaysWhy() {
    String merge = examples().resolve("jobs/dim_customer_merge.yaml").toString();

    CliRun sliced = floe(home, "run", merge, "--slice", "2026-10-03");
    CliRun forced = floe(home, "run", merge, "--force-commit");

    assertThat(sliced.exitCode()).isEqualTo(2);
    assertThat(sliced.err())
        .contains("with --slice 2026-10-03", "the manifest has no slice", "(mode merge)");
    assertThat(forced.exitCode()).isEqualTo(2);
    assertThat(forced.err()).contains("--force-commit", "commits only rows that change");
  }

  @Test
  @Order(4)
  void aMalformedSliceIsAUsageErrorNamingTheValue() {
    CliRun run =
        floe(
            home,
            "run",
            examples().resolve("jobs/fact_orders_daily.yaml").toString(),
            "--slice",
            "2026-13-01");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("Cannot parse --slice '2026-13-01'");
    assertThat(run.err().lines().count()).isEqualTo(1);
  }

  @Test
  @Order(5)
  void anHourSliceOnADayTableIsRefusedNamingThePartitionSpec() {
    CliRun run =
        floe(
            home,
            "run",
            examples().resolve("jobs/fact_orders_daily.yaml").toString(),
            "--slice",
            "2026-10-03T05");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("2026-10-03T05", "identity(order_date)");
  }

  @Test
  @Order(6)
  void anUnknownManifestKeyIsAUsageErrorNamingKeyAndFile() throws Exception {
    Path manifest = work.resolve("typo.yaml");
    Files.writeString(
        manifest,
        Files.readString(examples().resolve("jobs/fact_orders_daily.yaml"))
            .replace("mode:", "modee:"));
    CliRun run = floe(home, "run", manifest.toString(), "--slice", "2026-10-03");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("typo.yaml", "unknown key 'modee'");
  }

  @Test
  @Order(7)
  void anUnknownTargetTableIsAUsageError() throws Exception {
    CliRun run =
        floe(
            home,
            "run",
            manifest("target: sales.fact_orders", "target: sales.nope").toString(),
            "--slice",
            "2026-10-03");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("sales.nope", "does not exist");
  }

  @Test
  @Order(8)
  void aQueryThatDoesNotParseIsAUsageErrorAndCommitsNothing() throws Exception {
    long before = snapshotCount();
    CliRun run =
        floe(
            home,
            "run",
            manifest("FROM sales.staging_orders", "FROMM sales.staging_orders").toString(),
            "--slice",
            "2026-10-03");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("Cannot plan the query of", "bad.yaml");
    assertThat(snapshotCount()).isEqualTo(before);
  }

  @Test
  @Order(8)
  void aSecondStatementAfterTheQueryIsAUsageErrorNamingTheManifestAndCommitsNothing()
      throws Exception {
    long before = snapshotCount();
    CliRun run =
        floe(
            home,
            "run",
            manifest(
                    "AND order_date < :slice_end",
                    "AND order_date < :slice_end;\n  DROP TABLE sales.staging_orders")
                .toString(),
            "--slice",
            "2026-10-03");
    assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
    assertThat(run.err())
        .contains("bad.yaml", "the query must be one SELECT statement", "line 4 of the query");
    assertThat(run.err().lines().count()).isEqualTo(1);
    assertThat(snapshotCount()).isEqualTo(before);
    assertThat(floe(home, "sql", "SELECT count(*) AS n FROM sales.staging_orders").exitCode())
        .isZero();
  }

  @Test
  @Order(9)
  void anUnknownColumnInTheQueryIsAUsageError() throws Exception {
    CliRun run =
        floe(
            home,
            "run",
            manifest("SELECT order_id,", "SELECT order_idd,").toString(),
            "--slice",
            "2026-10-03");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("order_idd");
  }

  @Test
  @Order(10)
  void aQueryWhoseTypesDoNotMatchTheTargetIsRefused() throws Exception {
    CliRun run =
        floe(
            home,
            "run",
            manifest("SELECT order_id,", "SELECT CAST(order_id AS INT) AS order_id,").toString(),
            "--slice",
            "2026-10-03");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("column order_id is INT", "expects BIGINT");
  }

  @Test
  @Order(11)
  void aFailingCheckExitsWith3() throws Exception {
    long before = snapshotCount();
    CliRun run =
        floe(
            home,
            "run",
            manifest("row_count: {min: 0}", "row_count: {min: 5}").toString(),
            "--slice",
            "2026-10-03");
    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.err()).contains("row_count", "the slice has 2 rows");
    assertThat(snapshotCount()).isEqualTo(before);
  }

  @Test
  @Order(12)
  void aDryRunReportsWhatARealRunWouldDoAndCommitsNothing() throws Exception {
    long before = snapshotCount();
    CliRun run =
        floe(
            home,
            "run",
            examples().resolve("jobs/fact_orders_daily.yaml").toString(),
            "--slice",
            "2026-10-04",
            "--dry-run",
            "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode result = JSON.readTree(run.out());
    assertThat(result.get("status").asText()).isEqualTo("dry-run");
    assertThat(result.get("rows").asLong()).isEqualTo(1);
    assertThat(result.get("detail").asText())
        .contains("a real run would replace slice order_date=[2026-10-04,2026-10-05)");
    assertThat(snapshotCount()).isEqualTo(before);
  }

  @Test
  @Order(13)
  void theDimensionMergeKeepsTheNewestRowPerCustomerAndAReplayOfAnOlderRowChangesNothing()
      throws Exception {
    String job = examples().resolve("jobs/dim_customer_merge.yaml").toString();
    CliRun seed =
        floe(home, "sql", "-f", examples().resolve("sql/seed_staging_customer.sql").toString());
    assertThat(seed.exitCode()).as(seed.err()).isZero();

    CliRun merge = floe(home, "run", job);
    CliRun rerun = floe(home, "run", job, "--json");
    CliRun replaySeed =
        floe(home, "sql", "-f", examples().resolve("sql/replay_old_customer_batch.sql").toString());
    CliRun replay = floe(home, "run", job, "--json");
    CliRun dimension = floe(home, "sql", DIMENSION);
    CliRun dimensionJson = floe(home, "sql", DIMENSION, "--json");

    assertThat(merge.exitCode()).as(merge.err()).isZero();
    assertThat(merge.out()).contains("status    committed", "3 source rows, 2 keys: 2 inserted");
    assertThat(JSON.readTree(rerun.out()).get("status").asText()).isEqualTo("no-op");
    assertThat(replaySeed.exitCode()).as(replaySeed.err()).isZero();
    JsonNode replayed = JSON.readTree(replay.out());
    assertThat(replayed.get("status").asText()).isEqualTo("no-op");
    assertThat(replayed.get("snapshot_id").asLong())
        .isEqualTo(JSON.readTree(rerun.out()).get("snapshot_id").asLong());
    // The text table reads as the seed (PostgreSQL) prints it, once the layout is taken away.
    assertThat(
            dimension.out().lines().map(line -> line.replaceAll("\\s*\\|\\s*|\\s+", " ").strip()))
        .containsSubsequence(
            "customer_id tier updated_at",
            "10 pro 2026-10-03 12:00:00+00",
            "11 free 2026-10-03 10:00:00+00");
    // --json keeps ISO 8601 instants, which Instant.parse and JavaScript's Date read as is.
    JsonNode rows = JSON.readTree(dimensionJson.out()).get(0).get("rows");
    assertThat(rows.get(0).get("tier").asText()).isEqualTo("pro");
    assertThat(rows.get(0).get("updated_at").asText()).isEqualTo("2026-10-03T12:00:00Z");
  }

  @Test
  @Order(14)
  void aJsonScriptStopsAtAResultJsonCannotHoldAndRunsNothingAfterIt() {
    CliRun script =
        floe(
            home,
            "sql",
            "CREATE TABLE sales.json_stop (id BIGINT);"
                + " SELECT MAP['NULL', 1, CAST(NULL AS STRING), 2] AS m;"
                + " INSERT INTO sales.json_stop VALUES (1)",
            "--json");
    CliRun count = floe(home, "sql", "SELECT count(*) AS n FROM sales.json_stop", "--json");

    assertThat(script.exitCode()).as(script.err()).isEqualTo(2);
    assertThat(script.err())
        .contains(
            "Cannot write the rows of SQL statement 2 (line 1) as JSON: column 'm' holds a map"
                + " with a NULL key");
    // One object that says the script failed, listing only the statement that ran before.
    assertThat(script.out())
        .startsWith("{\n  \"status\" : \"failed\",\n  \"exit_code\" : 2,")
        .contains("\"completed\" : [ {\n    \"statement\" : 1,")
        .doesNotContain("\"statement\" : 2")
        .doesNotContain("\"statement\" : 3");
    assertThat(count.exitCode()).as(count.err()).isZero();
    assertThat(count.out()).contains("\"n\" : 0");
  }

  @Test
  @Order(15)
  void everyCommandHasHelp() {
    for (String command : new String[] {"quickstart", "tables", "sql", "run", "snapshots"}) {
      CliRun help = floe(home, command, "--help");
      assertThat(help.exitCode()).as(command).isZero();
      assertThat(help.out()).as(command).contains("Usage: floe " + command);
    }
  }

  private static Path manifest(String find, String replace) throws Exception {
    Path manifest = work.resolve("bad.yaml");
    String text = Files.readString(examples().resolve("jobs/fact_orders_daily.yaml"));
    assertThat(text).contains(find);
    Files.writeString(manifest, text.replace(find, replace));
    return manifest;
  }

  private static long snapshotCount() throws Exception {
    return JSON.readTree(floe(home, "snapshots", "sales.fact_orders", "--json").out()).size();
  }
}
