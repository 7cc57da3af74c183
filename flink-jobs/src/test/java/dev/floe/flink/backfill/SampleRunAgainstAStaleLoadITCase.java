package dev.floe.flink.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.window.LoadedSlice;
import dev.floe.catalog.window.LoadedSlices;
import dev.floe.flink.effects.RunEffects;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.SliceJob;
import dev.floe.flink.session.LocalCluster;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13: the sample check must compare runs that read the same source snapshots. Here the
 * sample's load on main is stale (its source was overwritten after the plan took it as finished): a
 * fresh run differs from main because the source changed, which says nothing about whether the job
 * is reproducible. The table's content, read from its files, is the judge.
 */
class SampleRunAgainstAStaleLoadITCase {
  private static final LocalDate OCT_5 = LocalDate.parse("2026-10-05");

  @TempDir Path home;

  @Test
  void aStaleLoadOfTheSampleIsLoadedAgainNotReportedAsNotReproducible() {
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    ExampleTables tables = new ExampleTables(config).createOrders(OCT_5, 1, 5);
    RunRequest sample =
        RunRequest.of(config, ExampleTables.backfillJob(ExampleTables.BACKFILL_JOB), "2026-10-05")
            .withOptions(o -> o.backfillId("oct_rebuild"));
    try (LocalCluster cluster = LocalCluster.start(1)) {
      SliceJob.run(sample);
      LoadedSlice loaded = LoadedSlices.of(tables.table(ExampleTables.FACT_ORDERS)).slices().get(0);
      PlannedSlice planned =
          new PlannedSlice(
              "2026-10-05",
              loaded.slice().label(),
              loaded.latest().lineage().runKey(),
              true,
              loaded.latest());
      tables.overwriteSourceDay(OCT_5, 4); // after the plan: main's load is stale now

      SampleCheck check =
          SampleRun.check(sample, planned, run -> BackfillSlices.run(run, RunEffects.system()));

      assertThat(check.passed()).as(check.detail()).isTrue();
      assertThat(check.exitCode()).isEqualTo(ExitCodes.OK);
      assertThat(check.first().status()).isEqualTo(SliceStatus.COMMITTED);
      assertThat(check.detail()).contains("so the sample was loaded again");
    }
    assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, OCT_5))
        .isEqualTo(tables.dayHash(ExampleTables.STAGING_ORDERS, OCT_5));
    assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, OCT_5).rows()).isEqualTo(4);
    assertThat(tables.table(ExampleTables.FACT_ORDERS).refs()).containsOnlyKeys("main");
  }
}
