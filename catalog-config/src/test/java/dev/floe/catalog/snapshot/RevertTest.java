package dev.floe.catalog.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.commit.ScopeConflicts;
import dev.floe.catalog.error.CommitConflictException;
import dev.floe.catalog.error.CommitStateUnknownException;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.lineage.RecordHasher;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.InterceptedTable;
import dev.floe.catalog.testing.TableRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Revert on a real table, with commits made the way Floe's committers make them (one overwrite of
 * the slice, or a copy-on-write file swap for a merge, with lineage in the summary). Every outcome
 * is checked by reading the table: content hashes per slice and the live file paths.
 */
class RevertTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "v", Types.StringType.get()),
          Types.NestedField.required(3, "d", Types.DateType.get()));
  private static final String DAY1 = "2026-10-01";
  private static final String DAY2 = "2026-10-02";
  private static final String DAY3 = "2026-10-03";

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;

  @BeforeEach
  void createTable() {
    table = catalog.create("s.t", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
  }

  @Test
  void aRevertOfATableWithAPropertyIcebergCannotParseIsRefusedBeforeItCommits() {
    floeCommit("r1", DAY1, row(1, "a", DAY1));
    table.updateProperties().set("write.summary.partition-limit", "x").commit();
    long head = table.currentSnapshot().snapshotId();

    assertThatThrownBy(() -> Revert.of(table, "s.t").run("r1").commit())
        .isInstanceOf(dev.floe.catalog.error.InvalidInputException.class)
        .hasMessageStartingWith(
            "Cannot revert run r1 of s.t: property write.summary.partition-limit of s.t:");
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
  }

  @Test
  void revertingTheMiddleOfThreeRunsEmptiesItsSliceAndLeavesTheOtherTwoExactlyAsTheyWere() {
    Record[] day1 = {row(1, "a", DAY1), row(2, "b", DAY1)};
    Record[] day3 = {row(5, "e", DAY3)};
    floeCommit("r1", DAY1, day1);
    ContentHash day2BeforeRun2 = sliceHash(DAY2);
    floeCommit("r2", DAY2, row(3, "c", DAY2), row(4, "d", DAY2));
    floeCommit("r3", DAY3, day3);
    ContentHash day1Before = sliceHash(DAY1);
    ContentHash day3Before = sliceHash(DAY3);
    Set<String> day1Files = files(DAY1);
    Set<String> day3Files = files(DAY3);
    Set<String> day2Files = files(DAY2);

    RevertPlan plan = Revert.of(table, "s.t").run("r2").commit();
    table.refresh();

    assertThat(day2BeforeRun2).isEqualTo(ContentHash.empty());
    assertThat(sliceHash(DAY2)).isEqualTo(day2BeforeRun2);
    assertThat(sliceHash(DAY1)).isEqualTo(day1Before);
    assertThat(sliceHash(DAY3)).isEqualTo(day3Before);
    assertThat(TableContent.hash(table)).isEqualTo(hash(day1[0], day1[1], day3[0]));
    assertThat(files(DAY1)).isEqualTo(day1Files);
    assertThat(files(DAY3)).isEqualTo(day3Files);
    assertThat(files(DAY2)).isEmpty();
    assertThat(plan.removedFiles()).containsExactlyInAnyOrderElementsOf(day2Files);
    assertThat(plan.restoredFiles()).isEmpty();
    assertThat(plan.later()).isEmpty();
    assertThat(plan.rowsBefore()).isEqualTo(Map.of("d=" + DAY2, 2L));
    assertThat(plan.rowsAfter()).isEmpty();
    Snapshot revert = table.currentSnapshot();
    assertThat(plan.revertSnapshotId()).isEqualTo(revert.snapshotId());
    assertThat(revert.summary())
        .containsEntry("floe.reverts", "r2")
        .containsEntry("floe.run-id", plan.revertRunId())
        .containsEntry("floe.mode", "revert")
        .containsEntry("floe.slice", slice(DAY2).label())
        .containsEntry("floe.job", "orders")
        .containsEntry("floe.content-hash", ContentHash.empty().encode())
        .containsEntry("floe.rows", "0")
        .containsKey("floe.code-version");
    assertThat(plan.revertRunId()).isNotEqualTo("r2");
  }

  @Test
  void revertingARunThatReplacedAnEarlierRunOfTheSliceBringsBackThatRunsFiles() {
    Snapshot first = floeCommit("r1", DAY2, row(3, "c", DAY2), row(4, "d", DAY2));
    ContentHash afterFirst = sliceHash(DAY2);
    Set<String> firstFiles = files(DAY2);
    floeCommit("r2", DAY2, row(3, "c-corrected", DAY2));
    Set<String> secondFiles = files(DAY2);
    floeCommit("r3", DAY3, row(5, "e", DAY3));
    ContentHash day3 = sliceHash(DAY3);

    RevertPlan plan = Revert.of(table, "s.t").run("r2").commit();
    table.refresh();

    assertThat(afterFirst).isNotEqualTo(ContentHash.empty());
    assertThat(sliceHash(DAY2)).isEqualTo(afterFirst);
    assertThat(files(DAY2)).isEqualTo(firstFiles);
    assertThat(sliceHash(DAY3)).isEqualTo(day3);
    assertThat(plan.parentSnapshotId()).isEqualTo(first.snapshotId());
    assertThat(plan.removedFiles()).containsExactlyInAnyOrderElementsOf(secondFiles);
    assertThat(plan.restoredFiles()).containsExactlyInAnyOrderElementsOf(firstFiles);
    assertThat(plan.rowsBefore()).isEqualTo(Map.of("d=" + DAY2, 1L));
    assertThat(plan.rowsAfter()).isEqualTo(Map.of("d=" + DAY2, 2L));
    // The recorded hash (here from r1's lineage) is what a read of the slice gives, and what
    // no-op detection now finds by reading (a revert is not trusted as a replacing commit).
    assertThat(table.currentSnapshot().summary())
        .containsEntry("floe.content-hash", afterFirst.encode())
        .containsEntry("floe.rows", "2");
    SliceContent.Current current = SliceContent.current(table, slice(DAY2));
    assertThat(current.hash()).isEqualTo(afterFirst);
    assertThat(current.method()).isEqualTo("scan");
    // Re-added files keep their column statistics (pruning, the merge probe depend on them).
    for (DataFile file : liveFiles(DAY2)) {
      assertThat(file.lowerBounds()).as(file.location()).isNotEmpty();
      assertThat(file.valueCounts()).as(file.location()).isNotEmpty();
    }
  }

  @Test
  void theRestoredHashIsReadFromTheParentWhenAForeignWriterMadeItsContent() {
    TableRows.append(table, row(3, "foreign", DAY2));
    ContentHash foreign = sliceHash(DAY2);
    floeCommit("r2", DAY2, row(3, "floe", DAY2));

    RevertPlan plan = Revert.of(table, "s.t").run("r2").apply();

    assertThat(plan.restoredContentHash()).isEqualTo(foreign.encode());
    assertThat(foreign).isEqualTo(hash(row(3, "foreign", DAY2)));
  }

  @Test
  void aLaterRunOfTheSameSliceBlocksTheRevertNamingItAndForceRestoresTheSliceAnyway() {
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    ContentHash afterFirst = sliceHash(DAY2);
    floeCommit("r2", DAY2, row(3, "c2", DAY2));
    Snapshot third = floeCommit("r3", DAY2, row(3, "c3", DAY2));
    floeCommit("r4", DAY3, row(5, "e", DAY3));
    ContentHash day3 = sliceHash(DAY3);
    long head = table.currentSnapshot().snapshotId();

    RevertPlan blocked = Revert.of(table, "s.t").run("r2").apply();
    assertThatThrownBy(() -> Revert.of(table, "s.t").run("r2").commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot revert run r2 of s.t: later commits changed slice")
        .hasMessageContaining("run r3 (job orders, snapshot " + third.snapshotId() + ")")
        .hasMessageContaining("--force")
        .satisfies(e -> assertThat(((FloeException) e).exitCode()).isEqualTo(2));
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);

    RevertPlan forced = Revert.of(table, "s.t").run("r2").force(true).commit();
    table.refresh();

    assertThat(blocked.later())
        .containsExactly(new LaterCommit(third.snapshotId(), "r3", "orders", null));
    assertThat(blocked.refusal()).isPresent();
    assertThat(forced.later()).extracting(LaterCommit::runId).containsExactly("r3");
    assertThat(forced.refusal()).isEmpty();
    assertThat(sliceHash(DAY2)).isEqualTo(afterFirst);
    assertThat(sliceHash(DAY3)).isEqualTo(day3);
    assertThat(table.currentSnapshot().summary())
        .containsEntry("floe.content-hash", afterFirst.encode());
  }

  @Test
  void aCompactionOfTheSliceAfterTheRunDoesNotBlockTheRevertAndTheParentsRowsComeBack() {
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    ContentHash afterFirst = sliceHash(DAY2);
    floeCommit("r2", DAY2, row(3, "c2", DAY2));
    ContentHash afterSecond = sliceHash(DAY2);
    table
        .newRewrite()
        .rewriteFiles(
            Set.copyOf(liveFiles(DAY2)), Set.of(TableRows.write(table, row(3, "c2", DAY2))))
        .set("floe.mode", "compact")
        .set("floe.slice", slice(DAY2).label())
        .commit();
    table.refresh();
    assertThat(sliceHash(DAY2)).isEqualTo(afterSecond);

    RevertPlan plan = Revert.of(table, "s.t").run("r2").commit();
    table.refresh();

    assertThat(plan.later()).isEmpty();
    assertThat(sliceHash(DAY2)).isEqualTo(afterFirst);
  }

  @Test
  void aForeignWriteToTheSliceAfterTheRunBlocksItAsNotAFloeRun() {
    floeCommit("r2", DAY2, row(3, "c", DAY2));
    TableRows.append(table, row(4, "late", DAY2));
    long foreign = table.currentSnapshot().snapshotId();

    assertThatThrownBy(() -> Revert.of(table, "s.t").run("r2").commit())
        .hasMessageContaining("snapshot " + foreign + " (not a Floe run)");
  }

  @Test
  void revertingTheTablesFirstSnapshotEmptiesItsSliceOnly() {
    Snapshot first = floeCommit("r1", DAY1, row(1, "a", DAY1));
    floeCommit("r2", DAY2, row(3, "c", DAY2));
    ContentHash day2 = sliceHash(DAY2);
    Set<String> day2Files = files(DAY2);

    RevertPlan plan = Revert.of(table, "s.t").run("r1").commit();
    table.refresh();

    assertThat(first.parentId()).isNull();
    assertThat(plan.parentSnapshotId()).isNull();
    assertThat(sliceHash(DAY1)).isEqualTo(ContentHash.empty());
    assertThat(files(DAY1)).isEmpty();
    assertThat(sliceHash(DAY2)).isEqualTo(day2);
    assertThat(files(DAY2)).isEqualTo(day2Files);
  }

  @Test
  void aRevertWhoseAnswerWasLostIsFoundAndReportedCommitted() {
    floeCommit("r0", DAY2, row(1, "a", DAY2));
    ContentHash beforeRuns = sliceHash(DAY2);
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    assertThatThrownBy(
            () -> Revert.of(table, "s.t").run("r1").failAt(FailurePoint.BEFORE_COMMIT).commit())
        .hasMessageContaining("Injected failure");
    Revert.of(table, "s.t").run("r1").commit();
    table.refresh();
    floeCommit("r2", DAY2, row(3, "c2", DAY2), row(4, "d2", DAY2));

    RevertPlan plan = Revert.of(table, "s.t").run("r2").failAt(FailurePoint.LOST_RESPONSE).commit();

    table.refresh();
    assertThat(plan.revertSnapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
    assertThat(sliceHash(DAY2)).isEqualTo(beforeRuns);
  }

  @Test
  void aSecondRevertOfTheSameRunIsANoOpAndRevertingTheRevertAppliesTheRunAgain() {
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    floeCommit("r2", DAY2, row(3, "c2", DAY2), row(4, "d2", DAY2));
    floeCommit("r3", DAY3, row(5, "e", DAY3));
    ContentHash afterRuns = TableContent.hash(table);
    ContentHash day2AfterRun2 = sliceHash(DAY2);
    RevertPlan revert = Revert.of(table, "s.t").run("r2").commit();
    long revertSnapshot = revert.revertSnapshotId();
    ContentHash afterRevert = TableContent.hash(table);

    RevertPlan rerun = Revert.of(table, "s.t").run("r2").commit();
    table.refresh();

    assertThat(rerun.refusal()).isEmpty();
    assertThat(rerun.revertSnapshotId()).isNull();
    assertThat(rerun.alreadyRevertedBy().map(LaterCommit::snapshotId)).contains(revertSnapshot);
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(revertSnapshot);
    assertThat(TableContent.hash(table)).isEqualTo(afterRevert);
    RevertPlan again = Revert.of(table, "s.t").run(revert.revertRunId()).commit();
    table.refresh();

    assertThat(sliceHash(DAY2)).isEqualTo(day2AfterRun2);
    assertThat(TableContent.hash(table)).isEqualTo(afterRuns);
    assertThat(again.parentSnapshotId()).isNotNull();
    assertThat(table.currentSnapshot().summary())
        .containsEntry("floe.reverts", revert.revertRunId())
        .containsEntry("floe.content-hash", day2AfterRun2.encode());
    assertThat(revert.undoCommand()).isEqualTo("floe revert s.t --run " + revert.revertRunId());
  }

  @Test
  void aRerunOfAForcedRevertIsANoOpWithOrWithoutForceAndDiscardsNothingMore() {
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    floeCommit("r2", DAY2, row(3, "c2", DAY2));
    floeCommit("r3", DAY2, row(3, "c3", DAY2));
    RevertPlan forced = Revert.of(table, "s.t").run("r2").force(true).commit();
    long revertSnapshot = forced.revertSnapshotId();
    ContentHash afterRevert = TableContent.hash(table);

    for (boolean force : new boolean[] {true, false}) {
      RevertPlan rerun = Revert.of(table, "s.t").run("r2").force(force).commit();
      table.refresh();

      assertThat(rerun.refusal()).isEmpty();
      assertThat(rerun.changes()).isFalse();
      assertThat(rerun.revertSnapshotId()).isNull();
      assertThat(rerun.alreadyRevertedBy().map(LaterCommit::snapshotId)).contains(revertSnapshot);
      assertThat(table.currentSnapshot().snapshotId()).isEqualTo(revertSnapshot);
      assertThat(TableContent.hash(table)).isEqualTo(afterRevert);
    }
  }

  @Test
  void aRetriedRevertAfterALaterLoadIsANoOp() {
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    floeCommit("r2", DAY2, row(3, "c2", DAY2));
    RevertPlan reverted = Revert.of(table, "s.t").run("r2").commit();
    Snapshot load = floeCommit("r3", DAY2, row(3, "c3", DAY2), row(4, "d3", DAY2));
    long head = load.snapshotId();
    ContentHash afterLoad = sliceHash(DAY2);

    for (boolean force : new boolean[] {false, true}) {
      RevertPlan dryRun = Revert.of(table, "s.t").run("r2").force(force).apply();
      RevertPlan retried = Revert.of(table, "s.t").run("r2").force(force).commit();
      table.refresh();

      for (RevertPlan plan : List.of(dryRun, retried)) {
        assertThat(plan.alreadyRevertedBy().map(LaterCommit::snapshotId))
            .contains(reverted.revertSnapshotId());
        assertThat(plan.refusal()).isEmpty();
        assertThat(plan.changes()).isFalse();
        assertThat(plan.revertSnapshotId()).isNull();
        assertThat(plan.later())
            .extracting(LaterCommit::runId)
            .containsExactly("r3", reverted.revertRunId());
        assertThat(plan.rowsBefore())
            .isEqualTo(Map.of("d=" + DAY2, 2L))
            .isEqualTo(plan.rowsAfter());
        assertThat(plan.restoredContentHash()).isEqualTo(afterLoad.encode());
      }
      assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
      assertThat(sliceHash(DAY2)).isEqualTo(afterLoad);
    }
  }

  @Test
  void aRunWhoseRevertAForcedRevertOfALaterRunDiscardedIsRevertedAgainNotANoOp() {
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    floeCommit("r2", DAY2, row(3, "c2", DAY2));
    ContentHash r2Rows = sliceHash(DAY2);
    floeCommit("r3", DAY2, row(3, "c3", DAY2));
    Revert.of(table, "s.t").run("r2").force(true).commit(); // back to r1's rows
    // Reverting r3 restores its parent, r2's rows: it discards the revert of r2.
    Revert.of(table, "s.t").run("r3").force(true).commit();
    table.refresh();
    assertThat(sliceHash(DAY2)).isEqualTo(r2Rows);

    RevertPlan refused = Revert.of(table, "s.t").run("r2").apply();
    RevertPlan forced = Revert.of(table, "s.t").run("r2").force(true).commit();
    table.refresh();

    assertThat(refused.alreadyRevertedBy()).isEmpty();
    assertThat(refused.refusal()).isPresent();
    assertThat(forced.alreadyRevertedBy()).isEmpty();
    assertThat(forced.revertSnapshotId()).isNotNull();
    assertThat(sliceHash(DAY2)).isNotEqualTo(r2Rows);
  }

  @Test
  void aForcedRevertOfARunMadeBeforeTheRunKeepsTheRunsRevertInEffect() {
    floeCommit("q", DAY2, row(3, "q", DAY2));
    floeCommit("r", DAY2, row(3, "r", DAY2));
    RevertPlan reverted = Revert.of(table, "s.t").run("r").commit(); // q's rows again
    // Reverting q restores q's parent: r's rows stay gone, though its discards name r's revert.
    Revert.of(table, "s.t").run("q").force(true).commit();
    table.refresh();
    long head = table.currentSnapshot().snapshotId();

    RevertPlan retried = Revert.of(table, "s.t").run("r").commit();
    table.refresh();

    assertThat(retried.alreadyRevertedBy().map(LaterCommit::snapshotId))
        .contains(reverted.revertSnapshotId());
    assertThat(retried.refusal()).isEmpty();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
  }

  @Test
  void aRevertWhoseRunsSnapshotExpiredAfterAForcedRevertBroughtItsRowsBackIsRefused() {
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    Snapshot run = floeCommit("r2", DAY2, row(3, "c2", DAY2));
    floeCommit("r3", DAY2, row(3, "c3", DAY2));
    Revert.of(table, "s.t").run("r2").force(true).commit();
    Revert.of(table, "s.t").run("r3").force(true).commit(); // r2's rows are back
    table.expireSnapshots().expireSnapshotId(run.snapshotId()).commit();
    table.refresh();

    assertThatThrownBy(() -> Revert.of(table, "s.t").run("r2").commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("undid that revert, so the run's rows are back");
    assertThat(sliceHash(DAY2)).isEqualTo(hash(row(3, "c2", DAY2)));
  }

  @Test
  void aRetriedRevertAfterACompactionOfTheSliceIsANoOp() {
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    floeCommit("r2", DAY2, row(3, "c2", DAY2));
    RevertPlan reverted = Revert.of(table, "s.t").run("r2").commit();
    table
        .newRewrite()
        .rewriteFiles(
            Set.copyOf(liveFiles(DAY2)), Set.of(TableRows.write(table, row(3, "c", DAY2))))
        .set("floe.mode", "compact")
        .set("floe.slice", slice(DAY2).label())
        .commit();
    table.refresh();
    long head = table.currentSnapshot().snapshotId();

    RevertPlan retried = Revert.of(table, "s.t").run("r2").commit();

    assertThat(retried.alreadyRevertedBy().map(LaterCommit::snapshotId))
        .contains(reverted.revertSnapshotId());
    assertThat(retried.refusal()).isEmpty();
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
    assertThat(sliceHash(DAY2)).isEqualTo(hash(row(3, "c", DAY2)));
  }

  @Test
  void aRunAppliedAgainByRevertingItsRevertIsRevertedOverThatRevertOnlyWithForce() {
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    ContentHash beforeRun = sliceHash(DAY2);
    floeCommit("r2", DAY2, row(3, "c2", DAY2));
    ContentHash afterRun = sliceHash(DAY2);
    RevertPlan reverted = Revert.of(table, "s.t").run("r2").commit();
    RevertPlan undone = Revert.of(table, "s.t").run(reverted.revertRunId()).commit();
    floeCommit("o", DAY3, row(5, "e", DAY3)); // another slice: not in the way
    table.refresh();
    long head = table.currentSnapshot().snapshotId();
    assertThat(sliceHash(DAY2)).isEqualTo(afterRun);

    RevertPlan blocked = Revert.of(table, "s.t").run("r2").apply();
    assertThatThrownBy(() -> Revert.of(table, "s.t").run("r2").commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot revert run r2 of s.t: later commits changed slice")
        .hasMessageContaining(
            "run "
                + undone.revertRunId()
                + " (a revert of run "
                + reverted.revertRunId()
                + ", snapshot "
                + undone.revertSnapshotId()
                + ")")
        .hasMessageContaining("--force")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("already reverted"));
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
    assertThat(blocked.alreadyRevertedBy()).isEmpty();
    assertThat(blocked.changes()).isTrue();

    RevertPlan forced = Revert.of(table, "s.t").run("r2").force(true).commit();
    table.refresh();
    assertThat(forced.revertSnapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
    assertThat(sliceHash(DAY2)).isEqualTo(beforeRun);
    // Reverted once more: a rerun is a no-op again.
    RevertPlan rerun = Revert.of(table, "s.t").run("r2").commit();
    assertThat(rerun.alreadyRevertedBy().map(LaterCommit::snapshotId))
        .contains(forced.revertSnapshotId());
  }

  @Test
  void aRevertOfTheRevertOfTheRevertRevertsTheRunAgainSoARerunIsANoOp() {
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    floeCommit("r2", DAY2, row(3, "c2", DAY2));
    RevertPlan reverted = Revert.of(table, "s.t").run("r2").commit();
    RevertPlan undone = Revert.of(table, "s.t").run(reverted.revertRunId()).commit();
    RevertPlan redone = Revert.of(table, "s.t").run(undone.revertRunId()).commit();
    floeCommit("r3", DAY2, row(3, "c3", DAY2));
    table.refresh();
    long head = table.currentSnapshot().snapshotId();

    // r2 is reverted (the revert of its revert was reverted), and so is the revert of the revert.
    RevertPlan retried = Revert.of(table, "s.t").run("r2").commit();
    RevertPlan retriedUndo = Revert.of(table, "s.t").run(undone.revertRunId()).commit();

    assertThat(retried.alreadyRevertedBy().map(LaterCommit::snapshotId))
        .contains(reverted.revertSnapshotId());
    assertThat(retriedUndo.alreadyRevertedBy().map(LaterCommit::snapshotId))
        .contains(redone.revertSnapshotId());
    // The first revert is applied again (its revert was reverted): r3 blocks reverting it.
    assertThatThrownBy(() -> Revert.of(table, "s.t").run(reverted.revertRunId()).commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("later commits changed slice")
        .hasMessageContaining("run r3 (job orders");
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
    assertThat(sliceHash(DAY2)).isEqualTo(hash(row(3, "c3", DAY2)));
  }

  @Test
  void aConcurrentCommitToTheSliceMakesTheRevertFailAndCommitNothing() {
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    floeCommit("r2", DAY2, row(3, "c2", DAY2));
    Table other = catalog.load("s.t");

    assertThatThrownBy(
            () ->
                Revert.of(table, "s.t")
                    .run("r2")
                    .beforeCommit(() -> TableRows.append(other, row(9, "concurrent", DAY2)))
                    .commit())
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("Cannot revert run r2 of s.t: another commit changed slice")
        .hasMessageContaining("nothing was committed")
        .satisfies(
            e -> assertThat(((FloeException) e).exitCode()).isEqualTo(ExitCodes.COMMIT_CONFLICT));

    table.refresh();
    assertThat(table.currentSnapshot().summary()).doesNotContainKey("floe.reverts");
    assertThat(sliceHash(DAY2)).isEqualTo(hash(row(3, "c2", DAY2), row(9, "concurrent", DAY2)));
  }

  @Test
  void aConcurrentCommitThatRemovedTheRunsFilesMakesTheRevertFail() {
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    floeCommit("r2", DAY2, row(3, "c2", DAY2));
    Table other = catalog.load("s.t");

    assertThatThrownBy(
            () ->
                Revert.of(table, "s.t")
                    .run("r2")
                    .beforeCommit(
                        () ->
                            other
                                .newDelete()
                                .deleteFromRowFilter(slice(DAY2).toExpression())
                                .commit())
                    .commit())
        .isInstanceOf(CommitConflictException.class);

    table.refresh();
    assertThat(sliceHash(DAY2)).isEqualTo(ContentHash.empty());
  }

  @Test
  void anExpiryOfTheParentWhileTheRevertCommitsMakesItFailAndTheTableStaysReadable() {
    Snapshot parent = floeCommit("r1", DAY2, row(3, "c", DAY2));
    floeCommit("r2", DAY2, row(3, "c2", DAY2));
    ContentHash before = sliceHash(DAY2);
    Table other = catalog.load("s.t");

    // The expiry commits, then deletes r1's files (r2 removed them): the files the revert would
    // add back.
    assertThatThrownBy(
            () ->
                Revert.of(table, "s.t")
                    .run("r2")
                    .beforeCommit(
                        () ->
                            other
                                .expireSnapshots()
                                .expireSnapshotId(parent.snapshotId())
                                .cleanExpiredFiles(true)
                                .commit())
                    .commit())
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining(
            "Cannot revert run r2 of s.t: its parent snapshot "
                + parent.snapshotId()
                + " was expired while the revert committed")
        .hasMessageContaining("nothing was committed");

    table.refresh();
    assertThat(table.currentSnapshot().summary()).doesNotContainKey("floe.reverts");
    assertThat(sliceHash(DAY2)).isEqualTo(before); // every file it references is still there
  }

  @Test
  void aRevertWhoseAddedBackFilesAnExpiryDeletedAsItCommittedIsUndoneKeepingOtherCommits() {
    // What a REST catalog lets through: its commit requirements assert main's head, which an
    // expiry does not move, so the revert lands after an expiry removed its parent and deleted
    // the parent's files. Meanwhile another slice was loaded: that load stays.
    Snapshot parent = floeCommit("r1", DAY2, row(3, "c", DAY2));
    List<String> parentFiles = new ArrayList<>(files(DAY2));
    floeCommit("r2", DAY2, row(3, "c2", DAY2));
    ContentHash before = sliceHash(DAY2);
    Table racing =
        InterceptedTable.afterEachCommit(
            InterceptedTable.beforeEachCommit(
                table,
                attempt -> {
                  if (attempt == 0) {
                    floeCommit("y", DAY3, row(9, "y", DAY3));
                  }
                }),
            attempt -> {
              if (attempt == 0) {
                expireAndDelete(parent, parentFiles);
              }
            });

    assertThatThrownBy(() -> Revert.of(racing, "s.t").run("r2").commit())
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("deleted 1 file(s) it added back")
        .hasMessageContaining("nothing stays committed");

    table.refresh();
    assertThat(table.currentSnapshot().summary()).doesNotContainEntry(LineageKeys.RUN_ID, "r2");
    assertThat(table.currentSnapshot().summary()).containsEntry(LineageKeys.RUN_ID, "y");
    assertThat(sliceHash(DAY2)).isEqualTo(before); // readable: every file it references exists
    assertThat(sliceHash(DAY3)).isEqualTo(hash(row(9, "y", DAY3)));
  }

  @Test
  void aRevertWhoseAddedBackFilesAreGoneButMainMovedOnIsNotSetBackAndTheStateIsUnknown() {
    Snapshot parent = floeCommit("r1", DAY2, row(3, "c", DAY2));
    List<String> parentFiles = new ArrayList<>(files(DAY2));
    floeCommit("r2", DAY2, row(3, "c2", DAY2));
    Table racing =
        InterceptedTable.afterEachCommit(
            table,
            attempt -> {
              if (attempt == 0) {
                expireAndDelete(parent, parentFiles);
                floeCommit("x", DAY3, row(9, "x", DAY3)); // after the revert
              }
            });

    assertThatThrownBy(() -> Revert.of(racing, "s.t").run("r2").commit())
        .isInstanceOf(CommitStateUnknownException.class)
        .hasMessageContaining("main moved on past the revert, so it was not set back");

    table.refresh();
    assertThat(sliceHash(DAY3)).isEqualTo(hash(row(9, "x", DAY3))); // x stays
  }

  /** What an expiry of {@code parent} does: removes it from the table, then its files. */
  private void expireAndDelete(Snapshot parent, List<String> parentFiles) {
    Table other = catalog.load("s.t");
    other.expireSnapshots().expireSnapshotId(parent.snapshotId()).cleanExpiredFiles(false).commit();
    parentFiles.forEach(other.io()::deleteFile);
  }

  @Test
  void retryingARevertAfterTheRunsSnapshotWasExpiredIsANoOp() {
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    Snapshot run = floeCommit("r2", DAY2, row(3, "c2", DAY2));
    floeCommit("o", DAY3, row(7, "o", DAY3)); // another slice: not in the way
    RevertPlan reverted = Revert.of(table, "s.t").run("r2").commit();
    floeCommit("p", DAY3, row(8, "p", DAY3));
    table.expireSnapshots().expireSnapshotId(run.snapshotId()).commit();
    table.refresh();
    long head = table.currentSnapshot().snapshotId();

    RevertPlan retried = Revert.of(table, "s.t").run("r2").commit();

    assertThat(retried.alreadyRevertedBy())
        .map(LaterCommit::snapshotId)
        .contains(reverted.revertSnapshotId());
    assertThat(retried.refusal()).isEmpty();
    assertThat(retried.revertSnapshotId()).isNull();
    assertThat(Revert.of(table, "s.t").run("r2").apply().alreadyRevertedBy()).isPresent();
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
    assertThat(sliceHash(DAY2)).isEqualTo(hash(row(3, "c", DAY2)));
  }

  @Test
  void retryingARevertAfterTheRunsSnapshotWasExpiredAndTheSliceWasLoadedAgainIsANoOp() {
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    Snapshot run = floeCommit("r2", DAY2, row(3, "c2", DAY2));
    RevertPlan reverted = Revert.of(table, "s.t").run("r2").commit();
    floeCommit("r3", DAY2, row(3, "c3", DAY2));
    table.expireSnapshots().expireSnapshotId(run.snapshotId()).commit();
    table.refresh();
    long head = table.currentSnapshot().snapshotId();

    for (boolean force : new boolean[] {false, true}) {
      RevertPlan retried = Revert.of(table, "s.t").run("r2").force(force).commit();

      assertThat(retried.alreadyRevertedBy().map(LaterCommit::snapshotId))
          .contains(reverted.revertSnapshotId());
      assertThat(retried.refusal()).isEmpty();
      assertThat(retried.revertSnapshotId()).isNull();
      assertThat(retried.snapshotId()).isNull();
      assertThat(retried.later())
          .extracting(LaterCommit::runId)
          .containsExactly("r3", reverted.revertRunId());
    }
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
    assertThat(sliceHash(DAY2)).isEqualTo(hash(row(3, "c3", DAY2)));
  }

  @Test
  void aRunATagKeepsBehindAnExpiryThatCutMainsHistoryIsNamedSoNotCalledRolledBack() {
    floeCommit("r1", DAY1, row(1, "a", DAY1));
    Snapshot run = floeCommit("r2", DAY2, row(3, "c", DAY2));
    Snapshot between = floeCommit("r3", DAY3, row(5, "e", DAY3));
    Snapshot head = floeCommit("r4", DAY3, row(6, "f", DAY3));
    table.manageSnapshots().createTag("keep", run.snapshotId()).commit();
    table.expireSnapshots().expireSnapshotId(between.snapshotId()).commit();
    table.refresh();

    assertThat(SnapshotHistory.list(table))
        .filteredOn(e -> e.snapshotId() == run.snapshotId())
        .singleElement()
        .extracting(SnapshotEntry::onMain)
        .isNull();
    assertThat(SnapshotHistory.list(table))
        .filteredOn(e -> e.snapshotId() == head.snapshotId())
        .singleElement()
        .extracting(SnapshotEntry::onMain)
        .isEqualTo(true);
    assertThatThrownBy(() -> Revert.of(table, "s.t").run("r2").apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot revert run r2 of s.t: its snapshot "
                + run.snapshotId()
                + " is kept (a tag or a branch holds it), but an expiry cut main's history after"
                + " it (main's kept history ends at snapshot "
                + head.snapshotId()
                + "), so what later commits changed in its slice cannot be told");
    assertThatThrownBy(() -> Rollback.of(table, "s.t").toSnapshot(run.snapshotId()).apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith(
            "Cannot roll s.t back to snapshot "
                + run.snapshotId()
                + ": an expiry cut main's history after it");

    // A snapshot rolled back off main, newer than the cut, is still called so.
    Snapshot rolledBack = floeCommit("r5", DAY1, row(7, "g", DAY1));
    table.manageSnapshots().rollbackTo(head.snapshotId()).commit();
    table.refresh();
    assertThat(SnapshotHistory.list(table))
        .filteredOn(e -> e.snapshotId() == rolledBack.snapshotId())
        .singleElement()
        .extracting(SnapshotEntry::onMain)
        .isEqualTo(false);
  }

  @Test
  void retryingTheRevertOfAKeyedRunAfterItsSnapshotWasExpiredIgnoresOtherPartitions() {
    floeCommit("r2", DAY2, row(3, "c", DAY2));
    floeCommit("r3", DAY3, row(5, "e", DAY3));
    mergeCommit("m1", liveFiles(DAY2), TableRows.write(table, row(3, "c-merged", DAY2)));
    Snapshot merge = table.currentSnapshot();
    Revert.of(table, "s.t").run("m1").commit();
    floeCommit("r4", DAY3, row(5, "e4", DAY3)); // another partition than the merge changed
    table.expireSnapshots().expireSnapshotId(merge.snapshotId()).commit();
    table.refresh();
    long head = table.currentSnapshot().snapshotId();

    RevertPlan retried = Revert.of(table, "s.t").run("m1").commit();

    assertThat(retried.alreadyRevertedBy()).isPresent();
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
    assertThat(sliceHash(DAY2)).isEqualTo(hash(row(3, "c", DAY2)));
  }

  @Test
  void retryingARevertThatWasItselfRevertedAfterTheRunsSnapshotWasExpiredSaysTheRowsAreBack() {
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    Snapshot run = floeCommit("r2", DAY2, row(3, "c2", DAY2));
    RevertPlan reverted = Revert.of(table, "s.t").run("r2").commit();
    RevertPlan undone = Revert.of(table, "s.t").run(reverted.revertRunId()).commit();
    table.expireSnapshots().expireSnapshotId(run.snapshotId()).commit();
    table.refresh();

    assertThatThrownBy(() -> Revert.of(table, "s.t").run("r2").commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot revert run r2 of s.t: snapshot "
                + reverted.revertSnapshotId()
                + " (run "
                + reverted.revertRunId()
                + ") reverted it and snapshot "
                + undone.revertSnapshotId()
                + " undid that revert, so the run's rows are back; its own snapshot was expired"
                + " since, so what it replaced can no longer be read and it cannot be reverted"
                + " again");
    assertThat(sliceHash(DAY2)).isEqualTo(hash(row(3, "c2", DAY2)));
  }

  @Test
  void aRunThatARevertOvertookIsStaleAndIsToldARevertReadsNoSource() {
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    long base = floeCommit("r2", DAY2, row(3, "c2", DAY2)).snapshotId();
    RevertPlan reverted = Revert.of(table, "s.t").run("r2").commit();
    table.refresh();
    Slice day = slice(DAY2);
    ContentHash ours = hash(row(3, "c3", DAY2));

    ScopeConflicts.Resolution resolution =
        ScopeConflicts.resolve(
            catalog.catalog(),
            table,
            base,
            Scope.of(day),
            lineage("r3", "overwrite", day.label(), ours),
            ours);

    assertThat(resolution.action()).isEqualTo(ScopeConflicts.Action.STALE);
    assertThat(resolution.reason())
        .isEqualTo(
            "run "
                + reverted.revertRunId()
                + " reverted run r2 in the slice in snapshot "
                + reverted.revertSnapshotId()
                + " while this run ran; a revert reads no source, so this run's cannot be proved"
                + " newer than what it restored");
  }

  @Test
  void aConcurrentCommitToAnotherSliceDoesNotStopTheRevert() {
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    ContentHash afterFirst = sliceHash(DAY2);
    floeCommit("r2", DAY2, row(3, "c2", DAY2));
    Table other = catalog.load("s.t");

    Revert.of(table, "s.t")
        .run("r2")
        .beforeCommit(() -> TableRows.append(other, row(9, "elsewhere", DAY3)))
        .commit();

    table.refresh();
    assertThat(sliceHash(DAY2)).isEqualTo(afterFirst);
    assertThat(sliceHash(DAY3)).isEqualTo(hash(row(9, "elsewhere", DAY3)));
  }

  @Test
  void aFailureBeforeTheCommitLeavesTheTableUnchanged() {
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    floeCommit("r2", DAY2, row(3, "c2", DAY2));
    Snapshot before = table.currentSnapshot();
    ContentHash content = TableContent.hash(table);
    int snapshots = snapshotCount();

    assertThatThrownBy(
            () ->
                Revert.of(table, "s.t")
                    .run("r2")
                    .beforeCommit(
                        () -> {
                          throw new IllegalStateException("Injected failure before the commit");
                        })
                    .commit())
        .hasMessageContaining("Injected failure");

    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(before.snapshotId());
    assertThat(TableContent.hash(table)).isEqualTo(content);
    assertThat(snapshotCount()).isEqualTo(snapshots);
  }

  @Test
  void aDryRunChangesNothingAndSaysWhatWouldChange() {
    floeCommit("r1", DAY2, row(3, "c", DAY2), row(4, "d", DAY2));
    floeCommit("r2", DAY2, row(3, "c2", DAY2));
    Snapshot before = table.currentSnapshot();
    ContentHash content = TableContent.hash(table);

    RevertPlan plan = Revert.of(table, "s.t").run("r2").apply();

    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(before.snapshotId());
    assertThat(TableContent.hash(table)).isEqualTo(content);
    assertThat(plan.revertSnapshotId()).isNull();
    assertThat(plan.headSnapshotId()).isEqualTo(before.snapshotId());
    assertThat(plan.removedFiles()).hasSize(1);
    assertThat(plan.restoredFiles()).hasSize(1);
    assertThat(plan.rowsBefore()).isEqualTo(Map.of("d=" + DAY2, 1L));
    assertThat(plan.rowsAfter()).isEqualTo(Map.of("d=" + DAY2, 2L));
    assertThat(plan.region()).isEqualTo("slice " + slice(DAY2).label());
  }

  @Test
  void anUnknownRunIsAUsageErrorPointingToTheHistory() {
    floeCommit("r1", DAY2, row(3, "c", DAY2));

    assertThatThrownBy(() -> Revert.of(table, "s.t").run("nope").apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot revert run nope of s.t: no snapshot of the current history")
        .hasMessageContaining("floe snapshots s.t");
  }

  @Test
  void aRunRolledBackOutOfTheHistoryCannotBeReverted() {
    Snapshot first = floeCommit("r1", DAY2, row(3, "c", DAY2));
    floeCommit("r2", DAY2, row(3, "c2", DAY2));
    table.manageSnapshots().rollbackTo(first.snapshotId()).commit();

    assertThatThrownBy(() -> Revert.of(table, "s.t").run("r2").apply())
        .hasMessageContaining("no snapshot of the current history has that run id");
  }

  @Test
  void revertingARunThatAddedPositionDeletesRemovesThemAndItsRowsComeBack() {
    floeCommit("r1", DAY2, row(3, "c", DAY2), row(4, "d", DAY2), row(5, "e", DAY2));
    ContentHash afterR1 = sliceHash(DAY2);
    DataFile file = liveFiles(DAY2).get(0);
    rowDeltaRun("d1", DAY2, positionDeletes(file, 0, 2));
    assertThat(sliceHash(DAY2)).isEqualTo(hash(row(4, "d", DAY2)));

    RevertPlan dryRun = Revert.of(table, "s.t").run("d1").apply();
    assertThat(dryRun.rowsBefore()).as("as a reader counts them").containsEntry("d=" + DAY2, 1L);
    assertThat(dryRun.rowsAfter()).containsEntry("d=" + DAY2, 3L);
    RevertPlan plan = Revert.of(table, "s.t").run("d1").commit();

    table.refresh();
    assertThat(plan.revertSnapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
    assertThat(sliceHash(DAY2)).isEqualTo(afterR1);
    assertThat(deletesOn(DAY2)).isZero();
    assertThat(files(DAY2)).containsExactly(file.location());
    assertThat(table.currentSnapshot().summary())
        .containsEntry("floe.reverts", "d1")
        .containsEntry("floe.content-hash", afterR1.encode())
        .containsEntry("removed-position-delete-files", "1");
  }

  @Test
  void revertingARunThatReplacedFilesCarryingDeletesBringsBackExactlyTheirLiveRows() {
    floeCommit("r1", DAY2, row(3, "c", DAY2), row(4, "d", DAY2), row(5, "e", DAY2));
    DataFile file = liveFiles(DAY2).get(0);
    // Another engine's merge-on-read changes: an equality delete (id 3) and a position delete
    // (row 1, id 4) on the same file.
    table
        .newRowDelta()
        .addDeletes(equalityDeletes(file, 3))
        .addDeletes(positionDeletes(file, 1))
        .commit();
    table.refresh();
    ContentHash beforeR2 = sliceHash(DAY2);
    assertThat(beforeR2).isEqualTo(hash(row(5, "e", DAY2)));
    floeCommit("r2", DAY2, row(7, "g", DAY2), row(8, "h", DAY2));

    RevertPlan dryRun = Revert.of(table, "s.t").run("r2").apply();
    assertThat(dryRun.rowsBefore()).containsEntry("d=" + DAY2, 2L);
    assertThat(dryRun.rowsAfter())
        .as("the live row, not the file's 3")
        .containsEntry("d=" + DAY2, 1L);
    RevertPlan plan = Revert.of(table, "s.t").run("r2").commit();

    table.refresh();
    assertThat(sliceHash(DAY2)).isEqualTo(beforeR2);
    assertThat(TableContent.hash(table)).isEqualTo(beforeR2);
    // The old file came back as a copy of its one live row, with no delete file on it.
    assertThat(files(DAY2)).hasSize(1).doesNotContain(file.location());
    assertThat(deletesOn(DAY2)).isZero();
    assertThat(liveFiles(DAY2).get(0).recordCount()).isEqualTo(1);
    assertThat(plan.restoredFiles()).contains(file.location());
  }

  @Test
  void aFileWhoseRowsWereAllDeletedIsNotBroughtBackAsAnEmptyCopy() {
    floeCommit("r1", DAY2, row(3, "c", DAY2), row(4, "d", DAY2));
    DataFile file = liveFiles(DAY2).get(0);
    table.newRowDelta().addDeletes(positionDeletes(file, 0, 1)).commit();
    table.refresh();
    ContentHash beforeR2 = sliceHash(DAY2);
    assertThat(beforeR2).isEqualTo(ContentHash.empty());
    floeCommit("r2", DAY2, row(7, "g", DAY2));

    Revert.of(table, "s.t").run("r2").commit();

    table.refresh();
    assertThat(sliceHash(DAY2)).isEqualTo(beforeR2);
    // A filtered scan skips a file of 0 rows: read what the revert's snapshot added.
    assertThat(table.currentSnapshot().addedDataFiles(table.io())).isEmpty();
    assertThat(deletesOn(DAY2)).isZero();
  }

  @Test
  void aCopyOfLiveRowsKeepsAStoredUFffdCharacter() {
    floeCommit("r1", DAY2, row(3, "caf\uFFFD", DAY2), row(4, "d", DAY2));
    DataFile file = liveFiles(DAY2).get(0);
    table.newRowDelta().addDeletes(positionDeletes(file, 1)).commit();
    ContentHash beforeR2 = sliceHash(DAY2);
    floeCommit("r2", DAY2, row(7, "g", DAY2));

    Revert.of(table, "s.t").run("r2").commit();

    assertThat(sliceHash(DAY2)).isEqualTo(beforeR2).isEqualTo(hash(row(3, "caf\uFFFD", DAY2)));
    assertThat(files(DAY2)).doesNotContain(file.location());
  }

  @Test
  void revertingARunThatAddedADeletionVectorOnAFormatV3TableBringsItsRowsBack() {
    table =
        catalog
            .catalog()
            .createTable(
                dev.floe.catalog.config.Catalogs.identifier("s.v3"),
                SCHEMA,
                PartitionSpec.builderFor(SCHEMA).identity("d").build(),
                Map.of("format-version", "3"));
    floeCommit("r1", DAY2, row(3, "c", DAY2), row(4, "d", DAY2));
    ContentHash afterR1 = sliceHash(DAY2);
    DataFile file = liveFiles(DAY2).get(0);
    rowDeltaRun("d1", DAY2, deletionVector(file, 1));
    assertThat(sliceHash(DAY2)).isEqualTo(hash(row(3, "c", DAY2)));

    Revert.of(table, "s.v3").run("d1").commit();

    table.refresh();
    assertThat(sliceHash(DAY2)).isEqualTo(afterR1);
    assertThat(deletesOn(DAY2)).isZero();
    assertThat(table.currentSnapshot().summary()).containsEntry("removed-dvs", "1");
  }

  @Test
  void aDeleteFileThatMayApplyOutsideTheRegionIsRefusedRatherThanDropped() {
    floeCommit("r1", DAY2, row(3, "c", DAY2), row(4, "d", DAY2));
    DataFile file = liveFiles(DAY2).get(0);
    String label = slice(DAY2).label();
    table.updateSpec().removeField("d").commit();
    table.refresh();
    // An equality delete of the unpartitioned spec applies to every partition.
    DeleteFile global = equalityDeletes(file, 3);
    rowDeltaRunOn("d1", label, global);
    long head = table.currentSnapshot().snapshotId();

    assertThatThrownBy(() -> Revert.of(table, "s.t").run("d1").commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot revert run d1 of s.t: delete file " + global.location())
        .hasMessageContaining("may apply to rows outside it");
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
  }

  @Test
  void aKeyedRunWithoutASliceRevertsOnlyTheFilesItRewroteAndLaterRunsElsewhereDoNotBlockIt() {
    floeCommit("r1", DAY1, row(1, "a", DAY1));
    floeCommit("r2", DAY2, row(3, "c", DAY2));
    floeCommit("r3", DAY3, row(5, "e", DAY3));
    ContentHash beforeMerge = TableContent.hash(table);
    Set<String> day1Files = files(DAY1);
    Set<String> day2Files = files(DAY2);
    // The merge updates id 3 (rewrites day 2's file) and inserts id 4 into a new file of day 2.
    mergeCommit(
        "m1",
        liveFiles(DAY2),
        TableRows.write(table, row(3, "c-merged", DAY2)),
        TableRows.write(table, row(4, "new", DAY2)));
    Set<String> mergedFiles = files(DAY2);
    floeCommit("r4", DAY3, row(5, "e2", DAY3));
    ContentHash day3 = sliceHash(DAY3);
    Set<String> day3Files = files(DAY3);

    RevertPlan plan = Revert.of(table, "s.t").run("m1").commit();
    table.refresh();

    assertThat(plan.later()).isEmpty();
    assertThat(plan.region()).isEqualTo("the partitions the run changed (d=" + DAY2 + ")");
    assertThat(plan.removedFiles()).containsExactlyInAnyOrderElementsOf(mergedFiles);
    assertThat(plan.restoredFiles()).containsExactlyInAnyOrderElementsOf(day2Files);
    assertThat(files(DAY2)).isEqualTo(day2Files);
    assertThat(files(DAY1)).isEqualTo(day1Files);
    assertThat(files(DAY3)).isEqualTo(day3Files);
    assertThat(sliceHash(DAY2)).isEqualTo(hash(row(3, "c", DAY2)));
    assertThat(sliceHash(DAY3)).isEqualTo(day3);
    assertThat(beforeMerge).isNotEqualTo(TableContent.hash(table)); // r4 changed day 3 since
    // Only some partitions of the table were restored: no table-wide hash to record.
    assertThat(table.currentSnapshot().summary())
        .containsEntry("floe.slice", "*")
        .doesNotContainKey("floe.content-hash")
        .doesNotContainKey("floe.rows");
  }

  @Test
  void aKeyedRunIsBlockedByALaterRunInAPartitionItChanged() {
    floeCommit("r2", DAY2, row(3, "c", DAY2), row(4, "d", DAY2));
    mergeCommit(
        "m1", liveFiles(DAY2), TableRows.write(table, row(3, "c-merged", DAY2), row(4, "d", DAY2)));
    mergeCommit(
        "m2",
        liveFiles(DAY2),
        TableRows.write(table, row(3, "c-merged", DAY2), row(4, "d2", DAY2)));

    assertThatThrownBy(() -> Revert.of(table, "s.t").run("m1").commit())
        .hasMessageContaining(
            "later commits changed the partitions the run changed (d=" + DAY2 + ")")
        .hasMessageContaining("run m2");

    Revert.of(table, "s.t").run("m1").force(true).commit();
    table.refresh();
    assertThat(sliceHash(DAY2)).isEqualTo(hash(row(3, "c", DAY2), row(4, "d", DAY2)));
  }

  @Test
  void aForcedRevertOnAKeyedTableGoesAheadOverALaterDeleteOfAnotherWriterInsideItsPartitions() {
    keyedTable();
    floeCommit("r2", DAY2, row(3, "c", DAY2), row(5, "e", DAY2));
    floeCommit("r3", DAY3, row(7, "g", DAY3));
    mergeCommit(
        "m1", liveFiles(DAY2), TableRows.write(table, row(3, "c1", DAY2), row(5, "e", DAY2)));
    OverwriteFiles delete = table.newOverwrite(); // another writer deletes key 5 on day 2
    liveFiles(DAY2).forEach(delete::deleteFile);
    delete.addFile(TableRows.write(table, row(3, "c1", DAY2))).commit();
    table.refresh();

    Revert.of(table, "s.keyed").run("m1").force(true).commit();

    assertThat(sliceHash(DAY2)).isEqualTo(hash(row(3, "c", DAY2), row(5, "e", DAY2)));
    assertThat(sliceHash(DAY3)).isEqualTo(hash(row(7, "g", DAY3)));
  }

  @Test
  void aForcedRevertOnAKeyedTableGoesAheadOverALaterRewriteOfItsPartitions() {
    keyedTable();
    floeCommit("r2", DAY2, row(3, "c", DAY2), row(5, "e", DAY2));
    mergeCommit(
        "m1",
        liveFiles(DAY2),
        TableRows.write(table, row(3, "c1", DAY2)),
        TableRows.write(table, row(5, "e", DAY2)));
    org.apache.iceberg.RewriteFiles rewrite = table.newRewrite(); // a compaction of another tool
    liveFiles(DAY2).forEach(rewrite::deleteFile);
    rewrite.addFile(TableRows.write(table, row(3, "c1", DAY2), row(5, "e", DAY2))).commit();
    table.refresh();

    Revert.of(table, "s.keyed").run("m1").force(true).commit();

    assertThat(sliceHash(DAY2)).isEqualTo(hash(row(3, "c", DAY2), row(5, "e", DAY2)));
  }

  @Test
  void aForcedRevertOfASliceRunOnAKeyedTableGoesAheadOverALaterMergeInsideTheSlice() {
    keyedTable();
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    floeCommit("r2", DAY2, row(3, "c2", DAY2), row(5, "e", DAY2));
    floeCommit("r3", DAY3, row(7, "g", DAY3));
    mergeCommit(
        "m1", liveFiles(DAY2), TableRows.write(table, row(3, "c3", DAY2), row(5, "e", DAY2)));

    Revert.of(table, "s.keyed").run("r2").force(true).commit();

    assertThat(sliceHash(DAY2)).isEqualTo(hash(row(3, "c", DAY2)));
    assertThat(sliceHash(DAY3)).isEqualTo(hash(row(7, "g", DAY3)));
  }

  @Test
  void aForcedRevertOnAKeyedTableIsRefusedWhenTwoLaterCommitsMovedAKeyOut() {
    keyedTable();
    floeCommit("r2", DAY2, row(3, "c", DAY2), row(5, "e", DAY2));
    mergeCommit(
        "m1", liveFiles(DAY2), TableRows.write(table, row(3, "c1", DAY2), row(5, "e", DAY2)));
    OverwriteFiles delete = table.newOverwrite(); // another writer: key 5 leaves day 2 ...
    liveFiles(DAY2).forEach(delete::deleteFile);
    delete.addFile(TableRows.write(table, row(3, "c1", DAY2))).commit();
    table.newAppend().appendFile(TableRows.write(table, row(5, "e2", DAY3))).commit(); // ... to 3
    table.refresh();
    long head = table.currentSnapshot().snapshotId();

    assertThatThrownBy(() -> Revert.of(table, "s.keyed").run("m1").force(true).commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("key [5], which the revert would put back");
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
  }

  @Test
  void aForcedRevertOfASliceRunOnAKeyedTableIsRefusedWhenLaterRunsMovedAKeyToAnotherSlice() {
    keyedTable();
    floeCommit("r1", DAY2, row(3, "c", DAY2), row(5, "e", DAY2));
    floeCommit("r2", DAY2, row(3, "c2", DAY2), row(5, "e", DAY2));
    floeCommit("r4", DAY2, row(3, "c2", DAY2)); // key 5's date was corrected upstream ...
    floeCommit("r5", DAY3, row(5, "e", DAY3)); // ... and it was loaded with day 3

    assertThatThrownBy(() -> Revert.of(table, "s.keyed").run("r2").force(true).commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("key [5], which the revert would put back in slice");
  }

  @Test
  void aRevertOfTheRunThatMovedAKeyOutIsRefusedAlsoWithoutForce() {
    keyedTable();
    floeCommit("r1", DAY2, row(3, "c", DAY2), row(5, "e", DAY2));
    floeCommit("r4", DAY2, row(3, "c2", DAY2)); // key 5 leaves day 2 ...
    floeCommit("r5", DAY3, row(5, "e", DAY3)); // ... for day 3

    assertThatThrownBy(() -> Revert.of(table, "s.keyed").run("r4").commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot revert run r4 of s.keyed: the table is keyed by [id]")
        .hasMessageContaining("key [5], which the revert would put back");
  }

  @Test
  void aForcedRevertOnAKeyedFormatOneTableIsRefusedWhenALaterMergeMovedAKeyOut() {
    table =
        catalog
            .catalog()
            .buildTable(
                org.apache.iceberg.catalog.TableIdentifier.parse("s.keyed1"),
                new Schema(SCHEMA.columns(), Set.of(1)))
            .withPartitionSpec(PartitionSpec.builderFor(SCHEMA).identity("d").build())
            .withProperty("format-version", "1")
            .create();
    movedKeyByALaterMerge();

    assertThatThrownBy(() -> Revert.of(table, "s.keyed1").run("m1").force(true).commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("key [5], which the revert would put back");
  }

  @Test
  void aForcedRevertOnATableKeyedByAFixedColumnIsRefusedWhenALaterMergeMovedAKeyOut() {
    Schema fixedKey =
        new Schema(
            List.of(
                Types.NestedField.required(1, "k", Types.FixedType.ofLength(2)),
                Types.NestedField.required(3, "d", Types.DateType.get())),
            Set.of(1));
    table =
        catalog.create(
            "s.fixed", fixedKey, PartitionSpec.builderFor(fixedKey).identity("d").build());
    java.util.function.BiFunction<Integer, String, Record> keyed =
        (k, day) ->
            TableRows.row(
                table, Map.of("k", new byte[] {0, k.byteValue()}, "d", LocalDate.parse(day)));
    TableRows.append(table, keyed.apply(3, DAY2), keyed.apply(5, DAY2));
    List<DataFile> day2 = liveFiles(DAY2);
    OverwriteFiles m1 = table.newOverwrite();
    day2.forEach(m1::deleteFile);
    m1.addFile(TableRows.write(table, keyed.apply(3, DAY2), keyed.apply(5, DAY2)));
    lineage("m1", "merge", Scope.WHOLE_TABLE_LABEL, ContentHash.empty())
        .toSummary()
        .forEach(m1::set);
    m1.commit();
    table.refresh();
    OverwriteFiles m2 = table.newOverwrite(); // moves key 5 to day 3
    liveFiles(DAY2).forEach(m2::deleteFile);
    m2.addFile(TableRows.write(table, keyed.apply(3, DAY2)));
    m2.addFile(TableRows.write(table, keyed.apply(5, DAY3)));
    lineage("m2", "merge", Scope.WHOLE_TABLE_LABEL, ContentHash.empty())
        .toSummary()
        .forEach(m2::set);
    m2.commit();
    table.refresh();

    assertThatThrownBy(() -> Revert.of(table, "s.fixed").run("m1").force(true).commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("which the revert would put back");
  }

  /** r2 loads day 2 with keys 3 and 5; merge m1 rewrites day 2; merge m2 moves key 5 to day 3. */
  private void movedKeyByALaterMerge() {
    floeCommit("r2", DAY2, row(3, "c", DAY2), row(5, "e", DAY2));
    mergeCommit(
        "m1", liveFiles(DAY2), TableRows.write(table, row(3, "c1", DAY2), row(5, "e", DAY2)));
    mergeCommit(
        "m2",
        liveFiles(DAY2),
        TableRows.write(table, row(3, "c1", DAY2)),
        TableRows.write(table, row(5, "e2", DAY3)));
  }

  @Test
  void aForcedRevertOnAKeyedTableIsRefusedWhenALaterMergeMovedAKeyOutOfWhatItRestores() {
    keyedTable();
    floeCommit("r2", DAY2, row(3, "c", DAY2), row(5, "e", DAY2));
    mergeCommit(
        "m1", liveFiles(DAY2), TableRows.write(table, row(3, "c1", DAY2), row(5, "e", DAY2)));
    // m2 moves key 5 from day 2 to day 3.
    mergeCommit(
        "m2",
        liveFiles(DAY2),
        TableRows.write(table, row(3, "c1", DAY2)),
        TableRows.write(table, row(5, "e2", DAY3)));
    long head = table.currentSnapshot().snapshotId();

    assertThatThrownBy(() -> Revert.of(table, "s.keyed").run("m1").force(true).commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith(
            "Cannot revert run m1 of s.keyed with --force: the table is keyed by [id], and key [5],"
                + " which the revert would put back in the partitions the run changed (d="
                + DAY2
                + "), is also in ")
        .hasMessageContaining("it would be there twice");
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
    assertThat(TableContent.hash(table).rows()).isEqualTo(2);
  }

  @Test
  void aForcedRevertOfAKeyedRunListsTheLaterRunsItUndidWholeAndNotTheOnesItUndidInPart() {
    floeCommit("r2", DAY2, row(3, "c", DAY2));
    floeCommit("r3", DAY3, row(5, "e", DAY3));
    mergeCommit("m1", liveFiles(DAY2), TableRows.write(table, row(3, "c-merged", DAY2)));
    // Later: a run of day 2 only (inside the merge's partitions), and a merge over days 2 and 3.
    floeCommit("r4", DAY2, row(3, "c4", DAY2));
    List<DataFile> bothDays = new java.util.ArrayList<>(liveFiles(DAY3));
    mergeCommit(
        "m2",
        bothDays,
        TableRows.write(table, row(5, "e-merged", DAY3)),
        TableRows.write(table, row(6, "f", DAY2)));

    Revert.of(table, "s.t").run("m1").force(true).commit();
    table.refresh();

    assertThat(sliceHash(DAY2)).isEqualTo(hash(row(3, "c", DAY2)));
    assertThat(table.currentSnapshot().summary()).containsEntry(LineageKeys.DISCARDS, "r4");
  }

  @Test
  void aWholeTableRunIsRevertedWholeAndAnyLaterCommitBlocksIt() {
    swapCommit("s1", row(1, "a", DAY1), row(2, "b", DAY2));
    ContentHash afterFirst = TableContent.hash(table);
    Set<String> firstFiles = new TreeSet<>(files(DAY1));
    firstFiles.addAll(files(DAY2));
    swapCommit("s2", row(3, "c", DAY3));

    RevertPlan plan = Revert.of(table, "s.t").run("s2").commit();
    table.refresh();

    assertThat(plan.region()).isEqualTo("the whole table");
    assertThat(TableContent.hash(table)).isEqualTo(afterFirst);
    Set<String> live = new TreeSet<>(files(DAY1));
    live.addAll(files(DAY2));
    assertThat(live).isEqualTo(firstFiles);
    assertThat(files(DAY3)).isEmpty();
    assertThat(table.currentSnapshot().summary())
        .containsEntry("floe.slice", "*")
        .containsEntry("floe.content-hash", afterFirst.encode());

    // A commit anywhere after a whole-table run changed "its" rows: reverting s1 is refused.
    floeCommit("r3", DAY3, row(4, "d", DAY3));
    assertThatThrownBy(() -> Revert.of(table, "s.t").run("s1").commit())
        .hasMessageContaining("later commits changed the whole table")
        .hasMessageContaining("run r3");
  }

  @Test
  void aRunWhoseRowsAreAlreadyBackCommitsNothing() {
    floeCommit("r1", DAY2, row(3, "c", DAY2));
    floeCommit("r2", DAY2, row(3, "c2", DAY2));
    // Another writer put r1's file back and dropped r2's: day 2 already holds r1's content.
    Snapshot first = table.snapshot(table.currentSnapshot().parentId());
    List<DataFile> firstFiles = new ArrayList<>();
    first.addedDataFiles(table.io()).forEach(firstFiles::add);
    OverwriteFiles putBack = table.newOverwrite();
    liveFiles(DAY2).forEach(putBack::deleteFile);
    firstFiles.forEach(putBack::addFile);
    putBack.commit();
    table.refresh();
    long head = table.currentSnapshot().snapshotId();

    RevertPlan plan = Revert.of(table, "s.t").run("r2").force(true).commit();

    table.refresh();
    assertThat(plan.changes()).isFalse();
    assertThat(plan.revertSnapshotId()).isNull();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
  }

  /** Commits like Floe's slice committer: one overwrite of the day, lineage in the summary. */
  private Snapshot floeCommit(String runId, String day, Record... rows) {
    Slice slice = slice(day);
    OverwriteFiles overwrite = table.newOverwrite().overwriteByRowFilter(slice.toExpression());
    if (rows.length > 0) {
      overwrite.addFile(TableRows.write(table, rows));
    }
    lineage(runId, "overwrite", slice.label(), hash(rows)).toSummary().forEach(overwrite::set);
    overwrite.commit();
    table.refresh();
    return table.currentSnapshot();
  }

  /** Commits like Floe's swap: replace the whole table, slice "*". */
  private void swapCommit(String runId, Record... rows) {
    OverwriteFiles overwrite =
        table
            .newOverwrite()
            .overwriteByRowFilter(org.apache.iceberg.expressions.Expressions.alwaysTrue());
    for (Record row : rows) {
      overwrite.addFile(TableRows.write(table, row));
    }
    lineage(runId, "swap", Scope.WHOLE_TABLE_LABEL, hash(rows)).toSummary().forEach(overwrite::set);
    overwrite.commit();
    table.refresh();
  }

  private void keyedTable() {
    table =
        catalog.create(
            "s.keyed",
            new Schema(SCHEMA.columns(), Set.of(1)),
            PartitionSpec.builderFor(SCHEMA).identity("d").build());
  }

  /** Commits like Floe's keyed committer: swap the rewritten files, slice "*" (whole table). */
  private void mergeCommit(String runId, List<DataFile> rewritten, DataFile... added) {
    OverwriteFiles overwrite = table.newOverwrite();
    rewritten.forEach(overwrite::deleteFile);
    for (DataFile file : added) {
      overwrite.addFile(file);
    }
    lineage(runId, "merge", Scope.WHOLE_TABLE_LABEL, ContentHash.empty())
        .toSummary()
        .forEach(overwrite::set);
    overwrite.commit();
    table.refresh();
  }

  /** A run (lineage of the slice) that only adds delete files, as a merge-on-read MERGE does. */
  private void rowDeltaRun(String runId, String day, DeleteFile... deletes) {
    rowDeltaRunOn(runId, slice(day).label(), deletes);
  }

  private void rowDeltaRunOn(String runId, String label, DeleteFile... deletes) {
    org.apache.iceberg.RowDelta delta = table.newRowDelta();
    for (DeleteFile delete : deletes) {
      delta.addDeletes(delete);
    }
    lineage(runId, "overwrite", label, ContentHash.empty()).toSummary().forEach(delta::set);
    delta.commit();
    table.refresh();
  }

  private DeleteFile positionDeletes(DataFile file, long... positions) {
    PartitionSpec spec = table.specs().get(file.specId());
    org.apache.iceberg.deletes.PositionDeleteWriter<Record> writer =
        new org.apache.iceberg.data.GenericFileWriterFactory.Builder(table)
            .build()
            .newPositionDeleteWriter(
                deleteFiles(org.apache.iceberg.FileFormat.PARQUET)
                    .newOutputFile(spec, file.partition()),
                spec,
                file.partition());
    try (writer) {
      for (long position : positions) {
        writer.write(
            org.apache.iceberg.deletes.PositionDelete.<Record>create()
                .set(file.location(), position));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDeleteFile();
  }

  /** Equality deletes on {@code id}, in the table's current spec (file's partition if any). */
  private DeleteFile equalityDeletes(DataFile file, long... ids) {
    Schema idOnly = table.schema().select("id");
    PartitionSpec spec = table.spec();
    org.apache.iceberg.StructLike partition = spec.isPartitioned() ? file.partition() : null;
    org.apache.iceberg.deletes.EqualityDeleteWriter<Record> writer =
        new org.apache.iceberg.data.GenericFileWriterFactory.Builder(table)
            .equalityFieldIds(new int[] {1})
            .equalityDeleteRowSchema(idOnly)
            .build()
            .newEqualityDeleteWriter(
                deleteFiles(org.apache.iceberg.FileFormat.PARQUET).newOutputFile(spec, partition),
                spec,
                partition);
    try (writer) {
      for (long id : ids) {
        org.apache.iceberg.data.GenericRecord key =
            org.apache.iceberg.data.GenericRecord.create(idOnly);
        key.set(0, id);
        writer.write(key);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDeleteFile();
  }

  private DeleteFile deletionVector(DataFile file, long... positions) {
    org.apache.iceberg.deletes.BaseDVFileWriter writer =
        new org.apache.iceberg.deletes.BaseDVFileWriter(
            deleteFiles(org.apache.iceberg.FileFormat.PUFFIN), path -> null);
    try (writer) {
      for (long position : positions) {
        writer.delete(
            file.location(), position, table.specs().get(file.specId()), file.partition());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.result().deleteFiles().get(0);
  }

  private int deleteFilesWritten;

  private org.apache.iceberg.io.OutputFileFactory deleteFiles(
      org.apache.iceberg.FileFormat format) {
    return org.apache.iceberg.io.OutputFileFactory.builderFor(table, 900 + deleteFilesWritten++, 1)
        .format(format)
        .build();
  }

  private int deletesOn(String day) {
    int count = 0;
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().filter(slice(day).toExpression()).planFiles()) {
      for (FileScanTask task : tasks) {
        count += task.deletes().size();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return count;
  }

  private static Lineage lineage(String runId, String mode, String label, ContentHash content) {
    return new Lineage(
            "key-" + label,
            runId,
            "orders",
            mode,
            label,
            "test",
            0,
            null,
            Map.of("s.src", 1L),
            null)
        .withContent(content);
  }

  private Slice slice(String day) {
    return SliceResolver.resolve("s.t", table, "d", day);
  }

  private ContentHash sliceHash(String day) {
    table.refresh();
    return TableContent.hash(table, slice(day).toExpression());
  }

  private List<DataFile> liveFiles(String day) {
    table.refresh();
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().filter(slice(day).toExpression()).includeColumnStats().planFiles()) {
      tasks.forEach(t -> files.add(t.file()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  private Set<String> files(String day) {
    Set<String> paths = new TreeSet<>();
    liveFiles(day).forEach(f -> paths.add(f.location()));
    return paths;
  }

  private int snapshotCount() {
    int n = 0;
    for (Snapshot ignored : table.snapshots()) {
      n++;
    }
    return n;
  }

  private static ContentHash hash(Record... rows) {
    RecordHasher hasher = new RecordHasher(SCHEMA);
    ContentHash hash = ContentHash.empty();
    for (Record row : rows) {
      hasher.add(row, hash);
    }
    return hash;
  }

  private Record row(long id, String v, String day) {
    return TableRows.row(table, Map.of("id", id, "v", v, "d", LocalDate.parse(day)));
  }
}
