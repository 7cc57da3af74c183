package dev.floe.catalog.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.lineage.AuditBranch;
import dev.floe.catalog.snapshot.Rollback;
import dev.floe.catalog.snapshot.SnapshotHistory;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.time.Instant;
import java.util.Map;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The timeline marks a real rollback and its undo, a revert, tags and an audit branch. */
class TimelineTest {
  private static final Instant AS_OF = Instant.parse("2026-10-10T00:00:00Z");

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;
  private long r1;
  private long r2;
  private long r3;

  @BeforeEach
  void threeRuns() {
    table = LineageCommits.create(catalog.catalog(), "s.t", Map.of());
    r1 = LineageCommits.load(table, "2026-10-01", "r1", "job", null, 1);
    r2 = LineageCommits.load(table, "2026-10-02", "r2", "job", null, 1);
    r3 = LineageCommits.load(table, "2026-10-03", "r3", "job", null, 1);
  }

  @Test
  void aFastForwardToAChildOfTheHeadCommittedEarlierOnABranchIsNoHeadMove() {
    // A published audit run: committed on its branch, then main fast-forwarded to it. It showed as
    // "moved forward", worded as an undone rollback without its tag.
    table.manageSnapshots().createBranch("audit-r4", r3).commit();
    Table audit = catalog.load("s.t");
    audit.newAppend().toBranch("audit-r4").commit();
    audit.refresh();
    long staged = audit.refs().get("audit-r4").snapshotId();
    table.refresh();
    table.manageSnapshots().fastForwardBranch("main", "audit-r4").commit();
    table.refresh();

    ReportModel model = build();

    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(staged);
    assertThat(model.headMoves()).isEmpty();
  }

  @Test
  void anUndoToAChildOfTheHeadIsAMoveAlsoWhenAnExpiryCutTheLogOfItsCommit() {
    table.manageSnapshots().rollbackTo(r1).commit();
    table.expireSnapshots().expireSnapshotId(r3).commit();
    table.manageSnapshots().setCurrentSnapshot(r2).commit();
    table.refresh();

    // The expiry dropped r2's own log entry: its entry of the undo was its first one left.
    assertThat(build().headMoves())
        .extracting(HeadMove::direction, HeadMove::fromSnapshotId, HeadMove::toSnapshotId)
        .contains(org.assertj.core.groups.Tuple.tuple(HeadMove.Direction.FORWARD, r1, r2));
  }

  @Test
  void aRollbackIsMarkedWithItsTagAndTheLeftSnapshotIsOffMain() {
    Rollback.of(table, "s.t").beforeRun("r3").commit();

    ReportModel model = build();

    assertThat(model.headMoves()).hasSize(1);
    HeadMove move = model.headMoves().get(0);
    assertThat(move.direction()).isEqualTo(HeadMove.Direction.BACK);
    assertThat(move.fromSnapshotId()).isEqualTo(r3);
    assertThat(move.toSnapshotId()).isEqualTo(r2);
    assertThat(move.tags()).containsExactly("floe-before-rollback-1");
    TimelineSnapshot left = snapshot(model, r3);
    assertThat(left.lane()).isEqualTo("off main");
    assertThat(left.refs())
        .containsExactly(new RefMark("floe-before-rollback-1", RefMark.Kind.ROLLBACK_TAG));
    assertThat(snapshot(model, r2).current()).isTrue();
    assertThat(snapshot(model, r2).refs()).containsExactly(new RefMark("main", RefMark.Kind.MAIN));
    assertThat(model.slices()).extracting(s -> s.slice().value()).doesNotContain("2026-10-03");
  }

