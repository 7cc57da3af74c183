package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.error.CheckFailedException;
import dev.floe.catalog.error.CommitConflictException;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.testing.ExampleTables;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run path end to end on a Flink MiniCluster and the embedded catalog. Every scenario runs the
 * job at least twice and compares the table's content hash (computed by reading the table,
 * independent of lineage) after each run.
 */
class SliceJobITCase {
  @TempDir Path home;
  private CatalogConfig config;
  private ExampleTables seed;

  @BeforeEach
  void seedTheExample() throws Exception {
    config = CatalogConfigLoader.embedded(home);
    seed = new ExampleTables(config).createOrders();
  }

  @Test
  void loadingTheSeedSliceTwiceLeavesTwoRowsTotalling70() throws Exception {
    RunResult first = run(ExampleTables.FACT_JOB, "2026-10-03");
    Table afterFirst = fact();
    ContentHash checksumAfterFirst = TableContent.hash(afterFirst);

    RunResult second = run(ExampleTables.FACT_JOB, "2026-10-03");
    Table afterSecond = fact();

    assertThat(first.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(first.outcome().rows()).isEqualTo(2);
    assertThat(second.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(TableContent.hash(afterSecond)).isEqualTo(checksumAfterFirst);
    assertThat(afterSecond.currentSnapshot().snapshotId())
        .isEqualTo(afterFirst.currentSnapshot().snapshotId());
    assertThat(seed.dayTotals("2026-10-03")).containsExactly(2L, new BigDecimal("70.00"));
    // The lineage written by the writers is what an independent scan of the table computes.
    assertThat(afterFirst.currentSnapshot().summary())
        .containsEntry("floe.content-hash", checksumAfterFirst.encode())
        .containsEntry("floe.slice", "order_date=[2026-10-03,2026-10-04)")
        .containsEntry("floe.job", "fact_orders_daily")
        .containsEntry("floe.mode", "overwrite")
        .containsEntry("floe.rows", "2")
        .containsKeys("floe.run-key", "floe.run-id", "floe.code-version", "floe.source-snapshots");
    assertThat(first.runKey()).isEqualTo(second.runKey());
    assertThat(first.runId()).isNotEqualTo(second.runId());
  }

  @Test
  void aRerunAfterTheSourceDayEmptiedClearsThePartitionAndLeavesOthers() throws Exception {
    run(ExampleTables.FACT_JOB, "2026-10-03");
    run(ExampleTables.FACT_JOB, "2026-10-04");
    ContentHash day4 = TableContent.hash(fact(), ExampleTables.day("2026-10-04"));
    seed.sql("INSERT OVERWRITE sales.staging_orders VALUES (3, 12, 75.00, DATE '2026-10-04')");

    RunResult emptied = run(ExampleTables.FACT_JOB, "2026-10-03");
    ContentHash afterFirst = TableContent.hash(fact());
    RunResult again = run(ExampleTables.FACT_JOB, "2026-10-03");

    assertThat(emptied.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(emptied.outcome().rows()).isZero();
    assertThat(seed.dayTotals("2026-10-03")).containsExactly(0L, null);
    assertThat(TableContent.hash(fact(), ExampleTables.day("2026-10-04"))).isEqualTo(day4);
    assertThat(again.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(TableContent.hash(fact())).isEqualTo(afterFirst);
  }

  @Test
  void aFirstRunOfASliceWithoutSourceRowsIsANoOpThatSaysBothAreEmpty() throws Exception {
    RunResult empty = run(ExampleTables.FACT_JOB, "2026-10-09");

    assertThat(empty.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    // It said "(found by empty)".
    assertThat(empty.outcome().detail())
        .isEqualTo("the slice already holds exactly this content (both are empty)");
  }

  @Test
  void aRowOutsideTheSliceFailsTheRunAndCommitsNothing() throws Exception {
    run(ExampleTables.FACT_JOB, "2026-10-03");
    Snapshot before = fact().currentSnapshot();
    ContentHash content = TableContent.hash(fact());
    String unfiltered =
        ExampleTables.FACT_JOB.replace(
            "WHERE order_date >= :slice_start AND order_date < :slice_end", "WHERE order_id > 0");

    assertThatThrownBy(() -> run(unfiltered, "2026-10-03"))
        .isInstanceOf(CheckFailedException.class)
        .hasMessageContaining("outside the slice")
        .hasMessageContaining("order_date=2026-10-04");

    assertUnchanged(before, content);
  }

  @Test
  void failingChecksCommitNothingAndNameTheCheckAndSampleRows() throws Exception {
    run(ExampleTables.FACT_JOB, "2026-10-03");
    Snapshot before = fact().currentSnapshot();
    ContentHash content = TableContent.hash(fact());
    seed.sql(
        "INSERT INTO sales.staging_orders VALUES (1, 13, 5.00, DATE '2026-10-03'),"
            + " (4, 14, CAST(NULL AS DECIMAL(10, 2)), DATE '2026-10-03')");

    assertThatThrownBy(() -> run(ExampleTables.FACT_JOB, "2026-10-03"))
        .isInstanceOf(CheckFailedException.class)
        .hasMessageContaining("2 check(s) failed")
        .hasMessageContaining("not_null: [order_id, amount] failed: 1 rows")
        .hasMessageContaining("order_id=4")
        .hasMessageContaining("unique: [order_id] failed: 1 duplicated keys, e.g. order_id=1")
        .satisfies(
            e -> assertThat(((FloeException) e).exitCode()).isEqualTo(ExitCodes.CHECK_FAILED));

    assertUnchanged(before, content);
  }

  @Test
  void aFailureInjectedAfterTheFilesAreWrittenLeavesTheTableAndItsFilesUnchanged()
      throws Exception {
    run(ExampleTables.FACT_JOB, "2026-10-03");
    Snapshot before = fact().currentSnapshot();
    ContentHash content = TableContent.hash(fact());
    List<Path> filesBefore = dataFiles();
    seed.sql("INSERT INTO sales.staging_orders VALUES (5, 15, 1.00, DATE '2026-10-03')");

    RunRequest failing =
        RunRequest.of(config, ExampleTables.job(ExampleTables.FACT_JOB), "2026-10-03")
            .withOptions(o -> o.failAt(FailurePoint.BEFORE_COMMIT));
    assertThatThrownBy(() -> SliceJob.run(failing)).hasMessageContaining("Injected failure");

    assertUnchanged(before, content);
    assertThat(dataFiles()).containsExactlyInAnyOrderElementsOf(filesBefore);
    // And the retry after the failure succeeds, with the new row.
    assertThat(run(ExampleTables.FACT_JOB, "2026-10-03").outcome().rows()).isEqualTo(3);
  }

  @Test
  void twoConcurrentRunsWithDifferentResultsEndWithExactlyOneRunsRows() throws Exception {
    String doubled =
        ExampleTables.FACT_JOB.replace(
            "SELECT order_id, customer_id, amount, order_date",
            "SELECT order_id, customer_id, CAST(amount * 2 AS DECIMAL(10, 2)) AS amount, order_date");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<Future<RunResult>> runs = new ArrayList<>();
    try {
      runs.add(pool.submit(() -> run(ExampleTables.FACT_JOB, "2026-10-03")));
      runs.add(pool.submit(() -> run(doubled, "2026-10-03")));
      List<RunResult> committed = new ArrayList<>();
      List<Throwable> refused = new ArrayList<>();
      for (Future<RunResult> future : runs) {
        try {
          committed.add(future.get());
        } catch (java.util.concurrent.ExecutionException e) {
          refused.add(e.getCause());
        }
      }
      // Both read the same source snapshot: whichever committed second is stale (rule 7) —
      // unless it saw the first one's snapshot before starting, and then simply replaced it.
      List<RunResult> winners =
          committed.stream()
              .filter(r -> r.outcome().status() == CommitOutcome.Status.COMMITTED)
              .toList();
      assertThat(refused)
          .allSatisfy(e -> assertThat(e).isInstanceOf(CommitConflictException.class));
      assertThat(winners).isNotEmpty();
      RunResult last = winners.get(winners.size() - 1);
      Snapshot head = fact().currentSnapshot();
      assertThat(head.summary().get("floe.run-id"))
          .isIn(winners.stream().map(RunResult::runId).toList());
      assertThat(TableContent.hash(fact()).encode())
          .isEqualTo(head.summary().get("floe.content-hash"));
      assertThat(TableContent.hash(fact()).rows()).isEqualTo(2);
      assertThat(last.outcome().rows()).isEqualTo(2);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aQueryCallingAWallClockFunctionIsRefusedUnlessAllowed() throws Exception {
    String clock =
        ExampleTables.FACT_JOB.replace(
            "WHERE order_date >= :slice_start AND order_date < :slice_end",
            "WHERE order_date >= :slice_start AND order_date < :slice_end\n"
                + "    AND order_date <= CURRENT_DATE");

    assertThatThrownBy(() -> run(clock, "2026-10-03"))
        .isInstanceOf(dev.floe.catalog.error.InvalidInputException.class)
        .hasMessageContaining("jobs/test.yaml")
        .hasMessageContaining("CURRENT_DATE");
    assertThat(fact().currentSnapshot()).isNull();

    String allowed = clock + "allow_nondeterministic: true\n";
    assertThat(run(allowed, "2026-10-03").outcome().rows()).isEqualTo(2);
  }

  @Test
  void functionNamesInCommentsAndStringLiteralsDoNotCountAsCalls() throws Exception {
    String innocent =
        ExampleTables.FACT_JOB.replace(
            "SELECT order_id, customer_id, amount, order_date",
            "-- do not use NOW() or CURRENT_DATE here\n"
                + "  SELECT order_id, customer_id, amount, order_date /* RAND() */");
    String withLiteral =
        innocent.replace("WHERE order_date", "WHERE 'UUID()' <> 'x' AND order_date");

    assertThat(run(withLiteral, "2026-10-03").outcome().rows()).isEqualTo(2);
  }

  private RunResult run(String manifest, String slice) {
    return SliceJob.run(RunRequest.of(config, ExampleTables.job(manifest), slice));
  }

  private Table fact() {
    return seed.table("sales.fact_orders");
  }

  private void assertUnchanged(Snapshot before, ContentHash content) {
    Table now = fact();
    assertThat(now.currentSnapshot().snapshotId()).isEqualTo(before.snapshotId());
    assertThat(TableContent.hash(now)).isEqualTo(content);
  }

  private List<Path> dataFiles() throws IOException {
    Path data = home.resolve("warehouse/sales/fact_orders/data");
    try (Stream<Path> files = Files.walk(data)) {
      return files.filter(p -> p.toString().endsWith(".parquet")).toList();
    }
  }
}
