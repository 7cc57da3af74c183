package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.maintain.TableStats;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.WebhookServer;
import dev.floe.flink.maintain.SmallFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code floe maintain --apply --notify FILE}: the manifest's {@code on_maintenance_done} webhook
 * is sent once with the apply's summary through the effect outbox ({@code floe effects} lists it),
 * a dry run sends nothing, and a failed delivery is a warning that changes neither what maintenance
 * did nor its exit code.
 */
class MaintainNotifyTest {
  private static final String T = SmallFiles.FACT;
  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  @RegisterExtension final WebhookServer server = new WebhookServer();
  private Path manifest;

  /** Two slices whose position delete files the plan merges (no Flink job). */
  @BeforeEach
  void mergeOnReadTableAndManifest() throws IOException {
    MaintainPlanPositionDeletesTest.mergeOnRead(catalog);
    manifest = catalog.home().resolve("maintenance.yaml");
    Files.writeString(
        manifest,
        "on_maintenance_done:\n"
            + "  - name: ops\n"
            + "    max_attempts: 1\n"
            + "    webhook:\n"
            + "      url: \""
            + server.url("/maintained")
            + "\"\n"
            + "      body: '{\"done\": ${tables_done}, \"failed\": ${tables_failed}, \"left\":"
            + " ${tables_left}, \"items\": ${items_done}, \"bytes\": ${bytes_rewritten},"
            + " \"exit\": ${exit_code}, \"id\": \"${apply_id}\"}'\n");
  }

  @Test
  void applySendsOneSummaryThroughTheOutbox() throws Exception {
    CliRun apply =
        floe(catalog.home(), "maintain", "--apply", T, "--notify", manifest.toString(), "--json");

    assertThat(apply.exitCode()).as(apply.err()).isZero();
    assertThat(server.count()).isEqualTo(1);
    JsonNode body = JSON.readTree(server.requests().get(0).body());
    assertThat(body.get("done").asInt()).isEqualTo(1);
    assertThat(body.get("failed").asInt()).isZero();
    assertThat(body.get("left").asInt()).isZero();
    assertThat(body.get("items").asInt()).isEqualTo(2);
    assertThat(body.get("bytes").asLong()).isPositive();
    assertThat(body.get("exit").asInt()).isZero();
    JsonNode notified = JSON.readTree(apply.out()).get("on_maintenance_done");
    assertThat(notified.get("deliveries").get(0).get("status").asText()).isEqualTo("sent");
    assertThat(apply.err()).doesNotContain("warning");

    CliRun effects = floe(catalog.home(), "effects", T, "--json");

    assertThat(effects.exitCode()).as(effects.err()).isZero();
    JsonNode rows = JSON.readTree(effects.out());
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).get("run_key").asText())
        .isEqualTo("maintenance:" + body.get("id").asText());
    assertThat(rows.get(0).get("effect").asText()).isEqualTo("ops");
    assertThat(rows.get(0).get("status").asText()).isEqualTo("sent");
  }

  @Test
  void aDryRunSendsAndRecordsNothing() throws Exception {
    long deleteFiles = TableStats.of(catalog.load(T)).deleteFiles();

    CliRun dryRun =
        floe(
            catalog.home(),
            "maintain",
            "--apply",
            T,
            "--dry-run",
            "--notify",
            manifest.toString(),
            "--json");

    assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
    assertThat(server.count()).isZero();
    JsonNode notified = JSON.readTree(dryRun.out()).get("on_maintenance_done");
    assertThat(notified.get("deliveries").get(0).get("status").asText()).isEqualTo("would send");
    assertThat(TableStats.of(catalog.load(T)).deleteFiles()).isEqualTo(deleteFiles);
    CliRun effects = floe(catalog.home(), "effects", "--json");
    assertThat(JSON.readTree(effects.out())).isEmpty();
  }

  @Test
  void aFailedDeliveryIsAWarningTheResultStandsAndFloeEffectsResendsIt() throws Exception {
    server.failNext(1, 503);

    CliRun apply = floe(catalog.home(), "maintain", "--apply", T, "--notify", manifest.toString());

    assertThat(apply.exitCode()).as(apply.err()).isZero();
    assertThat(apply.out()).contains("maintenance apply: 2 done");
    assertThat(apply.err())
        .contains("floe maintain: warning: effect ops was not delivered")
        .contains("floe effects --pending --retry");
    assertThat(TableStats.of(catalog.load(T)).deleteFiles()).isEqualTo(3);
    JsonNode pending = JSON.readTree(floe(catalog.home(), "effects", "--pending", "--json").out());
    assertThat(pending).hasSize(1);
    assertThat(pending.get(0).get("status").asText()).isEqualTo("failed");

    CliRun retry = floe(catalog.home(), "effects", "--pending", "--retry");

    assertThat(retry.exitCode()).as(retry.err()).isZero();
    assertThat(server.count()).isEqualTo(2);
    assertThat(server.requests().get(1).body()).isEqualTo(server.requests().get(0).body());
    assertThat(JSON.readTree(floe(catalog.home(), "effects", "--pending", "--json").out()))
        .isEmpty();
  }

  @Test
  void notifyOutsideApplyAndAnUnknownKeyAreRefusedBeforeAnyWork() throws IOException {
    long head = catalog.load(T).currentSnapshot().snapshotId();
    Path typo = catalog.home().resolve("typo.yaml");
    Files.writeString(typo, "on_maintenance_dnoe: []\n");

    CliRun withPlan =
        floe(catalog.home(), "maintain", "--plan", T, "--notify", manifest.toString());
    CliRun alone = floe(catalog.home(), "maintain", T, "--expire", "--notify", manifest.toString());
    CliRun unknown = floe(catalog.home(), "maintain", "--apply", T, "--notify", typo.toString());

    assertThat(withPlan.exitCode()).isEqualTo(2);
    assertThat(withPlan.err()).contains("Cannot use --notify " + manifest + " with --plan");
    assertThat(alone.exitCode()).isEqualTo(2);
    assertThat(alone.err()).contains("--notify without --plan or --apply");
    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.err()).contains("on_maintenance_dnoe").contains("typo.yaml");
    assertThat(catalog.load(T).currentSnapshot().snapshotId()).isEqualTo(head);
    assertThat(server.count()).isZero();
  }
}
