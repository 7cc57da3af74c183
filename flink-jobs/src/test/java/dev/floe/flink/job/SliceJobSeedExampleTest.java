package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.flink.commit.CommitOutcome;
import java.math.BigDecimal;
import java.nio.file.Path;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SliceJobSeedExampleTest {
  @TempDir Path home;

  @Test
  void loadingTheSeedSliceTwiceLeavesTwoRowsTotalling70() throws Exception {
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    SeedTables seed = new SeedTables(config).create();

    RunResult first =
        SliceJob.run(RunRequest.of(config, SeedTables.job(SeedTables.FACT_JOB), "2026-10-03"));
    Table afterFirst = seed.table("sales.fact_orders");
    ContentHash checksumAfterFirst = TableContent.hash(afterFirst);

    RunResult second =
        SliceJob.run(RunRequest.of(config, SeedTables.job(SeedTables.FACT_JOB), "2026-10-03"));
    Table afterSecond = seed.table("sales.fact_orders");

    assertThat(first.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(first.outcome().rows()).isEqualTo(2);
    assertThat(second.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(TableContent.hash(afterSecond)).isEqualTo(checksumAfterFirst);
    assertThat(afterSecond.currentSnapshot().snapshotId())
        .isEqualTo(afterFirst.currentSnapshot().snapshotId());
    assertThat(seed.dayTotals("2026-10-03")).containsExactly(2L, new BigDecimal("70.00"));
    // The committed lineage hash is what a scan of the slice computes.
    assertThat(afterFirst.currentSnapshot().summary().get("floe.content-hash"))
        .isEqualTo(checksumAfterFirst.encode());
  }
}
