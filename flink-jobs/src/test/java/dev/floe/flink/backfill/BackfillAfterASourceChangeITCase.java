package dev.floe.flink.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13: the same backfill run again after a source changed must leave the table a fresh run
 * would leave. Skipping a slice it loaded is an optimisation that holds only while the slice's
 * source rows are unchanged, and a changed sample source must not be called "not reproducible". The
 * table's content, read from its files, is the judge: every slice must hash like its day of the
 * source.
 */
class BackfillAfterASourceChangeITCase {
  private static final LocalDate OCT_3 = LocalDate.parse("2026-10-03");
  private static final LocalDate OCT_5 = LocalDate.parse("2026-10-05"); // the sample

  @TempDir Path home;

  @Test
  void theSameBackfillAfterAnInsertOverwriteOfTheSourceLoadsTheNewRows() {
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    ExampleTables tables = new ExampleTables(config).createOrders(OCT_3, 3, 5);
    BackfillRequest request =
        BackfillRequest.of(
            config,
            ExampleTables.backfillJob(ExampleTables.BACKFILL_JOB),
            "2026-10-03",
            "2026-10-06");
    assertThat(Backfill.run(request).exitCode()).isEqualTo(ExitCodes.OK);

    tables.overwriteSourceDay(OCT_3, 3);
    BackfillResult again = Backfill.run(request);

    assertThat(again.exitCode()).as(again.sample().detail()).isEqualTo(ExitCodes.OK);
    assertSlicesHoldTheirSourceDays(tables);
    assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, OCT_3).rows()).isEqualTo(3);

    // Now the sample's own day changes: a fresh run differs from main, which is stale, not
    // irreproducible.
    tables.overwriteSourceDay(OCT_5, 4);
    BackfillResult sampleChanged = Backfill.run(request);

    assertThat(sampleChanged.exitCode())
        .as(sampleChanged.sample().detail())
        .isEqualTo(ExitCodes.OK);
    assertSlicesHoldTheirSourceDays(tables);
    assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, OCT_5).rows()).isEqualTo(4);
  }

  private static void assertSlicesHoldTheirSourceDays(ExampleTables tables) {
    for (int d = 0; d < 3; d++) {
      LocalDate day = OCT_3.plusDays(d);
      assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, day))
          .as("content of %s", day)
          .isEqualTo(tables.dayHash(ExampleTables.STAGING_ORDERS, day));
    }
  }
}
