package dev.floe.flink.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.backfill.BackfillEffects;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.effects.DeliverySettings;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.job.EffectSpec;
import dev.floe.catalog.job.EffectSpecParser;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.catalog.testing.TableRows;
import dev.floe.catalog.testing.WebhookServer;
import dev.floe.flink.effects.RunEffects;
import dev.floe.flink.testing.ExampleTables;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * on_backfill_done tells downstream "these slices were rebuilt, invalidate your caches". Keyed by
 * the backfill id alone, it stays silent when the same backfill (same derived id: same job, range,
 * manifest and code) rebuilds every slice again after a rollback.
 */
class BackfillDoneEffectAfterRollbackITCase {
  @TempDir Path home;
  @RegisterExtension final WebhookServer server = new WebhookServer();

  @Test
  void aBackfillThatRecommitsEverySliceAfterARollbackTellsDownstreamAgain() {
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    new ExampleTables(config).createOrders(LocalDate.parse("2026-01-01"), 3, 10);
    long beforeBackfill = seedTargetOutsideTheRange(config);
    RunEffects effects = effects();
    BackfillRequest request = request(config);

    BackfillResult first = Backfill.run(request, BackfillListener.NONE, effects);
    assertThat(first.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(server.count()).isEqualTo(1);

    // The operator rolls the table back to before the backfill (its rollback plan), then runs the
    // very same backfill command again.
    Catalog catalog = Catalogs.open(config);
    try {
      Catalogs.loadTable(catalog, ExampleTables.FACT_ORDERS)
          .manageSnapshots()
          .rollbackTo(beforeBackfill)
          .commit();
    } finally {
      Catalogs.close(catalog);
    }
    BackfillResult again = Backfill.run(request, BackfillListener.NONE, effects);

    assertThat(again.plan().backfillId()).isEqualTo(first.plan().backfillId());
    assertThat(again.count(SliceStatus.COMMITTED)).isEqualTo(3); // every slice rebuilt again
    assertThat(again.doneEffects().lines()).noneMatch(line -> line.contains("already sent"));
    assertThat(server.count()).as("one done webhook per completed rebuild").isEqualTo(2);
  }

  @Test
  void repeatingAFinishedBackfillAfterItsSourceWasRewrittenWithTheSameRowsTellsNobody()
      throws Exception {
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    new ExampleTables(config).createOrders(LocalDate.parse("2026-01-01"), 3, 10);
    RunEffects effects = effects();
    BackfillRequest request = request(config);
    Backfill.run(request, BackfillListener.NONE, effects);
    assertThat(server.count()).isEqualTo(1);

    // The source is rewritten with the very same rows (a re-run seed script): every slice runs
    // again and finds its content unchanged.
    Catalog catalog = Catalogs.open(config);
    try {
      Table source = Catalogs.loadTable(catalog, ExampleTables.STAGING_ORDERS);
      List<org.apache.iceberg.data.Record> rows = new java.util.ArrayList<>();
      try (var all = org.apache.iceberg.data.IcebergGenerics.read(source).build()) {
        all.forEach(r -> rows.add(r.copy()));
      }
      var overwrite = source.newOverwrite();
      source.newScan().planFiles().forEach(task -> overwrite.deleteFile(task.file()));
      overwrite
          .addFile(TableRows.write(source, rows.toArray(org.apache.iceberg.data.Record[]::new)))
          .commit();
    } finally {
      Catalogs.close(catalog);
    }
    BackfillResult again = Backfill.run(request, BackfillListener.NONE, effects);

    assertThat(again.count(SliceStatus.NO_OP)).isEqualTo(3);
    assertThat(again.doneEffects().lines()).anyMatch(line -> line.contains("already sent"));
    assertThat(server.count()).as("nothing was rebuilt").isEqualTo(1);
  }

  private static RunEffects effects() {
    return new RunEffects(
        DeliverySettings.of(
            Clock.fixed(Instant.parse("2026-02-01T02:00:00Z"), ZoneOffset.UTC),
            millis -> {},
            Map.of()));
  }

  /** The example backfill of 2026-01-01 to 2026-01-04 with the done webhook. */
  private BackfillRequest request(CatalogConfig config) {
    return BackfillRequest.builder(
            config,
            ExampleTables.backfillJob(ExampleTables.BACKFILL_JOB),
            "2026-01-01",
            "2026-01-04")
        .onBackfillDone(doneWebhook())
        .build();
  }

  private static long seedTargetOutsideTheRange(CatalogConfig config) {
    Catalog catalog = Catalogs.open(config);
    try {
      Table target = Catalogs.loadTable(catalog, ExampleTables.FACT_ORDERS);
      TableRows.append(
          target,
          TableRows.row(
              target,
              Map.of(
                  "order_id",
                  1L,
                  "customer_id",
                  1L,
                  "amount",
                  new BigDecimal("1.00"),
                  "order_date",
                  LocalDate.parse("2025-12-31"))));
      target.refresh();
      return target.currentSnapshot().snapshotId();
    } finally {
      Catalogs.close(catalog);
    }
  }

  private List<EffectSpec> doneWebhook() {
    String yaml =
        "on_backfill_done:\n  - name: tell_bi\n    webhook:\n      url: \""
            + server.url("/done")
            + "\"\n      body: '{\"backfill\": \"${backfill_id}\", \"committed\": ${committed}}'\n";
    return EffectSpecParser.parse(
        Manifests.parse("backfills/x.yaml", yaml).child("on_backfill_done"),
        BackfillEffects.VARIABLES);
  }
}
