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
import dev.floe.catalog.effects.OutboxStore;
import dev.floe.catalog.testing.WebhookServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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

  @Test
  void aRetrySaysWhatCannotBeSentOrIsClaimedElsewhereAndExits1() throws Exception {
    Instant now = Instant.now();
    OutboxLocation location = OutboxLocation.of(CatalogConfigLoader.embedded(home)).orElseThrow();
    try (Outbox outbox = Outbox.open(location, DeliverySettings.system())) {
      outbox.skip(
          entry(
              "k-token",
              EffectStatus.FAILED,
              now,
              Map.of("Authorization", "Bearer ${env:FLOE_TEST_NEVER_SET}")));
      outbox.skip(entry("k-claimed", EffectStatus.PENDING, now));
    }
    try (OutboxStore store = OutboxStore.open(location)) {
      assertThat(
              store.claim(
                  new OutboxKey("k-claimed", "notify_bi"),
                  "floe-other",
                  now,
                  now.plus(Duration.ofMinutes(5))))
          .isTrue();
    }

    CliRun dryRun = floe(home, "effects", "--pending", "--retry", "--dry-run");
    CliRun claimed = floe(home, "effects", "--pending", "--retry", "--run-key", "k-claimed");
    CliRun token = floe(home, "effects", "--pending", "--retry", "--run-key", "k-token");
    CliRun listed = floe(home, "effects", "--json", "--run-key", "k-token");

    assertThat(dryRun.exitCode()).as(dryRun.out()).isEqualTo(1);
    assertThat(dryRun.out())
        .contains(
            "k-token  notify_bi  would fail (Cannot send effect notify_bi header Authorization:"
                + " the environment variable FLOE_TEST_NEVER_SET is not set)")
        .contains("k-claimed  notify_bi  in flight elsewhere (claimed by another process until");
    assertThat(claimed.exitCode()).isEqualTo(1);
    assertThat(claimed.out()).contains("in flight elsewhere (claimed by another process until");
    assertThat(token.exitCode()).isEqualTo(1);
    assertThat(token.out())
        .contains("k-token  notify_bi  failed (Cannot send effect notify_bi header Authorization");
    // No POST was made, so none is counted.
    assertThat(JSON.readTree(listed.out()).get(0).get("attempts").asInt()).isZero();
    assertThat(server.count()).isZero();
  }

  @Test
  void aRetryThatLeftAnEffectUndeliveredSaysWhichInOneLineAndInTheJsonObject() throws Exception {
    Instant now = Instant.now();
    OutboxLocation location = OutboxLocation.of(CatalogConfigLoader.embedded(home)).orElseThrow();
    try (Outbox outbox = Outbox.open(location, DeliverySettings.system())) {
      outbox.skip(
          entry(
              "k-token",
              EffectStatus.FAILED,
              now,
              Map.of("Authorization", "Bearer ${env:FLOE_TEST_NEVER_SET}")));
      outbox.skip(entry("k-failed", EffectStatus.FAILED, now));
    }

    CliRun text = floe(home, "effects", "--pending", "--retry", "--run-key", "k-token");
    CliRun json = floe(home, "effects", "--pending", "--retry", "--json");
    CliRun delivered = floe(home, "effects", "--retry", "--run-key", "k-failed", "--json");

    assertThat(text.exitCode()).isEqualTo(1);
    assertThat(text.err().lines()).hasSize(1);
    assertThat(text.err())
        .startsWith(
            "floe: Cannot deliver 1 of 1 effects; the first, notify_bi of run key k-token: failed"
                + " (Cannot send effect notify_bi header Authorization")
        .endsWith(" environment variable FLOE_TEST_NEVER_SET is not set)\n");
    assertThat(json.exitCode()).isEqualTo(1);
    JsonNode result = JSON.readTree(json.out());
    assertThat(result.get("status").asText()).isEqualTo("failed");
    assertThat(result.get("exit_code").asInt()).isEqualTo(1);
    assertThat(result.get("deliveries")).hasSize(2);
    assertThat(json.err())
        .isEqualTo("floe: " + result.get("error").asText() + "\n")
        .startsWith("floe: Cannot deliver 1 of 2 effects; the first, notify_bi of run key k-token");
    assertThat(delivered.exitCode()).isZero();
    JsonNode nothingOwed = JSON.readTree(delivered.out());
    assertThat(nothingOwed.get("status").asText()).isEqualTo("delivered");
    assertThat(nothingOwed.has("error")).isFalse();
    assertThat(delivered.err()).isEmpty();
  }

  @Test
  void aMistypedRunKeyOrEffectNameIsRefusedNotReadAsNothingOwed() throws Exception {
    try (Outbox outbox =
        Outbox.open(
            OutboxLocation.of(CatalogConfigLoader.embedded(home)).orElseThrow(),
            DeliverySettings.system())) {
      outbox.skip(entry("k-failed", EffectStatus.FAILED, Instant.now()));
    }

    CliRun runKey = floe(home, "effects", "--pending", "--retry", "--run-key", "k-faild");
    CliRun effect = floe(home, "effects", "--pending", "--retry", "--effect", "notfy_bi");
    CliRun batch = floe(home, "effects", "--run-key", "k");

    assertThat(runKey.exitCode()).isEqualTo(2);
    assertThat(runKey.err()).contains("Cannot list effects of run key k-faild: the outbox holds");
    assertThat(effect.exitCode()).isEqualTo(2);
    assertThat(effect.err())
        .contains(
            "Cannot list effects named notfy_bi: the outbox holds none; it holds [notify_bi]");
    assertThat(batch.exitCode()).isEqualTo(2);
    assertThat(server.count()).isZero();
  }

  private OutboxEntry entry(String runKey, EffectStatus status, Instant now) {
    return entry(runKey, status, now, Map.of());
  }

  private OutboxEntry entry(
      String runKey, EffectStatus status, Instant now, Map<String, String> headers) {
    return OutboxEntry.recorded(
        new OutboxKey(runKey, "notify_bi"),
        "run-" + runKey,
        "fact_orders_daily",
        "sales.fact_orders",
        "order_date=[2026-10-03,2026-10-04)",
        7L,
        server.url("/hook"),
        headers,
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
