package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.RecordHasher;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import dev.floe.flink.check.CheckStats;
import dev.floe.flink.check.DuplicateKeys;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.commit.CommitPlan;
import dev.floe.flink.commit.SliceCommitter;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.RunResult;
import dev.floe.flink.job.SliceJob;
import dev.floe.flink.run.RunOptions;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Compaction end to end on a Flink MiniCluster and the embedded catalog. Unchanged-ness is checked
 * by content hashes computed by reading the table and by the warehouse's file set.
 */
class CompactionITCase {
  private static final String DAY3 = "2026-10-03";
  private static final String DAY4 = "2026-10-04";
  private static final String DAY5 = "2026-10-05";
  private static final String FACT_JOB =
      """
      job: fact_orders_daily
      target: sales.fact_orders
      mode: overwrite
      slice: {column: order_date}
      query: |
        SELECT order_id, customer_id, amount, order_date
        FROM sales.staging_orders
        WHERE order_date >= :slice_start AND order_date < :slice_end
      checks:
        - not_null: [order_id, amount]
        - unique: [order_id]
      """;

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table fact;

  @BeforeEach
  void createTable() {
    fact = catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
  }

  @Test
  void compactsTwoHundredSmallFilesOfASliceAndChangesNoRowAndNoOtherSlice() {
    SmallFiles.append(fact, DAY3, 200, 10, 1);
    SmallFiles.append(fact, DAY4, 20, 10, 10_000);
    SmallFiles.append(fact, DAY5, 5, 10, 20_000);
    fact.refresh();
    long base = fact.currentSnapshot().snapshotId();
    ContentHash table = TableContent.hash(fact);
    ContentHash day3 = day(DAY3);
    ContentHash day4 = day(DAY4);
    Set<String> day5Files = SmallFiles.dataFiles(fact, DAY5);

    long started = System.nanoTime();
    CompactionResult result =
        Compaction.of(catalog.config(), SmallFiles.FACT)
            .slices(List.of(DAY3, DAY4))
            .parallelism(2)
            .commit();
    long millis = (System.nanoTime() - started) / 1_000_000;
    java.io.StringWriter text = new java.io.StringWriter();
    CompactionReport.print(result, new java.io.PrintWriter(text, true));
    System.out.print(text);
    System.out.printf(
        "MEASURE compaction: %d -> %d files in %s (%d -> %d bytes), both slices %d ms%n",
        result.slices().get(0).before().files(),
        result.slices().get(0).after().files(),
        DAY3,
        result.slices().get(0).before().bytes(),
        result.slices().get(0).after().bytes(),
        millis);

    fact.refresh();
    assertThat(result.exitCode()).isZero();
    assertThat(result.slices())
        .extracting(SliceCompaction::status)
        .containsExactly(SliceCompaction.Status.COMPACTED, SliceCompaction.Status.COMPACTED);
    SliceCompaction compacted = result.slices().get(0);
    assertThat(compacted.before()).isEqualTo(new FileStats(200, compacted.before().bytes(), 2000));
    assertThat(compacted.after().files()).isEqualTo(1);
    assertThat(compacted.after().rows()).isEqualTo(2000);
    assertThat(SmallFiles.dataFiles(fact, DAY3)).hasSize(1);
    assertThat(SmallFiles.dataFiles(fact, DAY4)).hasSize(1);
    // Content: the same rows, whole table and per slice; the other slice's files untouched.
    assertThat(TableContent.hash(fact)).isEqualTo(table);
    assertThat(day(DAY3)).isEqualTo(day3);
    assertThat(day(DAY4)).isEqualTo(day4);
    assertThat(SmallFiles.dataFiles(fact, DAY5)).isEqualTo(day5Files);
    // One snapshot per compacted slice, each a rewrite carrying compaction lineage.
    List<Snapshot> added = snapshotsAfter(base);
    assertThat(added).hasSize(2);
    assertThat(added).extracting(Snapshot::operation).containsOnly("replace");
    assertThat(added.get(0).summary())
        .containsEntry("floe.mode", "compact")
        .containsEntry("floe.slice", "order_date=[2026-10-03,2026-10-04)")
        .containsEntry("floe.run-id", compacted.runId())
        .containsEntry("floe.compacted-rows", "2000")
        .containsEntry("floe.compacted-content-hash", day3.encode())
        .doesNotContainKeys("floe.rows", "floe.content-hash")
        .containsEntry("deleted-data-files", "200")
        .containsEntry("added-data-files", "1");
    assertThat(added.get(1).summary())
        .containsEntry("floe.slice", "order_date=[2026-10-04,2026-10-05)");
    assertThat(compacted.snapshotId()).isEqualTo(added.get(0).snapshotId());
  }

