package dev.floe.flink.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import java.time.LocalDate;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A resumed backfill may skip only the slices whose CURRENT content is its own load. A slice whose
 * rows another writer replaced or deleted after the backfill loaded it still has the backfill's
 * commit as its newest Floe load, and FinishedSlices looks no further.
 */
class BackfillResumeAfterForeignWriteITCase {
  private static final LocalDate JAN_1 = LocalDate.parse("2026-01-01");

  @TempDir Path home;
  private CatalogConfig config;
  private ExampleTables tables;

  @BeforeEach
  void createTables() {
    config = CatalogConfigLoader.embedded(home);
    tables = new ExampleTables(config).createOrders(JAN_1, 3, 20);
  }

  @Test
  void aResumedBackfillReloadsASliceWhoseRowsWereDeletedAfterItsLoad() {
    BackfillRequest request =
        BackfillRequest.of(
            config,
            ExampleTables.backfillJob(ExampleTables.BACKFILL_JOB),
            "2026-01-01",
            "2026-01-04");
    BackfillResult interrupted =
        Backfill.run(request.toBuilder().failAtSlice("2026-01-02").build());
    assertThat(interrupted.count(SliceStatus.COMMITTED)).isEqualTo(2); // 01 and the sample 03
    assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, JAN_1))
        .isEqualTo(tables.dayHash(ExampleTables.STAGING_ORDERS, JAN_1));

    // Someone clears day 1 (a DELETE from another engine) before the backfill is resumed.
    Catalog catalog = Catalogs.open(config);
    try {
      Table target = Catalogs.loadTable(catalog, ExampleTables.FACT_ORDERS);
      target.newDelete().deleteFromRowFilter(ExampleTables.day(JAN_1)).commit();
    } finally {
      Catalogs.close(catalog);
    }
    assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, JAN_1).rows()).isZero();

    BackfillResult resumed = Backfill.run(request);

    assertThat(resumed.exitCode()).isEqualTo(ExitCodes.OK);
    // The backfill reports the range complete, so day 1 must hold its rows again.
    assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, JAN_1))
        .as("day 1 after the resumed backfill (status %s)", resumed.outcomes().get(0).status())
        .isEqualTo(tables.dayHash(ExampleTables.STAGING_ORDERS, JAN_1));
  }
}
