package dev.floe.flink.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.error.CheckFailedException;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.RunResult;
import dev.floe.flink.job.SliceJob;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Build-and-swap: the whole table is replaced in one snapshot, or not at all. */
class SwapITCase {
  private static final String SWAP =
      """
      job: dim_customer_rebuild
      target: sales.dim_customer
      mode: swap
      query: |
        SELECT customer_id, tier, updated_at FROM (
          SELECT *, ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY updated_at DESC) AS n
          FROM sales.staging_customer)
        WHERE n = 1
      checks:
        - unique: [customer_id]
      """;

  @TempDir Path home;
  private CatalogConfig config;
  private ExampleTables seed;

  @BeforeEach
  void seedTheExample() throws Exception {
    config = CatalogConfigLoader.embedded(home);
    seed = new ExampleTables(config).createCustomers();
  }

  @Test
  void aSwapReplacesTheWholeTableOnceAndItsRerunCommitsNothing() throws Exception {
    RunResult first = run(SWAP);
    ContentHash checksum = TableContent.hash(dim());
    Snapshot swapped = dim().currentSnapshot();
    seed.stagingCustomers("(12, 'gold', " + ExampleTables.ts("2026-10-04 08:00:00") + ")");
    seed.stagingCustomers(ExampleTables.CUSTOMER_SEED_ROWS);
    RunResult rerun = run(SWAP);

    assertThat(first.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(seed.dimension())
        .containsExactly("10 pro 2026-10-03 12:00", "11 free 2026-10-03 10:00");
    assertThat(swapped.summary())
        .containsEntry("floe.mode", "swap")
        .containsEntry("floe.slice", "*");
    assertThat(rerun.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(dim().currentSnapshot().snapshotId()).isEqualTo(swapped.snapshotId());
    assertThat(TableContent.hash(dim())).isEqualTo(checksum);
  }

  @Test
  void aNewSourceReplacesEveryRowInOneSnapshot() throws Exception {
    run(SWAP);
    Snapshot before = dim().currentSnapshot();
    seed.stagingCustomers("(12, 'gold', " + ExampleTables.ts("2026-10-04 08:00:00") + ")");

    run(SWAP);

    assertThat(seed.dimension()).containsExactly("12 gold 2026-10-04 08:00");
    assertThat(dim().currentSnapshot().parentId()).isEqualTo(before.snapshotId());
    assertThat(dim().currentSnapshot().summary())
        .containsEntry("deleted-records", "2")
        .containsEntry("added-records", "1");
  }

  @Test
  void aFailureBeforeTheCommitLeavesTheOldTableIntact() throws Exception {
    run(SWAP);
    Snapshot before = dim().currentSnapshot();
    ContentHash checksum = TableContent.hash(dim());
    seed.stagingCustomers("(12, 'gold', " + ExampleTables.ts("2026-10-04 08:00:00") + ")");

    assertThatThrownBy(
            () ->
                SliceJob.run(
                    RunRequest.of(config, ExampleTables.job(SWAP), null)
                        .withOptions(o -> o.failAt(FailurePoint.BEFORE_COMMIT))))
        .hasMessageContaining("Injected failure before the commit of the whole table");

    assertThat(dim().currentSnapshot().snapshotId()).isEqualTo(before.snapshotId());
    assertThat(TableContent.hash(dim())).isEqualTo(checksum);
    assertThat(seed.dimension())
        .containsExactly("10 pro 2026-10-03 12:00", "11 free 2026-10-03 10:00");
  }

  @Test
  void anEmptyResultIsAnErrorUnlessAllowEmpty() throws Exception {
    run(SWAP);
    Snapshot before = dim().currentSnapshot();
    seed.clearStagingCustomers();

    assertThatThrownBy(() -> run(SWAP))
        .isInstanceOf(CheckFailedException.class)
        .hasMessageContaining(
            "Cannot swap the content of sales.dim_customer: the query returned no rows")
        .hasMessageContaining("allow_empty: true");
    assertThat(dim().currentSnapshot().snapshotId()).isEqualTo(before.snapshotId());

    RunResult emptied = run(SWAP + "allow_empty: true\n");

    assertThat(emptied.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(seed.dimension()).isEmpty();
  }

  @Test
  void aSliceIsRefusedForASwap() {
    assertThatThrownBy(
            () -> SliceJob.run(RunRequest.of(config, ExampleTables.job(SWAP), "2026-10-03")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(
            "the manifest has no slice, so the run owns the whole table (mode swap)");
  }

  private RunResult run(String manifest) {
    return SliceJob.run(RunRequest.of(config, ExampleTables.job(manifest), null));
  }

  private Table dim() {
    return seed.table("sales.dim_customer");
  }
}