  @Test
  void undoingARollbackIsAMoveForward() {
    Rollback.of(table, "s.t").toSnapshot(r1).commit();
    table.refresh();
    Rollback.of(table, "s.t").toSnapshot(r3).allowNonAncestor(true).commit();

    ReportModel model = build();

    assertThat(model.headMoves())
        .extracting(HeadMove::direction, HeadMove::fromSnapshotId, HeadMove::toSnapshotId)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(HeadMove.Direction.FORWARD, r1, r3),
            org.assertj.core.groups.Tuple.tuple(HeadMove.Direction.BACK, r3, r1));
    assertThat(model.headMoves().get(0).tags()).containsExactly("floe-before-rollback-2");
    assertThat(snapshot(model, r2).lane()).isEqualTo("main");
  }

  @Test
  void undoingARollbackOfOneCommitIsAMoveForwardThoughTheHeadIsItsParent() {
    Rollback.of(table, "s.t").beforeRun("r3").commit();
    table.refresh();
    Rollback.of(table, "s.t").toSnapshot(r3).allowNonAncestor(true).commit();

    ReportModel model = build();

    assertThat(model.headMoves())
        .extracting(HeadMove::direction, HeadMove::fromSnapshotId, HeadMove::toSnapshotId)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(HeadMove.Direction.FORWARD, r2, r3),
            org.assertj.core.groups.Tuple.tuple(HeadMove.Direction.BACK, r3, r2));
    assertThat(model.headMoves().get(0).tags()).containsExactly("floe-before-rollback-2");
    assertThat(snapshot(model, r3).current()).isTrue();
    assertThat(ReportHtml.render(model)).contains("main: " + r2 + " \u2192 " + r3);
  }

  @Test
  void aTaggedSnapshotOlderThanWhereAnExpiryCutMainIsMarkedUnknownAsFloeSnapshotsMarksIt() {
    table.manageSnapshots().createTag("first", r1).commit();
    table.expireSnapshots().expireOlderThan(Long.MAX_VALUE).retainLast(1).commit();
    table.refresh();
    assertThat(table.snapshot(r2)).isNull();

    ReportModel model = build();

    assertThat(snapshot(model, r1).lane()).isEqualTo(TimelineSnapshot.BEFORE_CUT);
    assertThat(SnapshotHistory.list(table))
        .filteredOn(e -> e.snapshotId() == r1)
        .singleElement()
        .satisfies(e -> assertThat(e.onMain()).isNull());
    assertThat(snapshot(model, r3).lane()).isEqualTo("main");
    assertThat(ReportHtml.render(model)).doesNotContain(">off main</span>");
  }

  @Test
  void aRevertIsMarkedWithTheRunItUndid() {
    long revert = LineageCommits.revert(table, "2026-10-02", "r2", 0);

    ReportModel model = build();

    assertThat(snapshot(model, revert).revertsRun()).isEqualTo("r2");
    assertThat(snapshot(model, revert).lineage())
        .hasValueSatisfying(lineage -> assertThat(lineage.mode()).isEqualTo("revert"));
    assertThat(snapshot(model, r2).revertsRun()).isNull();
    assertThat(model.reverts()).isEqualTo(1);
    assertThat(model.slices()).extracting(s -> s.slice().value()).doesNotContain("2026-10-02");
  }

  @Test
  void tagsAndAnAuditBranchAreShownWithTheirLane() {
    table.manageSnapshots().createTag("v1", r1).commit();
    table.manageSnapshots().createBranch(AuditBranch.of("r9"), r3).commit();
    long audit =
        LineageCommits.load(table, "2026-10-04", "r9", "job", null, 2, AuditBranch.of("r9"));

    ReportModel model = build();

    assertThat(snapshot(model, r1).refs()).containsExactly(new RefMark("v1", RefMark.Kind.TAG));
    assertThat(snapshot(model, audit).lane()).isEqualTo("audit-r9");
    assertThat(snapshot(model, audit).refs())
        .containsExactly(new RefMark("audit-r9", RefMark.Kind.AUDIT_BRANCH));
    assertThat(snapshot(model, audit).lineage().orElseThrow().runId()).isEqualTo("r9");
    assertThat(model.headMoves()).isEmpty();
    // A run on an audit branch is not on main yet: it loads no slice of the table.
    assertThat(model.slices()).extracting(s -> s.slice().value()).doesNotContain("2026-10-04");
    assertThat(model.snapshots()).extracting(TimelineSnapshot::snapshotId).startsWith(audit);
  }

  private ReportModel build() {
    return Report.of(catalog.catalog(), "s.t").asOf(AS_OF).build();
  }

  private static TimelineSnapshot snapshot(ReportModel model, long id) {
    return model.snapshots().stream().filter(s -> s.snapshotId() == id).findFirst().orElseThrow();
  }
}
