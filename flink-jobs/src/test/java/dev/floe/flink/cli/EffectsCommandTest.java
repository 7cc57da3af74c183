package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.effects.DeliverySettings;
import dev.floe.catalog.effects.EffectStatus;
import dev.floe.catalog.effects.Outbox;
import dev.floe.catalog.effects.OutboxEntry;
import dev.floe.catalog.effects.OutboxKey;
import dev.floe.catalog.effects.OutboxLocation;
import dev.floe.catalog.testing.WebhookServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** `floe effects` and what `floe run` refuses before running; no Flink job. */
class EffectsCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String JOB =
      """
      job: fact_orders_daily
      target: sales.fact_orders
      slice: {column: order_date}
      query: SELECT 1
      """;

  @RegisterExtension final WebhookServer server = new WebhookServer();
  @TempDir Path home;
  @TempDir Path work;

  @Test
  void anUnknownEffectKeyIsRefusedNamingKeyAndFile() throws Exception {
    Path manifest =
        write(JOB + "effects: [{name: notify_bi, webhook: {url: 'http://x/'}, retries: 3}]");

    CliRun run = floe(home, "run", manifest.toString(), "--slice", "2026-10-03");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains("Cannot read " + manifest + " at 'effects[0]': unknown key 'retries'");
  }

  @Test
  void aJobWithEffectsOnACatalogWithoutDatabaseIsRefusedBeforeRunning() throws Exception {
    Path manifest = write(JOB + "effects: [{name: notify_bi, webhook: {url: 'http://x/'}}]");

    CliRun run =
        floe(
            home,
            "run",
            manifest.toString(),
            "--slice",
            "2026-10-03",
            "--catalog-property",
            "type=hadoop",
            "--catalog-property",
            "warehouse=" + work.resolve("warehouse").toUri());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains(
            "Cannot run " + manifest + " with effects: catalog type hadoop keeps no database",
            "floe.outbox.uri");
    // Refused before the run: the table was never even looked up.
    assertThat(run.err()).doesNotContain("does not exist");
  }

  @Test
  void aJobWhoseHeaderNeedsAnUnsetVariableIsRefusedBeforeRunning() throws Exception {
    Path manifest =
        write(
            JOB
                + "effects: [{name: notify_bi, webhook: {url: 'http://x/', headers:"
                + " {Authorization: 'Bearer ${env:FLOE_TEST_UNSET_TOKEN_7f3a}'}}}]");

    CliRun run = floe(home, "run", manifest.toString(), "--slice", "2026-10-03");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains(
            "effect notify_bi needs the environment variable FLOE_TEST_UNSET_TOKEN_7f3a, which is"
                + " not set");

    // A backfill's slice with effects off sends nothing, so it needs no secret (as `floe
    // backfill` does not); with --allow-effects it does.
    CliRun effectsOff =
        floe(
            home,
            "run",
            manifest.toString(),
            "--slice",
            "2026-10-03",
            "--backfill-id",
            "bf1",
            "--dry-run");
    CliRun effectsOn =
        floe(
            home,
            "run",
            manifest.toString(),
            "--slice",
            "2026-10-03",
            "--backfill-id",
            "bf1",
            "--allow-effects",
            "--dry-run");
    assertThat(effectsOff.err()).doesNotContain("FLOE_TEST_UNSET_TOKEN_7f3a");
    assertThat(effectsOn.exitCode()).isEqualTo(2);
    assertThat(effectsOn.err())
        .contains("needs the environment variable FLOE_TEST_UNSET_TOKEN_7f3a");
  }

  @Test
  void listsTheOutboxAndRetrySendsOnlyWhatIsOwed() throws Exception {
    Instant now = Instant.parse("2026-10-04T02:00:00Z");
    try (Outbox outbox =
        Outbox.open(
            OutboxLocation.of(CatalogConfigLoader.embedded(home)).orElseThrow(),
            DeliverySettings.system())) {
      outbox.skip(entry("k-failed", EffectStatus.FAILED, now));
      outbox.skip(entry("k-sent", EffectStatus.SENT, now));
      outbox.skip(entry("k-skipped", EffectStatus.SKIPPED, now));
    }

    CliRun all = floe(home, "effects", "--json");
    CliRun pending = floe(home, "effects", "sales.fact_orders", "--pending");
    CliRun retry = floe(home, "effects", "--pending", "--retry", "--json");
    CliRun again = floe(home, "effects", "--pending", "--retry");
    CliRun skipped =
        floe(home, "effects", "--retry", "--include-skipped", "--run-key", "k-skipped");
    CliRun misuse = floe(home, "effects", "--dry-run");

    assertThat(JSON.readTree(all.out())).hasSize(3);
    assertThat(pending.out()).contains("k-failed").doesNotContain("k-sent", "k-skipped");
    JsonNode sent = JSON.readTree(retry.out()).get("deliveries");
    assertThat(sent).hasSize(1);
    assertThat(sent.get(0).get("outbox_key").asText()).isEqualTo("k-failed/notify_bi");
    assertThat(sent.get(0).get("status").asText()).isEqualTo("sent");
    assertThat(again.out()).contains("nothing to send");
    assertThat(skipped.out()).contains("k-skipped  notify_bi  sent");
    assertThat(server.count()).isEqualTo(2);
    assertThat(misuse.exitCode()).isEqualTo(2);
  }

  private OutboxEntry entry(String runKey, EffectStatus status, Instant now) {
    return OutboxEntry.recorded(
        new OutboxKey(runKey, "notify_bi"),
        "run-" + runKey,
        "fact_orders_daily",
        "sales.fact_orders",
        "order_date=[2026-10-03,2026-10-04)",
        7L,
        server.url("/hook"),
        Map.of(),
        "{\"run\": \"" + runKey + "\"}",
        1,
        status,
        now);
  }

  private Path write(String text) throws Exception {
    Path file = work.resolve("job.yaml");
    Files.writeString(file, text);
    return file;
  }
}
