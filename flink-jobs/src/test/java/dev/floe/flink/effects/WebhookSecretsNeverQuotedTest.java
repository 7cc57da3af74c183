package dev.floe.flink.effects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.effects.Delivery;
import dev.floe.catalog.effects.DeliverySettings;
import dev.floe.catalog.effects.EffectStatus;
import dev.floe.catalog.effects.Outbox;
import dev.floe.catalog.effects.OutboxEntry;
import dev.floe.catalog.effects.OutboxLocation;
import dev.floe.catalog.job.EffectSpec;
import dev.floe.catalog.testing.WebhookServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A webhook secret must never reach a message. A token read from a mounted secret often ends in a
 * newline; java.net.http refuses such a header value with an IllegalArgumentException whose message
 * quotes the value, and the outbox does not catch it.
 */
class WebhookSecretsNeverQuotedTest {
  private static final String SECRET = "s3cret-token-value";

  @RegisterExtension final WebhookServer server = new WebhookServer();
  @TempDir Path home;

  private final DeliverySettings settings =
      DeliverySettings.of(
          Clock.fixed(Instant.parse("2026-10-04T02:00:00Z"), ZoneOffset.UTC),
          d -> {},
          Map.of("BI_TOKEN", SECRET + "\n"));

  @Test
  void aSecretHeaderValueTheHttpClientRefusesIsNeverQuotedAndTheEffectDoesNotStayClaimed() {
    CatalogConfig catalog = CatalogConfigLoader.embedded(home);
    List<EffectSpec> done =
        List.of(
            new EffectSpec(
                "rebuilt",
                server.url("/rebuilt"),
                Map.of("Authorization", "Bearer ${env:BI_TOKEN}"),
                "{\"backfill\": \"${backfill_id}\"}",
                1));

    EffectsReport report =
        new RunEffects(settings)
            .deliverOnce(
                catalog,
                "backfill:bf-1",
                done,
                Map.of("backfill_id", "bf-1"),
                "sales.fact_orders",
                "q1",
                false);

    assertThat(String.join("\n", report.lines())).doesNotContain(SECRET);
    assertThat(String.join("\n", report.warnings())).doesNotContain(SECRET);
    assertThat(String.valueOf(report.toMap())).doesNotContain(SECRET);
    // A header that can never be sent is a failed effect (as a missing variable is), not a claim
    // that blocks `floe effects --retry` for the 5-minute lease.
    try (Outbox outbox = Outbox.open(OutboxLocation.of(catalog).orElseThrow(), settings)) {
      List<OutboxEntry> entries = outbox.list(null, Set.of());
      assertThat(entries).hasSize(1);
      assertThat(entries.get(0).status()).isEqualTo(EffectStatus.FAILED);
      assertThat(String.valueOf(entries.get(0).lastError())).doesNotContain(SECRET);
      Delivery retried = outbox.retry(entries.get(0).key());
      assertThat(String.valueOf(retried.error())).doesNotContain(SECRET);
    }
    assertThat(server.count()).isZero();
  }
}
