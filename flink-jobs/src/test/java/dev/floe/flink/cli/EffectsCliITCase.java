package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.examples;
import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.effects.OutboxStore;
import dev.floe.catalog.testing.WebhookServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Effects as an operator meets them: `floe run` on the example job with a webhook added, against a
 * local HTTP server that counts requests, and `floe effects` to list and resend.
 */
class EffectsCliITCase {
  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension final WebhookServer server = new WebhookServer();
  @TempDir Path home;
  @TempDir Path work;

  @BeforeEach
  void applyAndSeedTheExampleTables() {
    CliRun apply = floe(home, "tables", "apply", examples().resolve("tables").toString());
    assertThat(apply.exitCode()).as(apply.err()).isZero();
    CliRun seed = floe(home, "sql", "-f", examples().resolve("sql/seed_staging.sql").toString());
    assertThat(seed.exitCode()).as(seed.err()).isZero();
  }

  @Test
  void anEffectFiresExactlyOnceAcrossAFailedAttemptARetryAndANoOpRerun() throws Exception {
    String job = manifest(5);

    CliRun failed =
        floe(home, "run", job, "--slice", "2026-10-03", "--inject-failure", "BEFORE_COMMIT");
    int afterFailure = server.count();
    CliRun retry = floe(home, "run", job, "--slice", "2026-10-03");
    int afterRetry = server.count();
    CliRun rerun = floe(home, "run", job, "--slice", "2026-10-03", "--json");

    assertThat(failed.exitCode()).isNotZero();
    assertThat(afterFailure).isZero();
    assertThat(retry.exitCode()).as(retry.err()).isZero();
    assertThat(retry.out())
        .contains("status    committed", "effects   notify_bi  sent (1 attempt(s), HTTP 200)");
    assertThat(afterRetry).isEqualTo(1);
    assertThat(rerun.exitCode()).as(rerun.err()).isZero();
    JsonNode result = JSON.readTree(rerun.out());
    assertThat(result.get("status").asText()).isEqualTo("no-op");
    assertThat(result.at("/effects/deliveries/0/status").asText()).isEqualTo("already sent");
    assertThat(server.count()).isEqualTo(1);
    JsonNode body = JSON.readTree(server.requests().get(0).body());
    assertThat(body.get("snapshot").asLong()).isEqualTo(result.get("snapshot_id").asLong());
    assertThat(body.get("rows").asLong()).isEqualTo(2);

    CliRun listed = floe(home, "effects", "sales.fact_orders", "--json");
    assertThat(listed.exitCode()).as(listed.err()).isZero();
    JsonNode rows = JSON.readTree(listed.out());
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).get("status").asText()).isEqualTo("sent");
    assertThat(rows.get(0).get("run_key").asText()).isEqualTo(result.get("run_key").asText());
  }

  @Test
  void aDryRunSendsNothingAndRecordsNothing() throws Exception {
    List<String> before = tables();

    CliRun dryRun = floe(home, "run", manifest(5), "--slice", "2026-10-03", "--dry-run");

    assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
    assertThat(dryRun.out())
        .contains(
            "status    dry-run",
            "effects   notify_bi  would send",
            "dry run: nothing recorded or sent");
    assertThat(server.count()).isZero();
    // Not even the outbox table: a dry run changes nothing in the catalog's database.
    assertThat(tables()).as("tables after a dry run").isEqualTo(before);
    assertThat(before).doesNotContain(OutboxStore.TABLE);
    assertThat(floe(home, "effects").out()).contains("No effects in the outbox.");
  }

  @Test
  void aFailedEffectLeavesTheRunGreenWithAWarningAndFloeEffectsRetrySendsIt() {
    String job = manifest(1); // one attempt: no wait between attempts in a CLI test
    server.failNext(1, 500);

    CliRun run = floe(home, "run", job, "--slice", "2026-10-03");
    CliRun pending = floe(home, "effects", "--pending");
    CliRun dryRetry = floe(home, "effects", "--pending", "--retry", "--dry-run");
    int beforeRetry = server.count();
    CliRun retry = floe(home, "effects", "sales.fact_orders", "--pending", "--retry");
    CliRun nothingLeft = floe(home, "effects", "--pending");
    CliRun rerun = floe(home, "run", job, "--slice", "2026-10-03");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("status    committed", "notify_bi  failed (1 attempt(s), HTTP 500)");
    assertThat(run.err())
        .contains(
            "floe: warning: effect notify_bi was not delivered", "floe effects --pending --retry");
    assertThat(pending.out()).contains("notify_bi", "failed", "HTTP 500");
    assertThat(dryRetry.out()).contains("notify_bi  would send");
    assertThat(beforeRetry).isEqualTo(1);
    assertThat(retry.exitCode()).as(retry.err()).isZero();
    assertThat(retry.out()).contains("notify_bi  sent (1 attempt(s), HTTP 200)");
    assertThat(nothingLeft.out()).contains("No effects waiting to be sent.");
    assertThat(rerun.out()).contains("status    no-op", "notify_bi  already sent");
    assertThat(server.count()).isEqualTo(2);

    // A mistyped table is not "nothing owed".
    CliRun typo = floe(home, "effects", "sales.fact_order", "--pending");
    CliRun notAName = floe(home, "effects", "fact_orders");
    assertThat(typo.exitCode()).isEqualTo(2);
    assertThat(typo.err())
        .contains(
            "Cannot list effects of sales.fact_order: no such table, and the outbox holds no"
                + " effect about it");
    assertThat(notAName.exitCode()).isEqualTo(2);
    assertThat(notAName.err()).contains("Cannot use table name 'fact_orders'");
    assertThat(floe(home, "effects", "sales.staging_orders").out())
        .contains("No effects in the outbox.");
  }

  /** The example job with one webhook effect, written next to the test's catalog. */
  private String manifest(int maxAttempts) {
    try {
      String text =
          Files.readString(examples().resolve("jobs/fact_orders_daily.yaml"))
              + """
              effects:
                - name: notify_bi
                  webhook:
                    url: "%s"
                    body: '{"table": "${target}", "slice": "${slice}", "snapshot": ${snapshot_id}, "rows": ${rows}}'
                  max_attempts: %d
              """
                  .formatted(server.url("/hook"), maxAttempts);
      Path file = work.resolve("fact_orders_daily.yaml");
      Files.writeString(file, text);
      return file.toString();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The tables in the embedded catalog's SQLite database. */
  private List<String> tables() throws Exception {
    List<String> names = new ArrayList<>();
    String uri = CatalogConfigLoader.embedded(home).properties().get("uri");
    try (Connection connection = DriverManager.getConnection(uri);
        ResultSet rows =
            connection
                .createStatement()
                .executeQuery(
                    "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
      while (rows.next()) {
        names.add(rows.getString(1));
      }
    }
    return names;
  }
}
