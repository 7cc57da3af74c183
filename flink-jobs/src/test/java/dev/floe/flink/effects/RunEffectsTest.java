package dev.floe.flink.effects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.effects.Delivery;
import dev.floe.catalog.effects.DeliverySettings;
import dev.floe.catalog.effects.EffectTemplate;
import dev.floe.catalog.effects.OutboxLocation;
import dev.floe.catalog.effects.OutboxStore;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.EffectSpec;
import dev.floe.catalog.testing.WebhookServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The entry points around runs that need no Flink job: the generic once-per-key delivery. */
class RunEffectsTest {
  @RegisterExtension final WebhookServer server = new WebhookServer();
  @TempDir Path home;

  private final RunEffects effects =
      new RunEffects(
          DeliverySettings.of(
              Clock.fixed(Instant.parse("2026-10-04T02:00:00Z"), ZoneOffset.UTC),
              d -> {
                throw new AssertionError("no wait expected, got " + d);
              },
              Map.of()));

  @Test
  void deliverOnceSendsABackfillsEffectOnceUnderItsKey() throws Exception {
    CatalogConfig catalog = CatalogConfigLoader.embedded(home);
    List<EffectSpec> done =
        List.of(
            new EffectSpec(
                "rebuilt",
                server.url("/rebuilt"),
                Map.of(),
                "{\"backfill\": \"${backfill_id}\", \"slices\": ${slices}}",
                3));
    Map<String, Object> values = Map.of("backfill_id", "bf-1", "slices", 30L);

    EffectsReport dryRun =
        effects.deliverOnce(
            catalog, "backfill:bf-1", done, values, "sales.fact_orders", "q1", true);
    EffectsReport first =
        effects.deliverOnce(
            catalog, "backfill:bf-1", done, values, "sales.fact_orders", "q1", false);
    EffectsReport second =
        effects.deliverOnce(
            catalog, "backfill:bf-1", done, values, "sales.fact_orders", "q1", false);

    assertThat(dryRun.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.WOULD_SEND);
    assertThat(first.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.SENT);
    assertThat(second.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.ALREADY_SENT);
    assertThat(server.count()).isEqualTo(1);
    assertThat(new ObjectMapper().readTree(server.requests().get(0).body()).get("slices").asLong())
        .isEqualTo(30);
    assertThat(server.requests().get(0).headers())
        .containsEntry("idempotency-key", "backfill:bf-1/rebuilt");
  }

  @Test
  void anOutboxUnreachableAfterTheCommitIsAWarningNotOnlyANote() throws Exception {
    CatalogConfig restWithLostOutbox =
        CatalogConfigLoader.load(
            null,
            home,
            Map.of(
                "type",
                "rest",
                "uri",
                "http://127.0.0.1:1/",
                OutboxLocation.URI_PROPERTY,
                "jdbc:sqlite:" + home.resolve("gone/outbox.db")),
            Map.of());
    List<EffectSpec> one =
        List.of(
            new EffectSpec(
                "p", server.url("/"), Map.of(), EffectTemplate.defaultBody(List.of("job")), 1));

    EffectsReport report =
        effects.deliverOnce(
            restWithLostOutbox, "backfill:bf-1", one, Map.of(), "sales.t", "q1", false);

    assertThat(report.deliveries()).isEmpty();
    assertThat(report.note()).startsWith("effects not all recorded: Cannot open the effect outbox");
    assertThat(report.warnings())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("effects not all recorded: Cannot open the effect outbox")
        .endsWith("the commit stands");
    assertThat(server.count()).isZero();
  }

  @Test
  void effectsWithoutAnOutboxDatabaseAreRefusedButFloeOutboxUriProvidesOne() {
    List<EffectSpec> one =
        List.of(
            new EffectSpec(
                "p", server.url("/"), Map.of(), EffectTemplate.defaultBody(List.of("job")), 1));
    CatalogConfig rest =
        CatalogConfigLoader.load(
            null, home, Map.of("type", "rest", "uri", "http://127.0.0.1:1/"), Map.of());
    CatalogConfig restWithOutbox =
        CatalogConfigLoader.load(
            null,
            home,
            Map.of(
                "type",
                "rest",
                "uri",
                "http://127.0.0.1:1/",
                OutboxLocation.URI_PROPERTY,
                "jdbc:sqlite:" + home.resolve("outbox.db")),
            Map.of());

    assertThatThrownBy(() -> effects.requireOutbox(rest, one, "jobs/x.yaml"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot run jobs/x.yaml with effects: catalog type rest");
    effects.requireOutbox(restWithOutbox, one, "jobs/x.yaml");
    assertThat(home.resolve("outbox.db")).exists();
  }

  @Test
  void checkOutboxRefusesWhatRequireOutboxRefusesButCreatesNothing() throws Exception {
    CatalogConfig catalog = CatalogConfigLoader.embedded(home);
    List<EffectSpec> withToken =
        List.of(
            new EffectSpec(
                "p",
                server.url("/"),
                Map.of("Authorization", "Bearer ${env:BI_TOKEN}"),
                EffectTemplate.defaultBody(List.of("job")),
                1));
    CatalogConfig rest =
        CatalogConfigLoader.load(
            null, home, Map.of("type", "rest", "uri", "http://127.0.0.1:1/"), Map.of());
    RunEffects withBiToken =
        new RunEffects(DeliverySettings.of(Clock.systemUTC(), d -> {}, Map.of("BI_TOKEN", "tok")));
    List<String> before = tables(catalog);

    assertThatThrownBy(() -> effects.checkOutbox(catalog, withToken, "jobs/x.yaml"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot run jobs/x.yaml: effect p needs the environment variable BI_TOKEN, which is"
                + " not set");
    assertThatThrownBy(() -> withBiToken.checkOutbox(rest, withToken, "jobs/x.yaml"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot run jobs/x.yaml with effects: catalog type rest");
    withBiToken.checkOutbox(catalog, withToken, "jobs/x.yaml");

    assertThat(tables(catalog)).isEqualTo(before).doesNotContain(OutboxStore.TABLE);
    withBiToken.requireOutbox(catalog, withToken, "jobs/x.yaml");
    assertThat(tables(catalog)).contains(OutboxStore.TABLE); // so the check above can fail
  }

  /** The tables in the embedded catalog's SQLite file (none when it does not exist yet). */
  private static List<String> tables(CatalogConfig catalog) throws Exception {
    List<String> names = new ArrayList<>();
    try (Connection connection = DriverManager.getConnection(catalog.properties().get("uri"));
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
