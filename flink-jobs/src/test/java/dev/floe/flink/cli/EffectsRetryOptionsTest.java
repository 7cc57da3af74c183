package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.effects.DeliverySettings;
import dev.floe.catalog.effects.EffectStatus;
import dev.floe.catalog.effects.Outbox;
import dev.floe.catalog.effects.OutboxEntry;
import dev.floe.catalog.effects.OutboxKey;
import dev.floe.catalog.effects.OutboxLocation;
import dev.floe.catalog.testing.WebhookServer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** `floe effects` retry options; no Flink job. */
class EffectsRetryOptionsTest {
  @RegisterExtension final WebhookServer server = new WebhookServer();
  @TempDir Path home;

  /**
   * The runbook's resend command is `floe effects --pending --retry`; `--include-skipped` "also
   * sends effects a backfill recorded as skipped". Added to that command it is silently ignored:
   * --pending filters the skipped rows out before --include-skipped is looked at.
   */
  @Test
  void includeSkippedAlsoSendsSkippedEffectsWhenAddedToThePendingRetry() {
    Instant now = Instant.parse("2026-10-04T02:00:00Z");
    try (Outbox outbox =
        Outbox.open(
            OutboxLocation.of(CatalogConfigLoader.embedded(home)).orElseThrow(),
            DeliverySettings.system())) {
      outbox.skip(entry("k-skipped", EffectStatus.SKIPPED, now));
    }

    CliRun retry = floe(home, "effects", "--pending", "--retry", "--include-skipped");

    assertThat(retry.exitCode()).as(retry.err()).isZero();
    assertThat(retry.out()).contains("k-skipped  notify_bi  sent");
    assertThat(server.count()).isEqualTo(1);
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
}