  @Test
  void aPartitionWhoseSmallFilesFillSeveralTargetsIsRewrittenByParallelGroups() {
    SmallFiles.append(fact, DAY3, 60, 10, 1);
    fact.refresh();
    ContentHash content = TableContent.hash(fact);
    int files = SmallFiles.dataFiles(fact, DAY3).size();
    CompactionResult planned =
        Compaction.of(catalog.config(), SmallFiles.FACT).slices(List.of(DAY3)).apply();
    long target = planned.slices().get(0).rewritten().bytes() / 3 + 1;

    CompactionResult result =
        Compaction.of(catalog.config(), SmallFiles.FACT)
            .slices(List.of(DAY3))
            .targetFileSizeBytes(target)
            .parallelism(2)
            .commit();

    fact.refresh();
    SliceCompaction slice = result.slices().get(0);
    assertThat(files).isEqualTo(60);
    assertThat(slice.status()).isEqualTo(SliceCompaction.Status.COMPACTED);
    assertThat(slice.expectedOutputFiles()).isEqualTo(3);
    assertThat(slice.written().files()).isBetween(3, 6);
    assertThat(SmallFiles.dataFiles(fact, DAY3)).hasSize(slice.written().files());
    assertThat(TableContent.hash(fact)).isEqualTo(content);
    assertThat(fact.currentSnapshot().summary()).containsEntry("deleted-data-files", "60");
  }

