package dev.floe.flink.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.backfill.BackfillEffects;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.effects.DeliverySettings;
import dev.floe.catalog.effects.OutboxStore;
import dev.floe.catalog.job.EffectSpecParser;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.flink.effects.RunEffects;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `floe backfill --dry-run` must change nothing. With on_backfill_done it creates the outbox table
 * in the catalog's database (a dry run against a read-only database user fails outright). No Flink
 * job runs here.
 */
class BackfillDryRunTest {
  @TempDir Path home;

  @Test
  void aDryRunWithADoneWebhookCreatesNothingInTheCatalogDatabase() throws Exception {
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    new ExampleTables(config).createOrders(LocalDate.parse("2026-01-01"), 3, 5);
    String yaml =
        "on_backfill_done:\n  - name: tell_bi\n    webhook: {url: \"http://127.0.0.1:9/done\"}\n";
    BackfillRequest request =
        BackfillRequest.builder(
                config,
                ExampleTables.backfillJob(ExampleTables.BACKFILL_JOB),
                "2026-01-01",
                "2026-01-04")
            .onBackfillDone(
                EffectSpecParser.parse(
                    Manifests.parse("backfills/x.yaml", yaml).child("on_backfill_done"),
                    BackfillEffects.VARIABLES))
            .options(o -> o.dryRun(true))
            .build();
    assertThat(tableExists(config)).isFalse();

    BackfillResult result =
        Backfill.run(
            request,
            BackfillListener.NONE,
            new RunEffects(
                DeliverySettings.of(
                    Clock.fixed(Instant.parse("2026-02-01T00:00:00Z"), ZoneOffset.UTC),
                    millis -> {},
                    Map.of())));

    assertThat(result.count(SliceStatus.PLANNED)).isEqualTo(3);
    assertThat(tableExists(config)).as("outbox table after a dry run").isFalse();
  }

  private static boolean tableExists(CatalogConfig config) throws Exception {
    try (Connection connection = DriverManager.getConnection(config.properties().get("uri"));
        ResultSet tables =
            connection
                .createStatement()
                .executeQuery(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name = '"
                        + OutboxStore.TABLE
                        + "'")) {
      return tables.next();
    }
  }
}
