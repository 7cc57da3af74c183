package dev.floe.catalog.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.CommitConflictException;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.lineage.RecordHasher;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.InterceptedTable;
import dev.floe.catalog.testing.TableRows;
import java.time.LocalDate;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Write-audit-publish on a real table: runs committed to {@code audit-<run-id>} reach main by
 * fast-forward or cherry-pick, never over a change main made to the same slice.
 */
class PublishTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;

  /** Main holds day 1 (run r1); run r2 replaced day 2 on its audit branch only. */
  @BeforeEach
  void mainAndAnAuditBranch() {
    table = catalog.create("s.t", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    commitRun("r1", "2026-10-01", null, row(1, "2026-10-01"));
    commitRun("r2", "2026-10-02", "audit-r2", row(2, "2026-10-02"), row(3, "2026-10-02"));
  }

  @Test
  void theAuditBranchLeavesMainUnchangedUntilPublishFastForwardsIt() {
    long mainBefore = table.currentSnapshot().snapshotId();
    long branchHead = table.refs().get("audit-r2").snapshotId();
    ContentHash audited = TableContent.hash(table, branchHead, Expressions.alwaysTrue());
    assertThat(TableContent.hash(table).rows()).isEqualTo(1);

    PublishPlan plan = Publish.of(table, "s.t").run("r2").commit();
    table.refresh();

    assertThat(plan.method()).isEqualTo(PublishPlan.Method.FAST_FORWARD);
    assertThat(plan.mainSnapshotId()).isEqualTo(mainBefore);
    assertThat(plan.changes()).isEqualTo(Map.of("d=2026-10-02", new PublishPlan.RowChange(0, 2)));
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(branchHead);
    assertThat(table.refs()).doesNotContainKey("audit-r2");
    assertThat(TableContent.hash(table)).isEqualTo(audited);
  }

  @Test
  void anAuditedRunCarryingPositionDeletesIsPublishedWithThemAndMainReadsTheAuditedRows() {
    long branchHead = mergeOnReadRun("m4");
    ContentHash audited = TableContent.hash(table, branchHead, Expressions.alwaysTrue());
    assertThat(audited).isEqualTo(contentOf(row(9, "2026-10-01")));

    PublishPlan plan = Publish.of(table, "s.t").run("m4").commit();
    table.refresh();

    assertThat(plan.method()).isEqualTo(PublishPlan.Method.FAST_FORWARD);
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(branchHead);
    assertThat(TableContent.hash(table)).isEqualTo(audited);
    assertThat(table.currentSnapshot().summary()).containsEntry("added-position-delete-files", "1");
  }

  @Test
  void aMergeOnReadRunIsCherryPickedOntoMainThatMovedInAnotherSliceWithItsDeletes() {
    long branchHead = mergeOnReadRun("m4");
    ContentHash auditedDay1 = TableContent.hash(table, branchHead, day("2026-10-01"));
    commitRun("r3", "2026-10-03", null, row(4, "2026-10-03"));
    ContentHash day3 = TableContent.hash(table, day("2026-10-03"));
    long mainBefore = table.currentSnapshot().snapshotId();

    PublishPlan plan = Publish.of(table, "s.t").run("m4").commit();
    table.refresh();

    assertThat(plan.method()).isEqualTo(PublishPlan.Method.CHERRY_PICK);
    assertThat(table.currentSnapshot().parentId()).isEqualTo(mainBefore);
    assertThat(table.currentSnapshot().summary())
        .containsEntry(LineageKeys.RUN_ID, "m4")
        .containsEntry(LineageKeys.PUBLISHED_FROM, String.valueOf(branchHead))
        .containsEntry("added-position-delete-files", "1");
    assertThat(TableContent.hash(table, day("2026-10-01"))).isEqualTo(auditedDay1);
    assertThat(TableContent.hash(table, day("2026-10-03"))).isEqualTo(day3);
    assertThat(table.refs()).doesNotContainKey("audit-m4");
  }

  /** A merge-on-read run on its audit branch: deletes row 0 of day 1's file and adds a row. */
  private long mergeOnReadRun(String runId) {
    DataFile day1 = liveFile("2026-10-01");
    org.apache.iceberg.deletes.PositionDeleteWriter<Record> writer =
        new org.apache.iceberg.data.GenericFileWriterFactory.Builder(table)
            .build()
            .newPositionDeleteWriter(
                org.apache.iceberg.io.OutputFileFactory.builderFor(table, 77, 1)
                    .format(org.apache.iceberg.FileFormat.PARQUET)
                    .build()
                    .newOutputFile(table.spec(), day1.partition()),
                table.spec(),
                day1.partition());
    try (writer) {
      writer.write(
          org.apache.iceberg.deletes.PositionDelete.<Record>create().set(day1.location(), 0));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    table
        .newRowDelta()
        .addRows(TableRows.write(table, row(9, "2026-10-01")))
        .addDeletes(writer.toDeleteFile())
        .set(LineageKeys.RUN_ID, runId)
        .set(LineageKeys.JOB, "job-" + runId)
        .set(LineageKeys.MODE, "merge")
        .set(LineageKeys.SLICE, "d=[2026-10-01,2026-10-02)")
        .toBranch("audit-" + runId)
        .commit();
    table.refresh();
    return table.refs().get("audit-" + runId).snapshotId();
  }

  private DataFile liveFile(String date) {
    try (org.apache.iceberg.io.CloseableIterable<org.apache.iceberg.FileScanTask> tasks =
        table.newScan().filter(day(date)).planFiles()) {
      return tasks.iterator().next().file();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aCherryPickOntoATableWithAPropertyIcebergCannotParseIsRefusedAndKeepsTheBranch() {
    commitRun("r3", "2026-10-03", null, row(4, "2026-10-03"));
    table.updateProperties().set("write.summary.partition-limit", "x").commit();
    long mainBefore = table.currentSnapshot().snapshotId();

    assertThatThrownBy(() -> Publish.of(table, "s.t").run("r2").commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith(
            "Cannot publish run r2 of s.t: property write.summary.partition-limit of s.t:");
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(mainBefore);
    assertThat(table.refs()).containsKey("audit-r2");
  }

  @Test
  void cherryPicksOntoMainThatMovedInAnotherSliceKeepingBothChanges() {
    long branchHead = table.refs().get("audit-r2").snapshotId();
    ContentHash auditedDay2 = TableContent.hash(table, branchHead, day("2026-10-02"));
    commitRun("r3", "2026-10-03", null, row(4, "2026-10-03"));
    ContentHash day1 = TableContent.hash(table, day("2026-10-01"));
    ContentHash day3 = TableContent.hash(table, day("2026-10-03"));
    long mainBefore = table.currentSnapshot().snapshotId();

    PublishPlan plan = Publish.of(table, "s.t").run("r2").commit();
    table.refresh();

    assertThat(plan.method()).isEqualTo(PublishPlan.Method.CHERRY_PICK);
    assertThat(table.currentSnapshot().parentId()).isEqualTo(mainBefore);
    assertThat(table.currentSnapshot().summary())
        .containsEntry(LineageKeys.RUN_ID, "r2")
        .containsEntry(LineageKeys.PUBLISHED_FROM, String.valueOf(branchHead));
    assertThat(TableContent.hash(table, day("2026-10-01"))).isEqualTo(day1);
    assertThat(TableContent.hash(table, day("2026-10-03"))).isEqualTo(day3);
    assertThat(TableContent.hash(table, day("2026-10-02"))).isEqualTo(auditedDay2);
    assertThat(TableContent.hash(table).rows()).isEqualTo(4);
    assertThat(table.refs()).doesNotContainKey("audit-r2");
  }

  @Test
  void refusesWhenMainChangedTheSameSliceAndChangesNothing() {
    commitRun("r4", "2026-10-02", null, row(9, "2026-10-02"));
    long mainBefore = table.currentSnapshot().snapshotId();
    ContentHash before = TableContent.hash(table);

    assertThatThrownBy(() -> Publish.of(table, "s.t").run("r2").commit())
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("Cannot publish run r2 of s.t: main moved")
        .hasMessageContaining("snapshot " + mainBefore + " (run r4 of job job-r4)")
        .hasMessageContaining("slice d=[2026-10-02,2026-10-03)")
        .hasMessageContaining("floe discard s.t --run r2");
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(mainBefore);
    assertThat(TableContent.hash(table)).isEqualTo(before);
    assertThat(table.refs()).containsKey("audit-r2");
  }

  @Test
  void refusesWhenTheForkWasExpiredSoMainsChangesToTheSliceCannotBeToldAndChangesNothing() {
    long fork = table.currentSnapshot().snapshotId();
    commitRun("r4", "2026-10-02", null, row(9, "2026-10-02")); // a newer run of the same day
    long newer = table.currentSnapshot().snapshotId();
    commitRun("r5", "2026-10-03", null, row(10, "2026-10-03"));
    table.expireSnapshots().expireSnapshotId(fork).expireSnapshotId(newer).commit();
    table.refresh();
    long mainBefore = table.currentSnapshot().snapshotId();
    ContentHash before = TableContent.hash(table);

    assertThatThrownBy(() -> Publish.of(table, "s.t").run("r2").commit())
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining(
            "Cannot publish run r2 of s.t: main moved since the run forked, and snapshot ")
        .hasMessageContaining("was expired")
        .hasMessageContaining("nothing was published");
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(mainBefore);
    assertThat(TableContent.hash(table)).isEqualTo(before); // r4's day is r4's
    assertThat(table.refs()).containsKey("audit-r2");
  }

  @Test
  void anExpiredForkStillPublishesWhenMainsSliceHoldsWhatTheRunReplaced() {
    commitRun("r5", "2026-10-04", null, row(20, "2026-10-04")); // main's day 4 at the fork
    long fork = table.currentSnapshot().snapshotId();
    commitRun("r7", "2026-10-04", "audit-r7", row(21, "2026-10-04")); // audited, replaces r5
    long branchHead = table.refs().get("audit-r7").snapshotId();
    ContentHash audited = TableContent.hash(table, branchHead, day("2026-10-04"));
    commitRun("r3", "2026-10-03", null, row(10, "2026-10-03")); // main moves in another slice
    ContentHash day3 = TableContent.hash(table, day("2026-10-03"));
    table.expireSnapshots().expireSnapshotId(fork).commit(); // keep_last 1 does this
    table.refresh();

    PublishPlan plan = Publish.of(table, "s.t").run("r7").commit();

    table.refresh();
    assertThat(plan.method()).isEqualTo(PublishPlan.Method.CHERRY_PICK);
    assertThat(TableContent.hash(table, day("2026-10-04"))).isEqualTo(audited);
    assertThat(TableContent.hash(table, day("2026-10-03"))).isEqualTo(day3);
  }

  @Test
  void anExpiredForkOfARunThatReplacedAnEmptySliceIsRefused() {
    // An empty slice proves nothing: a newer run may have loaded it and a later one emptied it.
    long fork = table.currentSnapshot().snapshotId();
    commitRun("r3", "2026-10-03", null, row(10, "2026-10-03"));
    table.expireSnapshots().expireSnapshotId(fork).commit();
    table.refresh();

    assertThatThrownBy(() -> Publish.of(table, "s.t").run("r2").commit())
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("was expired");
  }

  @Test
  void anExpiredForkDoesNotPublishOverANewerRunThatEmptiedTheSlice() {
    long fork = table.currentSnapshot().snapshotId();
    commitRun("r4", "2026-10-02", null, row(9, "2026-10-02"));
    table
        .newOverwrite()
        .overwriteByRowFilter(day("2026-10-02"))
        .set(LineageKeys.RUN_ID, "r6")
        .set(LineageKeys.JOB, "job-r6")
        .set(LineageKeys.MODE, "overwrite")
        .set(LineageKeys.CONTENT_HASH, contentOf().encode())
        .set(LineageKeys.SLICE, "d=[2026-10-02,2026-10-03)")
        .commit(); // a newer run of the day that emptied it
    table.expireSnapshots().expireSnapshotId(fork).commit();
    table.refresh();
    ContentHash before = TableContent.hash(table);

    assertThatThrownBy(() -> Publish.of(table, "s.t").run("r2").commit())
        .isInstanceOf(CommitConflictException.class);

    table.refresh();
    assertThat(TableContent.hash(table)).isEqualTo(before);
  }

  @Test
  void aFastForwardRacingACommitThatLeftMainAndTheBranchAloneLands() {
    long main = table.currentSnapshot().snapshotId();
    long run = table.refs().get("audit-r2").snapshotId();
    int[] commits = {0};
    // Another operator tags main right between the publish's read and its commit.
    Table racing =
        InterceptedTable.beforeEachCommit(
            catalog.load("s.t"),
            attempt -> {
              commits[0]++;
              if (attempt == 0) {
                table.manageSnapshots().createTag("month-end", main).commit();
              }
            });

    PublishPlan published = Publish.of(racing, "s.t").run("r2").commit();

    table.refresh();
    assertThat(published.method()).isEqualTo(PublishPlan.Method.FAST_FORWARD);
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(run);
    assertThat(table.refs()).containsKey("month-end").doesNotContainKey("audit-r2");
    assertThat(commits[0]).isEqualTo(2);
  }

  @Test
  void aFastForwardRacingACommitToMainIsRefusedAsAConflict() {
    Table stale = catalog.load("s.t");
    commitRun("r5", "2026-10-03", null, row(5, "2026-10-03"));
    long mainNow = table.currentSnapshot().snapshotId();

    assertThatThrownBy(() -> Publish.of(stale, "s.t").run("r2").commit())
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("main moved while publishing")
        .hasMessageContaining("floe publish s.t --run r2");
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(mainNow);
    assertThat(table.refs()).containsKey("audit-r2");
    assertThat(Publish.of(table, "s.t").run("r2").commit().method())
        .isEqualTo(PublishPlan.Method.CHERRY_PICK);
  }

  @Test
  void aPublishPlannedBeforeADiscardOfItsRunIsRefusedAndMainStaysWithoutTheRun() {
    Table stale = catalog.load("s.t");
    long mainBefore = table.currentSnapshot().snapshotId();
    Discard.of(table, "s.t").run("r2").commit();

    assertThatThrownBy(() -> Publish.of(stale, "s.t").run("r2").commit())
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining(
            "Cannot publish run r2 of s.t: its audit branch audit-r2 was dropped or moved while"
                + " publishing");
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(mainBefore);
    assertThat(table.refs()).doesNotContainKey("audit-r2");
  }

  @Test
  void aCherryPickPlannedBeforeADiscardOfItsRunIsRefusedAsAConflictNotAsAnUnknownOutcome() {
    commitRun("r3", "2026-10-03", null, row(4, "2026-10-03"));
    Table stale = catalog.load("s.t");
    long mainBefore = table.currentSnapshot().snapshotId();
    Discard.of(table, "s.t").run("r2").commit();

    assertThatThrownBy(() -> Publish.of(stale, "s.t").run("r2").commit())
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("its audit branch audit-r2 was dropped or moved while publishing");
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(mainBefore);
  }

  @Test
  void aMainRunWithTheAuditedContentLeavesNothingToPublishAndDropsTheBranch() {
    commitRun("r6", "2026-10-02", null, row(2, "2026-10-02"), row(3, "2026-10-02"));
    long mainBefore = table.currentSnapshot().snapshotId();

    PublishPlan plan = Publish.of(table, "s.t").run("r2").commit();
    table.refresh();

    assertThat(plan.method()).isEqualTo(PublishPlan.Method.IDENTICAL_ON_MAIN);
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(mainBefore);
    assertThat(table.refs()).doesNotContainKey("audit-r2");
  }

  @Test
  void aRetriedPublishOfARunMainWasFoundToHoldIsANoOpNotARefusal() {
    commitRun("r6", "2026-10-02", null, row(2, "2026-10-02"), row(3, "2026-10-02"));
    Publish.of(table, "s.t").run("r2").commit();
    table.refresh();
    String metadataBefore = metadataLocation();

    PublishPlan dryRun = Publish.of(table, "s.t").run("r2").apply();
    PublishPlan retry = Publish.of(table, "s.t").run("r2").commit();
    table.refresh();

    assertThat(dryRun).isEqualTo(retry);
    assertThat(retry.method()).isEqualTo(PublishPlan.Method.ALREADY_IDENTICAL);
    assertThat(metadataLocation()).isEqualTo(metadataBefore);
  }

  @Test
  void aRetriedPublishIsRefusedOnceMainNoLongerHoldsTheRunsContent() {
    commitRun("r6", "2026-10-02", null, row(2, "2026-10-02"), row(3, "2026-10-02"));
    Publish.of(table, "s.t").run("r2").commit();
    commitRun("r7", "2026-10-02", null, row(4, "2026-10-02"));

    assertThatThrownBy(() -> Publish.of(table, "s.t").run("r2").commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("there is no audit branch audit-r2 and the run is not on main");
  }

  @Test
  void rollingBackToBeforeADiscardedAuditRunIsRefusedNotANoOp() {
    Discard.of(table, "s.t").run("r2").commit();
    table.refresh();
    String metadataBefore = metadataLocation();

    assertThatThrownBy(() -> Rollback.of(table, "s.t").beforeRun("r2").commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot roll s.t back to before run r2: main never held the run and its audit branch"
                + " audit-r2 is gone (discarded, or dropped by a publish that found main already"
                + " holding its content); nothing to roll back");
    table.refresh();
    assertThat(metadataLocation()).isEqualTo(metadataBefore);
  }

  @Test
  void aCompactionOnMainOfTheAuditedSliceDoesNotBlockThePublish() {
    Table other =
        catalog.create("s.c", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    table = other;
    commitRun("c1", "2026-10-02", null, row(1, "2026-10-02"));
    TableRows.append(table, row(2, "2026-10-02"));
    commitRun("c2", "2026-10-02", "audit-c2", row(7, "2026-10-02"));
    ContentHash audited =
        TableContent.hash(table, table.refs().get("audit-c2").snapshotId(), day("2026-10-02"));
    ContentHash mainDay2 = TableContent.hash(table, day("2026-10-02"));
    java.util.List<org.apache.iceberg.DataFile> small = new java.util.ArrayList<>();
    table.currentSnapshot().addedDataFiles(table.io()).forEach(f -> small.add(f.copy()));
    table
        .snapshot(table.currentSnapshot().parentId())
        .addedDataFiles(table.io())
        .forEach(f -> small.add(f.copy()));
    table
        .newRewrite()
        .rewriteFiles(
            java.util.Set.copyOf(small),
            java.util.Set.of(TableRows.write(table, row(1, "2026-10-02"), row(2, "2026-10-02"))))
        .set(LineageKeys.MODE, "compact")
        .set(LineageKeys.SLICE, "d=[2026-10-02,2026-10-03)")
        .commit();
    table.refresh();
    assertThat(TableContent.hash(table, day("2026-10-02"))).isEqualTo(mainDay2);

    PublishPlan plan = Publish.of(table, "s.c").run("c2").commit();
    table.refresh();

    assertThat(plan.method()).isEqualTo(PublishPlan.Method.CHERRY_PICK);
    assertThat(TableContent.hash(table, day("2026-10-02"))).isEqualTo(audited);
    assertThat(TableContent.hash(table).rows()).isEqualTo(1);
  }

  @Test
  void aDryRunChangesNothingAndASecondPublishSaysAlreadyPublished() {
    long mainBefore = table.currentSnapshot().snapshotId();

    PublishPlan dryRun = Publish.of(table, "s.t").run("r2").apply();
    table.refresh();
    assertThat(dryRun.method()).isEqualTo(PublishPlan.Method.FAST_FORWARD);
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(mainBefore);
    assertThat(table.refs()).containsKey("audit-r2");

    Publish.of(table, "s.t").run("r2").commit();
    table.refresh();
    long published = table.currentSnapshot().snapshotId();
    PublishPlan again = Publish.of(table, "s.t").run("r2").commit();
    table.refresh();

    assertThat(again.method()).isEqualTo(PublishPlan.Method.ALREADY_PUBLISHED);
    assertThat(again.branchSnapshotId()).isEqualTo(published);
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(published);
  }

  @Test
  void aRunMainWasMovedOntoByHandIsNotPublishedAgainAndOnlyItsLeftOverBranchIsDropped() {
    long branchHead = table.refs().get("audit-r2").snapshotId();
    table.manageSnapshots().setCurrentSnapshot(branchHead).commit();
    table.refresh();
    String metadataBefore = metadataLocation();

    PublishPlan dryRun = Publish.of(table, "s.t").run("r2").apply();
    assertThatThrownBy(() -> Discard.of(table, "s.t").run("r2").commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(
            "Cannot discard run r2 of s.t: main holds it in snapshot " + branchHead)
        .hasMessageContaining("`floe publish s.t --run r2` drops its left-over audit branch");
    table.refresh();
    assertThat(metadataLocation()).isEqualTo(metadataBefore);

    PublishPlan published = Publish.of(table, "s.t").run("r2").commit();
    table.refresh();

    assertThat(dryRun.method()).isEqualTo(PublishPlan.Method.ON_MAIN_WITH_BRANCH);
    assertThat(published.method()).isEqualTo(PublishPlan.Method.ON_MAIN_WITH_BRANCH);
    assertThat(published.branchSnapshotId()).isEqualTo(branchHead);
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(branchHead);
    assertThat(table.refs()).doesNotContainKey("audit-r2");
    assertThat(Publish.of(table, "s.t").run("r2").commit().method())
        .isEqualTo(PublishPlan.Method.ALREADY_PUBLISHED);
  }

  @Test
  void aRetriedRollbackToBeforeARunMainWasMovedOntoByHandIsANoOp() {
    long fork = table.currentSnapshot().snapshotId();
    table.manageSnapshots().setCurrentSnapshot(table.refs().get("audit-r2").snapshotId()).commit();
    table.refresh();

    RollbackPlan first = Rollback.of(table, "s.t").beforeRun("r2").commit();
    table.refresh();
    RollbackPlan again = Rollback.of(table, "s.t").beforeRun("r2").commit();

    assertThat(first.toSnapshotId()).isEqualTo(fork);
    assertThat(again.changesNothing()).isTrue();
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(fork);
  }

  @Test
  void anAuditRunWhoseForkWasExpiredIsBesideMainNotOfUnknownPlace() {
    Snapshot fork = table.currentSnapshot();
    long audited = table.refs().get("audit-r2").snapshotId();
    commitRun("r3", "2026-10-03", null, row(4, "2026-10-03"));
    table.expireSnapshots().expireSnapshotId(fork.snapshotId()).commit();
    table.refresh();

    assertThat(SnapshotHistory.list(table))
        .filteredOn(e -> e.snapshotId() == audited)
        .singleElement()
        .extracting(SnapshotEntry::onMain)
        .isEqualTo(false);
    assertThatThrownBy(() -> Revert.of(table, "s.t").run("r2").apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("no snapshot of the current history has that run id");
  }

  @Test
  void aDiscardOfARevertedRunMainWasMovedOntoNamesItsLeftOverBranch() {
    table.manageSnapshots().setCurrentSnapshot(table.refs().get("audit-r2").snapshotId()).commit();
    table.refresh();
    Revert.of(table, "s.t").run("r2").commit();
    table.refresh();

    assertThatThrownBy(() -> Discard.of(table, "s.t").run("r2").commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("reverted it; discard drops only a branch main never saw")
        .hasMessageEndingWith("`floe publish s.t --run r2` drops its left-over audit branch");
  }

  @Test
  void aRetriedRollbackBeforeARunMainWasMovedOntoIsANoOpAlsoOnceExpiryTrimmedTheSnapshotLog() {
    long fork = table.currentSnapshot().snapshotId();
    table.manageSnapshots().setCurrentSnapshot(table.refs().get("audit-r2").snapshotId()).commit();
    table.refresh();
    commitRun("r3", "2026-10-03", null, row(4, "2026-10-03"));
    long r3 = table.currentSnapshot().snapshotId();
    RollbackPlan first = Rollback.of(table, "s.t").beforeRun("r2").commit();
    table.manageSnapshots().removeTag(first.tag()).commit();
    table.expireSnapshots().expireSnapshotId(r3).commit();
    table.refresh();

    RollbackPlan again = Rollback.of(table, "s.t").beforeRun("r2").commit();

    assertThat(first.toSnapshotId()).isEqualTo(fork);
    assertThat(again.changesNothing()).isTrue();
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(fork);
  }

  @Test
  void rollingBackToBeforeAnUnpublishedAuditRunIsRefusedNotANoOp() {
    String metadataBefore = metadataLocation();

    assertThatThrownBy(() -> Rollback.of(table, "s.t").beforeRun("r2").apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot roll s.t back to before run r2: the run is on its audit branch audit-r2 and"
                + " main never held it; nothing to roll back (`floe discard s.t --run r2` drops"
                + " the branch)");
    table.refresh();
    assertThat(metadataLocation()).isEqualTo(metadataBefore);
  }

  @Test
  void aRunCherryPickedOntoAMainWhoseSchemaChangedSinceCarriesNoContentHash() {
    long audited = table.refs().get("audit-r2").snapshotId();
    commitRun("r3", "2026-10-03", null, row(4, "2026-10-03"));
    table.updateSchema().addColumn("v", Types.LongType.get()).commit();
    table.refresh();
    assertThat(table.snapshot(audited).summary()).containsKey(LineageKeys.CONTENT_HASH);

    PublishPlan plan = Publish.of(table, "s.t").run("r2").commit();
    table.refresh();

    assertThat(plan.method()).isEqualTo(PublishPlan.Method.CHERRY_PICK);
    assertThat(table.currentSnapshot().summary())
        .containsEntry(LineageKeys.RUN_ID, "r2")
        .containsEntry(LineageKeys.PUBLISHED_FROM, String.valueOf(audited))
        .doesNotContainKey(LineageKeys.CONTENT_HASH);
  }

  @Test
  void aRunCherryPickedOntoAMainOfTheSameSchemaKeepsItsContentHash() {
    long audited = table.refs().get("audit-r2").snapshotId();
    commitRun("r3", "2026-10-03", null, row(4, "2026-10-03"));

    Publish.of(table, "s.t").run("r2").commit();
    table.refresh();

    assertThat(table.currentSnapshot().summary())
        .containsEntry(
            LineageKeys.CONTENT_HASH,
            table.snapshot(audited).summary().get(LineageKeys.CONTENT_HASH));
  }

  @Test
  void publishesIntoAnEmptyTable() {
    Table empty =
        catalog.create("s.e", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    OverwriteFiles overwrite =
        empty
            .newOverwrite()
            .overwriteByRowFilter(day("2026-10-05"))
            .addFile(
                TableRows.write(
                    empty, TableRows.row(empty, Map.of("id", 7L, "d", LocalDate.of(2026, 10, 5)))))
            .set(LineageKeys.RUN_ID, "e1")
            .set(LineageKeys.SLICE, "d=[2026-10-05,2026-10-06)")
            .toBranch("audit-e1");
    overwrite.commit();
    empty.refresh();
    assertThat(empty.currentSnapshot()).isNull();

    PublishPlan plan = Publish.of(empty, "s.e").run("e1").commit();
    empty.refresh();

    assertThat(plan.method()).isEqualTo(PublishPlan.Method.FAST_FORWARD);
    assertThat(TableContent.hash(empty).rows()).isEqualTo(1);
  }

  @Test
  void discardDropsTheBranchAndLeavesMainAlone() {
    long mainBefore = table.currentSnapshot().snapshotId();
    long branchHead = table.refs().get("audit-r2").snapshotId();

    DiscardPlan dryRun = Discard.of(table, "s.t").run("r2").apply();
    table.refresh();
    assertThat(table.refs()).containsKey("audit-r2");
    DiscardPlan plan = Discard.of(table, "s.t").run("r2").commit();
    table.refresh();

    assertThat(dryRun).isEqualTo(plan);
    assertThat(plan.role()).isEqualTo(DiscardPlan.Role.AUDIT);
    assertThat(plan.snapshotId()).isEqualTo(branchHead);
    assertThat(table.refs()).doesNotContainKey("audit-r2");
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(mainBefore);
    assertThatThrownBy(() -> Publish.of(table, "s.t").run("r2").apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("there is no audit branch audit-r2 and the run is not on main");
  }

  @Test
  void aRerunOfADiscardFindsItsGoalReachedAndChangesNothing() {
    long branchHead = table.refs().get("audit-r2").snapshotId();
    // A tag on the run's snapshot must not hide that the run existed.
    table.manageSnapshots().createTag("keep-r2", branchHead).commit();
    Discard.of(table, "s.t").run("r2").commit();
    table.refresh();
    String metadataBefore = metadataLocation();

    DiscardPlan rerun = Discard.of(table, "s.t").run("r2").commit();
    table.refresh();

    assertThat(rerun.role()).isEqualTo(DiscardPlan.Role.NOTHING_LEFT);
    assertThat(rerun.branch()).isEqualTo("audit-r2");
    assertThat(rerun.snapshotId()).isEqualTo(branchHead);
    assertThat(metadataLocation()).isEqualTo(metadataBefore);
  }

  @Test
  void aDiscardRacingAnotherDiscardOfTheSameRunFindsItsGoalReached() {
    Table stale =
        catalog.catalog().loadTable(org.apache.iceberg.catalog.TableIdentifier.parse("s.t"));
    Discard.of(table, "s.t").run("r2").commit();

    DiscardPlan second = Discard.of(stale, "s.t").run("r2").commit();

    assertThat(second.role()).isEqualTo(DiscardPlan.Role.NOTHING_LEFT);
    table.refresh();
    assertThat(table.refs()).doesNotContainKey("audit-r2");
  }

  @Test
  void aRunRolledBackOffMainHasNothingToDiscardAndARevertedRunIsRefusedWithoutARevertHint() {
    long r1 = table.currentSnapshot().snapshotId();
    Publish.of(table, "s.t").run("r2").commit();
    table.refresh();
    table.manageSnapshots().rollbackTo(r1).commit();
    table.refresh();

    DiscardPlan rolledBack = Discard.of(table, "s.t").run("r2").apply();

    assertThat(rolledBack.role()).isEqualTo(DiscardPlan.Role.NOTHING_LEFT);
    assertThat(rolledBack.branch()).isEqualTo("audit-r2");

    commitRun("rv", "2026-10-01", null, row(5, "2026-10-01"));
    // What a revert records: the run it undid (its data change does not matter here).
    table.newAppend().set(LineageKeys.REVERTS, "rv").commit();
    table.refresh();
    assertThatThrownBy(() -> Discard.of(table, "s.t").run("rv").apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot discard run rv of s.t: it reached main in snapshot ")
        .hasMessageNotContaining("floe revert");
  }

  @Test
  void aDiscardOfAPublishedRunOrOfARunTheTableNeverSawIsRefused() {
    Publish.of(table, "s.t").run("r2").commit();
    table.refresh();
    String metadataBefore = metadataLocation();

    assertThatThrownBy(() -> Discard.of(table, "s.t").run("r2").commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(
            "Cannot discard run r2 of s.t: main holds it in snapshot "
                + table.currentSnapshot().snapshotId())
        .hasMessageContaining("`floe revert s.t --run r2` undoes a run on main");
    assertThatThrownBy(() -> Discard.of(table, "s.t").run("r1").commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot discard run r1 of s.t: main holds it");
    assertThatThrownBy(() -> Discard.of(table, "s.t").run("r9").commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(
            "Cannot discard run r9 of s.t: there is no audit branch audit-r9 nor scratch branch"
                + " scratch-r9, and no snapshot of the run");
    table.refresh();
    assertThat(metadataLocation()).isEqualTo(metadataBefore);
  }

  @Test
  void discardDropsAScratchBranchWithTheFilesOnlyItReferences() {
    commitRun("v7", "2026-10-03", "scratch-v7", row(4, "2026-10-03"));
    long scratchHead = table.refs().get("scratch-v7").snapshotId();
    String dataFile =
        table.snapshot(scratchHead).addedDataFiles(table.io()).iterator().next().location();
    ContentHash mainBefore = TableContent.hash(table);

    DiscardPlan dryRun = Discard.of(table, "s.t").run("v7").apply();
    DiscardPlan plan = Discard.of(table, "s.t").run("v7").commit();
    table.refresh();

    assertThat(dryRun.role()).isEqualTo(DiscardPlan.Role.SCRATCH);
    assertThat(dryRun.snapshotId()).isEqualTo(scratchHead);
    String dataFileName = dataFile.substring(dataFile.lastIndexOf('/') + 1);
    assertThat(dryRun.files()).anyMatch(file -> file.endsWith("/" + dataFileName));
    assertThat(plan.files()).isEqualTo(dryRun.files());
    assertThat(table.refs()).doesNotContainKey("scratch-v7");
    assertThat(table.snapshot(scratchHead)).isNull();
    assertThat(plan.files())
        .allMatch(
            file -> !java.nio.file.Files.exists(java.nio.file.Path.of(java.net.URI.create(file))));
    assertThat(TableContent.hash(table)).isEqualTo(mainBefore);
    DiscardPlan rerun = Discard.of(table, "s.t").run("v7").commit();
    assertThat(rerun.role()).isEqualTo(DiscardPlan.Role.NOTHING_LEFT);
    assertThat(rerun.branch()).isEqualTo("scratch-v7");
  }

  private String metadataLocation() {
    return ((org.apache.iceberg.HasTableOperations) table)
        .operations()
        .current()
        .metadataFileLocation();
  }

  /** Replaces one day the way a Floe run does, on main or on a branch. */
  private void commitRun(String runId, String date, String branch, Record... rows) {
    Expression slice = day(date);
    OverwriteFiles overwrite =
        table
            .newOverwrite()
            .overwriteByRowFilter(slice)
            .addFile(TableRows.write(table, rows))
            .set(LineageKeys.RUN_ID, runId)
            .set(LineageKeys.JOB, "job-" + runId)
            .set(LineageKeys.MODE, "overwrite")
            .set(LineageKeys.CONTENT_HASH, contentOf(rows).encode())
            .set(LineageKeys.SLICE, "d=[" + date + "," + LocalDate.parse(date).plusDays(1) + ")");
    if (branch != null) {
      overwrite.toBranch(branch);
    }
    overwrite.commit();
    table.refresh();
  }

  private ContentHash contentOf(Record... rows) {
    ContentHash hash = ContentHash.empty();
    RecordHasher hasher = new RecordHasher(table.schema());
    for (Record row : rows) {
      hasher.add(row, hash);
    }
    return hash;
  }

  private static Expression day(String date) {
    return Expressions.equal("d", (int) LocalDate.parse(date).toEpochDay());
  }

  private Record row(long id, String date) {
    return TableRows.row(table, Map.of("id", id, "d", LocalDate.parse(date)));
  }
}