  @Test
  void aRerunOfTheSlicesJobAfterCompactionIsANoOpFoundByLineage() throws Exception {
    Table staging =
        catalog.create("sales.staging_orders", SmallFiles.SCHEMA, PartitionSpec.unpartitioned());
    for (int f = 0; f < 4; f++) {
      SmallFiles.append(staging, DAY3, 1, 500, 1 + f * 500L);
    }
    SmallFiles.append(staging, DAY4, 1, 10, 50_000);
    JobSpec job = JobSpecParser.parse(Manifests.parse("jobs/fact.yaml", FACT_JOB), FACT_JOB);
    RunResult first =
        SliceJob.run(RunRequest.of(catalog.config(), job, DAY3).withOptions(o -> o.parallelism(3)));
    fact.refresh();
    int filesWritten = SmallFiles.dataFiles(fact, DAY3).size();
    ContentHash content = TableContent.hash(fact);

    CompactionResult compaction =
        Compaction.of(catalog.config(), SmallFiles.FACT).slices(List.of(DAY3)).commit();
    fact.refresh();
    long compacted = fact.currentSnapshot().snapshotId();
    // --recompute: the job runs and its committer decides (without it the rerun skips its job).
    RunResult rerun =
        SliceJob.run(
            RunRequest.of(catalog.config(), job, DAY3).withOptions(o -> o.recompute(true)));

    fact.refresh();
    assertThat(first.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(filesWritten).isGreaterThan(1);
    assertThat(compaction.slices().get(0).status()).isEqualTo(SliceCompaction.Status.COMPACTED);
    assertThat(SmallFiles.dataFiles(fact, DAY3)).hasSize(1);
    assertThat(rerun.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    // Found from the run's lineage behind the compaction, not by reading the slice again.
    assertThat(rerun.outcome().detail()).contains("found by lineage");
    assertThat(fact.currentSnapshot().snapshotId()).isEqualTo(compacted);
    assertThat(TableContent.hash(fact)).isEqualTo(content);

    // And a real change after the compaction is still committed, not mistaken for a no-op.
    SmallFiles.append(staging, DAY3, 1, 1, 90_000);
    RunResult changed = SliceJob.run(RunRequest.of(catalog.config(), job, DAY3));
    assertThat(changed.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(day(DAY3).rows()).isEqualTo(2001);
  }

  @Test
  void aRunThatStartedBeforeACompactionOfItsSliceReCommitsOverIt() {
    SmallFiles.append(fact, DAY3, 5, 3, 1);
    fact.refresh();
    long runStart = fact.currentSnapshot().snapshotId();
    Compaction.of(catalog.config(), SmallFiles.FACT).slices(List.of(DAY3)).commit();
    Record row =
        TableRows.row(
            fact,
            Map.of(
                "order_id",
                7L,
                "amount",
                new BigDecimal("7.00"),
                "order_date",
                LocalDate.parse(DAY3)));
    ContentHash hash = ContentHash.empty();
    new RecordHasher(SmallFiles.SCHEMA).add(row, hash);
    List<DataFile> files = new ArrayList<>(List.of(TableRows.write(fact, row)));

    CommitOutcome outcome =
        new SliceCommitter(catalog.catalog(), overwritePlan(runStart))
            .commit(files, hash, new CheckStats(), new DuplicateKeys());

    assertThat(outcome.status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(outcome.attempts()).isEqualTo(2);
    assertThat(outcome.detail())
        .startsWith("committed on top of the newer snapshot: only a compaction (snapshot ");
    assertThat(day(DAY3)).isEqualTo(hash);
  }

  @Test
  void aFailureInARewriterLeavesTheTableAndTheWarehouseUnchanged() {
    assertAFailureChangesNothing(FailurePoint.AFTER_SOME_FILES);
  }

  @Test
  void aFailureInTheCommitterWithEveryFileWrittenLeavesTheTableAndTheWarehouseUnchanged() {
    assertAFailureChangesNothing(FailurePoint.BEFORE_COMMIT);
  }

  private void assertAFailureChangesNothing(FailurePoint failure) {
    SmallFiles.append(fact, DAY3, 30, 10, 1);
    SmallFiles.append(fact, DAY4, 30, 10, 10_000);
    fact.refresh();
    long head = fact.currentSnapshot().snapshotId();
    ContentHash content = TableContent.hash(fact);
    Set<String> warehouse = SmallFiles.warehouse(fact);

    assertThatThrownBy(
            () ->
                Compaction.of(catalog.config(), SmallFiles.FACT)
                    .slices(List.of(DAY3, DAY4))
                    .parallelism(1)
                    .failAt(failure)
                    .commit())
        .hasMessageContaining("Cannot compact sales.fact_orders")
        .hasMessageContaining("Injected failure")
        .hasMessageContaining("nothing was committed");

    Table after = catalog.load(SmallFiles.FACT);
    assertThat(after.currentSnapshot().snapshotId()).isEqualTo(head);
    assertThat(TableContent.hash(after)).isEqualTo(content);
    assertThat(SmallFiles.warehouse(after)).isEqualTo(warehouse);
  }

  @Test
  void aConcurrentCommitOnASliceFailsThatSliceOnlyAndItsFilesAreDeleted() {
    SmallFiles.append(fact, DAY3, 10, 10, 1);
    SmallFiles.append(fact, DAY4, 10, 10, 10_000);
    fact.refresh();
    ContentHash day4 = day(DAY4);
    Set<String> warehouseBefore = SmallFiles.warehouse(fact);

    CompactionResult result =
        Compaction.of(catalog.config(), SmallFiles.FACT)
            .slices(List.of(DAY3, DAY4))
            .afterPlanning(() -> SmallFiles.append(catalog.load(SmallFiles.FACT), DAY3, 1, 1, 500))
            .commit();

    fact.refresh();
    SliceCompaction conflicted = result.slices().get(0);
    assertThat(conflicted.status()).isEqualTo(SliceCompaction.Status.FAILED);
    assertThat(conflicted.exitCode()).isEqualTo(ExitCodes.COMMIT_CONFLICT);
    assertThat(conflicted.detail())
        .startsWith("Cannot compact slice order_date=[2026-10-03,2026-10-04) of sales.fact_orders:")
        .contains("changed the slice after compaction read it");
    assertThat(conflicted.snapshotId()).isNull();
    assertThat(result.slices().get(1).status()).isEqualTo(SliceCompaction.Status.COMPACTED);
    assertThat(result.exitCode()).isEqualTo(ExitCodes.COMMIT_CONFLICT);
    // Day 3 holds its 10 files plus the concurrent one; day 4 is compacted with the same rows.
    assertThat(SmallFiles.dataFiles(fact, DAY3)).hasSize(11);
    assertThat(day(DAY3).rows()).isEqualTo(101);
    assertThat(SmallFiles.dataFiles(fact, DAY4)).hasSize(1);
    assertThat(day(DAY4)).isEqualTo(day4);
    // No file written for day 3 is left: every new data file is the concurrent one or day 4's.
    Set<String> newDataFiles = SmallFiles.warehouse(fact);
    newDataFiles.removeAll(warehouseBefore);
    assertThat(newDataFiles).noneMatch(f -> f.contains(conflicted.runId()));
    assertThat(newDataFiles.stream().filter(f -> f.startsWith("data/") && f.endsWith(".parquet")))
        .as("new data files: the concurrent one and day 4's compacted one, in %s", newDataFiles)
        .hasSize(2);
  }

  @Test
  void aRollbackWhileACompactionIsInFlightIsNamedAsARollback() {
    SmallFiles.append(fact, DAY3, 10, 10, 1);
    fact.refresh();
    long older = fact.currentSnapshot().snapshotId();
    SmallFiles.append(fact, DAY4, 10, 10, 10_000);
    fact.refresh();
    long base = fact.currentSnapshot().snapshotId();

    CompactionResult result =
        Compaction.of(catalog.config(), SmallFiles.FACT)
            .slices(List.of(DAY3))
            .afterPlanning(
                () -> catalog.load(SmallFiles.FACT).manageSnapshots().rollbackTo(older).commit())
            .commit();

    // It named snapshot `older` as a commit that changed the slice after compaction read it.
    assertThat(result.slices().get(0).exitCode()).isEqualTo(ExitCodes.COMMIT_CONFLICT);
    assertThat(result.slices().get(0).detail())
        .contains(
            "main no longer descends from snapshot "
                + base
                + " the compaction read (it is at snapshot "
                + older
                + ": the table was rolled back, or that snapshot expired, while the compaction"
                + " was in flight)");
    fact.refresh();
    assertThat(fact.currentSnapshot().snapshotId()).isEqualTo(older);
  }

  private CommitPlan overwritePlan(long start) {
    Lineage lineage =
        new Lineage(
            "key",
            "run-late",
            "fact_orders_daily",
            "overwrite",
            SliceResolver.resolve(SmallFiles.FACT, fact, "order_date", DAY3).label(),
            "test",
            0,
            null,
            Map.of(),
            null);
    return new CommitPlan(
        catalog.config(),
        SmallFiles.FACT,
        Scope.of(SliceResolver.resolve(SmallFiles.FACT, fact, "order_date", DAY3)),
        WriteMode.OVERWRITE,
        false,
        lineage,
        start,
        fact.schema().schemaId(),
        List.of(),
        RunOptions.defaults());
  }

  private List<Snapshot> snapshotsAfter(long base) {
    List<Snapshot> added = new ArrayList<>();
    for (Snapshot s : fact.snapshots()) {
      if (s.sequenceNumber() > fact.snapshot(base).sequenceNumber()) {
        added.add(s);
      }
    }
    return added;
  }

  private ContentHash day(String day) {
    fact.refresh();
    return TableContent.hash(
        fact, Expressions.equal("order_date", (int) LocalDate.parse(day).toEpochDay()));
  }
}
