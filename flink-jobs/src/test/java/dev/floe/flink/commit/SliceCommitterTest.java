package dev.floe.flink.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.CheckFailedException;
import dev.floe.catalog.error.CommitConflictException;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.CheckSpec;
import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.RecordHasher;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import dev.floe.flink.check.CheckStats;
import dev.floe.flink.check.DuplicateKeys;
import dev.floe.flink.run.RunOptions;
import java.io.File;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The committer against a real embedded catalog and real Parquet files; no Flink needed. */
class SliceCommitterTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "order_id", Types.LongType.get()),
          Types.NestedField.optional(2, "amount", Types.DecimalType.of(10, 2)),
          Types.NestedField.required(3, "order_date", Types.DateType.get()));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table fact;
  private Table staging;
  private Slice day3;

  @BeforeEach
  void createTables() {
    fact =
        catalog.create(
            "sales.fact_orders",
            SCHEMA,
            PartitionSpec.builderFor(SCHEMA).identity("order_date").build());
    staging = catalog.create("sales.staging_orders", SCHEMA, PartitionSpec.unpartitioned());
    day3 = SliceResolver.resolve("sales.fact_orders", fact, "order_date", "2026-10-03");
  }

  @Test
  void commitsOneSnapshotThatReplacesExactlyTheSlice() {
    TableRows.append(fact, row(1, "1.00", "2026-10-03"), row(2, "2.00", "2026-10-03"));
    TableRows.append(fact, row(3, "3.00", "2026-10-04"));
    ContentHash day4Before = slice("2026-10-04");
    long before = fact.currentSnapshot().snapshotId();

    Written written = write(row(10, "50.00", "2026-10-03"), row(11, "20.00", "2026-10-03"));
    CommitOutcome outcome =
        committer(plan("run-a", before, Map.of()))
            .commit(written.files, written.hash, new CheckStats(), new DuplicateKeys());

    fact.refresh();
    assertThat(outcome.status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(fact.currentSnapshot().parentId()).isEqualTo(before);
    assertThat(fact.currentSnapshot().summary())
        .containsEntry("floe.run-id", "run-a")
        .containsEntry("floe.rows", "2");
    assertThat(slice("2026-10-03")).isEqualTo(written.hash);
    assertThat(slice("2026-10-04")).isEqualTo(day4Before);
  }

  @Test
  void anEmptySliceStillCommitsAndClearsThePartition() {
    TableRows.append(fact, row(1, "1.00", "2026-10-03"));
    TableRows.append(fact, row(3, "3.00", "2026-10-04"));
    long before = fact.currentSnapshot().snapshotId();

    CommitOutcome outcome =
        committer(plan("run-empty", before, Map.of()))
            .commit(List.of(), ContentHash.empty(), new CheckStats(), new DuplicateKeys());

    fact.refresh();
    assertThat(outcome.status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(fact.currentSnapshot().snapshotId()).isNotEqualTo(before);
    assertThat(fact.currentSnapshot().operation()).isEqualTo("delete");
    assertThat(slice("2026-10-03").rows()).isZero();
    assertThat(slice("2026-10-04").rows()).isEqualTo(1);
  }

  @Test
  void unchangedContentIsANoOpThatDeletesTheWrittenFiles() {
    Written first = write(row(10, "50.00", "2026-10-03"));
    committer(plan("run-1", null, Map.of()))
        .commit(first.files, first.hash, new CheckStats(), new DuplicateKeys());
    fact.refresh();
    long head = fact.currentSnapshot().snapshotId();

    Written again = write(row(10, "50.00", "2026-10-03"));
    CommitOutcome outcome =
        committer(plan("run-2", head, Map.of()))
            .commit(again.files, again.hash, new CheckStats(), new DuplicateKeys());

    fact.refresh();
    assertThat(outcome.status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(fact.currentSnapshot().snapshotId()).isEqualTo(head);
    assertThat(new File(again.files.get(0).location().replace("file:", ""))).doesNotExist();
  }

  @Test
  void forceCommitCommitsUnchangedContentAnyway() {
    Written first = write(row(10, "50.00", "2026-10-03"));
    committer(plan("run-1", null, Map.of()))
        .commit(first.files, first.hash, new CheckStats(), new DuplicateKeys());
    fact.refresh();
    long head = fact.currentSnapshot().snapshotId();

    Written again = write(row(10, "50.00", "2026-10-03"));
    CommitPlan forced = plan("run-2", head, Map.of(), o -> o.forceCommit(true));
    CommitOutcome outcome =
        committer(forced).commit(again.files, again.hash, new CheckStats(), new DuplicateKeys());

    fact.refresh();
    assertThat(outcome.status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(fact.currentSnapshot().snapshotId()).isNotEqualTo(head);
    assertThat(slice("2026-10-03")).isEqualTo(first.hash);
  }

  @Test
  void aRunFromTheSameSourcesWithOtherContentIsRefusedAsStale() {
    long source = appendSource(1);
    Written a = write(row(10, "50.00", "2026-10-03"));
    Written b = write(row(10, "99.00", "2026-10-03"));
    committer(plan("run-a", null, Map.of("sales.staging_orders", source)))
        .commit(a.files, a.hash, new CheckStats(), new DuplicateKeys());

    assertThatThrownBy(
            () ->
                committer(plan("run-b", null, Map.of("sales.staging_orders", source)))
                    .commit(b.files, b.hash, new CheckStats(), new DuplicateKeys()))
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("run-a")
        .hasMessageContaining("nothing was committed");

    fact.refresh();
    assertThat(slice("2026-10-03")).isEqualTo(a.hash);
    assertThat(new File(b.files.get(0).location().replace("file:", ""))).doesNotExist();
  }

  @Test
  void aRunFromNewerSourcesRecommitsOverARunFromOlderSourcesWithoutDuplicates() {
    long older = appendSource(1);
    Written a = write(row(10, "50.00", "2026-10-03"));
    Written b = write(row(10, "50.00", "2026-10-03"), row(11, "20.00", "2026-10-03"));
    committer(plan("run-a", null, Map.of("sales.staging_orders", older)))
        .commit(a.files, a.hash, new CheckStats(), new DuplicateKeys());
    long newer = appendSource(2); // the source moves only after run A committed

    CommitOutcome outcome =
        committer(plan("run-b", null, Map.of("sales.staging_orders", newer)))
            .commit(b.files, b.hash, new CheckStats(), new DuplicateKeys());

    fact.refresh();
    assertThat(outcome.status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(outcome.attempts()).isEqualTo(2);
    assertThat(outcome.detail())
        .isEqualTo(
            "committed on top of the newer snapshot: run run-a committed the slice from older"
                + " source data");
    assertThat(slice("2026-10-03")).isEqualTo(b.hash);
  }

  @Test
  void aRunWhoseSourceGainedAppendsWhileItRanRecordsTheSnapshotItReadAndANewerRunReplacesIt() {
    long planned = appendSource(1);
    long between = appendSource(2);
    appendSource(3);
    // Run A read the first source snapshot (its Flink source is pinned to it); two appends landed
    // before A committed. Their rows are late rows for A, not a reason to refuse its commit.
    Written a = write(row(10, "50.00", "2026-10-03"));
    CommitOutcome first =
        committer(plan("run-a", null, Map.of("sales.staging_orders", planned)))
            .commit(a.files, a.hash, new CheckStats(), new DuplicateKeys());
    fact.refresh();
    assertThat(first.status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(fact.currentSnapshot().summary())
        .containsEntry("floe.source-snapshots", "sales.staging_orders@" + planned)
        .doesNotContainKey("floe.source-snapshots-until");

    // Run B read the second snapshot, newer than what A read: B's rows replace A's.
    Written b = write(row(10, "50.00", "2026-10-03"), row(11, "20.00", "2026-10-03"));
    CommitOutcome second =
        committer(plan("run-b", null, Map.of("sales.staging_orders", between)))
            .commit(b.files, b.hash, new CheckStats(), new DuplicateKeys());
    fact.refresh();
    assertThat(second.status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(slice("2026-10-03")).isEqualTo(b.hash);
  }

  @Test
  void aRunFromOlderSourcesNeverOverwritesARunFromNewerSources() {
    long older = appendSource(1);
    long newer = appendSource(2);
    Written fresh = write(row(10, "50.00", "2026-10-03"), row(11, "20.00", "2026-10-03"));
    Written stale = write(row(10, "50.00", "2026-10-03"));
    committer(plan("run-new", null, Map.of("sales.staging_orders", newer)))
        .commit(fresh.files, fresh.hash, new CheckStats(), new DuplicateKeys());

    assertThatThrownBy(
            () ->
                committer(plan("run-old", null, Map.of("sales.staging_orders", older)))
                    .commit(stale.files, stale.hash, new CheckStats(), new DuplicateKeys()))
        .isInstanceOf(CommitConflictException.class);

    fact.refresh();
    assertThat(slice("2026-10-03")).isEqualTo(fresh.hash);
  }

  @Test
  void anotherWritersChangeToTheSliceIsRefusedNamingThatSnapshotNotALaterOneElsewhere() {
    TableRows.append(fact, row(1, "1.00", "2026-10-03"));
    long base = fact.currentSnapshot().snapshotId();
    TableRows.append(fact, row(2, "2.00", "2026-10-03"));
    fact.refresh();
    long intoOurSlice = fact.currentSnapshot().snapshotId();
    TableRows.append(fact, row(3, "3.00", "2026-10-04"));
    Written ours = write(row(10, "50.00", "2026-10-03"));

    assertThatThrownBy(
            () ->
                committer(plan("run-a", base, Map.of()))
                    .commit(ours.files, ours.hash, new CheckStats(), new DuplicateKeys()))
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining(
            "a writer other than Floe changed the slice in snapshot " + intoOurSlice);
  }

  @Test
  void aConcurrentRunWithIdenticalContentEndsAsANoOp() {
    long source = appendSource(1);
    Written a = write(row(10, "50.00", "2026-10-03"));
    Written b = write(row(10, "50.00", "2026-10-03"));
    committer(plan("run-a", null, Map.of("sales.staging_orders", source)))
        .commit(a.files, a.hash, new CheckStats(), new DuplicateKeys());
    fact.refresh();
    long head = fact.currentSnapshot().snapshotId();

    CommitOutcome outcome =
        committer(plan("run-b", null, Map.of("sales.staging_orders", source)))
            .commit(b.files, b.hash, new CheckStats(), new DuplicateKeys());

    fact.refresh();
    assertThat(outcome.status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(fact.currentSnapshot().snapshotId()).isEqualTo(head);
    assertThat(slice("2026-10-03")).isEqualTo(a.hash);
  }

  @Test
  void aFailedCheckCommitsNothingAndDeletesTheWrittenFiles() {
    Written written = write(row(10, null, "2026-10-03"));
    CheckStats stats = new CheckStats();
    stats.of(0).add("{order_id=10, amount=NULL}");
    CommitPlan plan =
        plan("run-a", null, Map.of(), List.of(new CheckSpec.NotNull(List.of("amount"))), o -> o);

    assertThatThrownBy(
            () -> committer(plan).commit(written.files, written.hash, stats, new DuplicateKeys()))
        .isInstanceOf(CheckFailedException.class)
        .hasMessageContaining("not_null: [amount]")
        .hasMessageContaining("amount=NULL");

    fact.refresh();
    assertThat(fact.currentSnapshot()).isNull();
    assertThat(new File(written.files.get(0).location().replace("file:", ""))).doesNotExist();
  }

  @Test
  void aFailureInjectedBeforeTheCommitLeavesTheTableUnchanged() {
    TableRows.append(fact, row(1, "1.00", "2026-10-03"));
    long before = fact.currentSnapshot().snapshotId();
    ContentHash content = TableContent.hash(fact);
    Written written = write(row(10, "50.00", "2026-10-03"));
    CommitPlan plan = plan("run-a", before, Map.of(), o -> o.failAt(FailurePoint.BEFORE_COMMIT));

    assertThatThrownBy(
            () ->
                committer(plan)
                    .commit(written.files, written.hash, new CheckStats(), new DuplicateKeys()))
        .hasMessageContaining("Injected failure");

    fact.refresh();
    assertThat(fact.currentSnapshot().snapshotId()).isEqualTo(before);
    assertThat(TableContent.hash(fact)).isEqualTo(content);
    assertThat(new File(written.files.get(0).location().replace("file:", ""))).doesNotExist();
  }

  @Test
  void aRunWhoseSourceWasCorrectedWhileItRanStopsInsteadOfReplacingTheCorrectSlice() {
    long good = appendSource(1);
    Written first = write(row(1, "1.00", "2026-10-03"));
    committer(plan("run-0", null, Map.of("sales.staging_orders", good)))
        .commit(first.files, first.hash, new CheckStats(), new DuplicateKeys());
    fact.refresh();
    long loaded = fact.currentSnapshot().snapshotId();
    long bad = overwriteSource(row(1, "99.00", "2026-10-03")); // a bad batch lands
    Written stale = write(row(1, "99.00", "2026-10-03")); // run A reads it and is in flight
    long corrected = overwriteSource(row(1, "1.00", "2026-10-03"));
    Written fresh = write(row(1, "1.00", "2026-10-03"));
    CommitOutcome b =
        committer(plan("run-b", loaded, Map.of("sales.staging_orders", corrected)))
            .commit(fresh.files, fresh.hash, new CheckStats(), new DuplicateKeys());
    assertThat(b.status()).isEqualTo(CommitOutcome.Status.NO_OP); // leaves no trace

    assertThatThrownBy(
            () ->
                committer(plan("run-a", loaded, Map.of("sales.staging_orders", bad)))
                    .commit(stale.files, stale.hash, new CheckStats(), new DuplicateKeys()))
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("source sales.staging_orders changed while the run was in flight")
        .hasMessageContaining("nothing was committed");
    assertThat(slice("2026-10-03")).isEqualTo(first.hash);
    assertThat(new File(stale.files.get(0).location().replace("file:", ""))).doesNotExist();
  }

  @Test
  void aRunOnASourceBatchThatWasRolledBackNeverReplacesARunOnTheSourceAsItIsNow() {
    long good = appendSource(1);
    long bad = appendSource(2); // a bad batch, read by run A
    Written stale = write(row(1, "1.00", "2026-10-03"), row(2, "1.00", "2026-10-03"));
    staging.manageSnapshots().rollbackTo(good).commit(); // the operator removes the batch
    Written fresh = write(row(1, "1.00", "2026-10-03"));
    committer(plan("run-b", null, Map.of("sales.staging_orders", good)))
        .commit(fresh.files, fresh.hash, new CheckStats(), new DuplicateKeys());

    assertThatThrownBy(
            () ->
                committer(plan("run-a", null, Map.of("sales.staging_orders", bad)))
                    .commit(stale.files, stale.hash, new CheckStats(), new DuplicateKeys()))
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("it was rolled back");
    assertThat(slice("2026-10-03")).isEqualTo(fresh.hash);
  }

  @Test
  void aRunFromARolledBackSourceBatchIsOlderThanARunOnTheSourceAsItIsNow() {
    long good = appendSource(1);
    long bad = appendSource(2);
    Written stale = write(row(1, "1.00", "2026-10-03"), row(2, "1.00", "2026-10-03"));
    committer(plan("run-a", null, Map.of("sales.staging_orders", bad)))
        .commit(stale.files, stale.hash, new CheckStats(), new DuplicateKeys());
    staging.manageSnapshots().rollbackTo(good).commit();
    Written fresh = write(row(1, "1.00", "2026-10-03"));

    // Run B started before A committed and read the source after the rollback.
    CommitOutcome outcome =
        committer(plan("run-b", null, Map.of("sales.staging_orders", good)))
            .commit(fresh.files, fresh.hash, new CheckStats(), new DuplicateKeys());

    assertThat(outcome.status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(slice("2026-10-03")).isEqualTo(fresh.hash);
  }

  @Test
  void aTableRolledBackWhileTheRunWasInFlightStopsTheRunAsAConflict() {
    TableRows.append(fact, row(1, "1.00", "2026-10-03"));
    long first = fact.currentSnapshot().snapshotId();
    TableRows.append(fact, row(2, "2.00", "2026-10-03"));
    fact.refresh();
    long started = fact.currentSnapshot().snapshotId();
    Written ours = write(row(10, "50.00", "2026-10-03"));
    fact.manageSnapshots().rollbackTo(first).commit();

    assertThatThrownBy(
            () ->
                committer(plan("run-a", started, Map.of()))
                    .commit(ours.files, ours.hash, new CheckStats(), new DuplicateKeys()))
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("the table was rolled back while the run was in flight");
    fact.refresh();
    assertThat(fact.currentSnapshot().snapshotId()).isEqualTo(first);
  }

  @Test
  void aColumnDroppedAndAddedAgainWhileTheRunWroteStopsTheRunInsteadOfCommittingNulls() {
    TableRows.append(fact, row(1, "1.00", "2026-10-03"));
    long started = fact.currentSnapshot().snapshotId();
    Written ours = write(row(10, "50.00", "2026-10-03"));
    CommitPlan planned = plan("run-a", started, Map.of());
    Table evolving = catalog.load("sales.fact_orders");
    evolving.updateSchema().deleteColumn("amount").commit();
    evolving.updateSchema().addColumn("amount", Types.DecimalType.of(10, 2)).commit();

    assertThatThrownBy(
            () ->
                committer(planned)
                    .commit(ours.files, ours.hash, new CheckStats(), new DuplicateKeys()))
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("slice order_date=")
        .hasMessageContaining("the table's schema changed while the run wrote its files")
        .hasMessageContaining("schema id 0 when planned, 2 now");
    fact.refresh();
    assertThat(fact.currentSnapshot().snapshotId()).isEqualTo(started);
    assertThat(new File(ours.files.get(0).location().replace("file:", ""))).doesNotExist();
  }

  @Test
  void aLostCommitAnswerIsFoundInTheHistoryAndNeverCommittedTwice() {
    TableRows.append(fact, row(1, "1.00", "2026-10-03"));
    long before = fact.currentSnapshot().snapshotId();
    Written written = write(row(10, "50.00", "2026-10-03"));

    CommitOutcome outcome =
        committer(plan("run-a", before, Map.of(), o -> o.failAt(FailurePoint.LOST_RESPONSE)))
            .commit(written.files, written.hash, new CheckStats(), new DuplicateKeys());

    fact.refresh();
    assertThat(outcome.status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(outcome.snapshotId()).isEqualTo(fact.currentSnapshot().snapshotId());
    assertThat(fact.currentSnapshot().parentId()).isEqualTo(before);
    assertThat(slice("2026-10-03")).isEqualTo(written.hash);
    assertThat(new File(written.files.get(0).location().replace("file:", ""))).exists();
  }

  @Test
  void aCrashAfterTheCommitKeepsTheFilesAndTheRerunOfThatRunReportsItsCommit() {
    Written written = write(row(10, "50.00", "2026-10-03"));
    assertThatThrownBy(
            () ->
                committer(plan("run-a", null, Map.of(), o -> o.failAt(FailurePoint.AFTER_COMMIT)))
                    .commit(written.files, written.hash, new CheckStats(), new DuplicateKeys()))
        .hasMessageContaining("Injected failure after the commit")
        .hasMessageContaining("[AFTER_COMMIT]");
    fact.refresh();
    long committed = fact.currentSnapshot().snapshotId();
    assertThat(slice("2026-10-03")).isEqualTo(written.hash);
    assertThat(new File(written.files.get(0).location().replace("file:", ""))).exists();

    // The same run executed again (a restarted committer) finds its own commit.
    Written again = write(row(10, "50.00", "2026-10-03"));
    CommitOutcome outcome =
        committer(plan("run-a", null, Map.of()))
            .commit(again.files, again.hash, new CheckStats(), new DuplicateKeys());
    fact.refresh();
    assertThat(outcome.status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(outcome.snapshotId()).isEqualTo(committed);
    assertThat(fact.currentSnapshot().snapshotId()).isEqualTo(committed);
    assertThat(new File(written.files.get(0).location().replace("file:", ""))).exists();
  }

  @Test
  void aStoppedSlicesFilesAreDeletedEvenWhenNoCommitBeforeItLoadedTheTable() {
    Written written = write(row(10, "50.00", "2026-10-03"));
    File file = new File(written.files.get(0).location().replace("file:", ""));
    assertThat(file).exists();

    SlicesCommitterOperator.deleteFiles(
        catalog.catalog(), null, plan("run-1", null, Map.of()), written.files);

    assertThat(file).doesNotExist();
  }

  @Test
  void aTableDroppedBetweenTwoSlicesCommitsIsReportedAsMissingNotAsAnUnexpectedFailure() {
    Table table = SlicesCommitterOperator.current(catalog.catalog(), null, "sales.fact_orders");
    assertThat(SlicesCommitterOperator.current(catalog.catalog(), table, "sales.fact_orders"))
        .isSameAs(table);

    catalog.catalog().dropTable(Catalogs.identifier("sales.fact_orders"), false);

    assertThatThrownBy(
            () -> SlicesCommitterOperator.current(catalog.catalog(), table, "sales.fact_orders"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot load table sales.fact_orders: it does not exist");
  }

  @Test
  void aTableDroppedFromAHadoopCatalogBetweenTwoSlicesCommitsIsReportedAsMissing(
      @TempDir Path warehouse) {
    HadoopCatalog hadoop = new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
    hadoop.createTable(Catalogs.identifier("sales.fact_orders"), SCHEMA);
    Table table = SlicesCommitterOperator.current(hadoop, null, "sales.fact_orders");

    hadoop.dropTable(Catalogs.identifier("sales.fact_orders"), false);

    assertThatThrownBy(() -> SlicesCommitterOperator.current(hadoop, table, "sales.fact_orders"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot load table sales.fact_orders: it does not exist");
  }

  private record Written(List<DataFile> files, ContentHash hash) {}

  private Written write(Record... rows) {
    ContentHash hash = ContentHash.empty();
    RecordHasher hasher = new RecordHasher(SCHEMA);
    for (Record row : rows) {
      hasher.add(row, hash);
    }
    return new Written(new ArrayList<>(List.of(TableRows.write(fact, rows))), hash);
  }

  private long appendSource(long orderId) {
    TableRows.append(staging, row(orderId, "1.00", "2026-10-03"));
    staging.refresh();
    return staging.currentSnapshot().snapshotId();
  }

  private long overwriteSource(Record... rows) {
    staging
        .newOverwrite()
        .overwriteByRowFilter(Expressions.alwaysTrue())
        .addFile(TableRows.write(staging, rows))
        .commit();
    staging.refresh();
    return staging.currentSnapshot().snapshotId();
  }

  private ContentHash slice(String day) {
    fact.refresh();
    LocalDate date = LocalDate.parse(day);
    return TableContent.hash(fact, Expressions.equal("order_date", (int) date.toEpochDay()));
  }

  private Record row(long orderId, String amount, String day) {
    return TableRows.row(
        fact,
        amount == null
            ? Map.of("order_id", orderId, "order_date", LocalDate.parse(day))
            : Map.of(
                "order_id",
                orderId,
                "amount",
                new BigDecimal(amount),
                "order_date",
                LocalDate.parse(day)));
  }

  private CommitPlan plan(String runId, Long start, Map<String, Long> sources) {
    return plan(runId, start, sources, List.of(), o -> o);
  }

  private CommitPlan plan(
      String runId,
      Long start,
      Map<String, Long> sources,
      UnaryOperator<RunOptions.Builder> options) {
    return plan(runId, start, sources, List.of(), options);
  }

  private CommitPlan plan(
      String runId,
      Long start,
      Map<String, Long> sources,
      List<CheckSpec> checks,
      UnaryOperator<RunOptions.Builder> options) {
    Lineage lineage =
        new Lineage(
            "key",
            runId,
            "fact_orders_daily",
            "overwrite",
            day3.label(),
            "test",
            0,
            null,
            sources,
            null);
    return new CommitPlan(
        catalog.config(),
        "sales.fact_orders",
        Scope.of(day3),
        WriteMode.OVERWRITE,
        false,
        lineage,
        start,
        fact.schema().schemaId(),
        checks,
        options.apply(RunOptions.builder()).build());
  }

  private SliceCommitter committer(CommitPlan plan) {
    return new SliceCommitter(catalog.catalog(), plan);
  }
}
