package dev.floe.catalog.report;

import dev.floe.catalog.commit.RunLookup;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.LineageKeys;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.HistoryEntry;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;

/** Reads the report's timeline from table metadata: snapshots with their refs, and head moves. */
final class Timeline {

  private Timeline() {}

  /** Every snapshot the metadata keeps, newest first, with its lane, refs and Floe marks. */
  static List<TimelineSnapshot> snapshots(Table table) {
    Map<Long, List<RefMark>> marks = new HashMap<>();
    Map<String, Set<Long>> branchLines = new TreeMap<>();
    for (Map.Entry<String, SnapshotRef> ref : new TreeMap<>(table.refs()).entrySet()) {
      RefMark mark = RefMark.of(ref.getKey(), ref.getValue());
      marks.computeIfAbsent(ref.getValue().snapshotId(), id -> new ArrayList<>()).add(mark);
      if (mark.isBranch() && mark.kind() != RefMark.Kind.MAIN) {
        branchLines.put(ref.getKey(), line(table, ref.getValue().snapshotId()));
      }
    }
    Snapshot current = table.currentSnapshot();
    Set<Long> main = current == null ? Set.of() : line(table, current.snapshotId());
    Optional<Snapshot> cut = RunLookup.mainHistoryCut(table);
    List<Snapshot> all = new ArrayList<>();
    table.snapshots().forEach(all::add);
    all.sort(
        Comparator.comparingLong(Snapshot::timestampMillis)
            .thenComparingLong(Snapshot::sequenceNumber)
            .thenComparingLong(Snapshot::snapshotId)
            .reversed());
    List<TimelineSnapshot> entries = new ArrayList<>();
    for (Snapshot snapshot : all) {
      Map<String, String> summary = snapshot.summary() == null ? Map.of() : snapshot.summary();
      entries.add(
          new TimelineSnapshot(
              snapshot.snapshotId(),
              snapshot.parentId(),
              Instant.ofEpochMilli(snapshot.timestampMillis()),
              snapshot.operation(),
              lane(table, snapshot, main, branchLines, cut),
              current != null && current.snapshotId() == snapshot.snapshotId(),
              marks.getOrDefault(snapshot.snapshotId(), List.of()),
              Lineage.readable(summary),
              summary.get(LineageKeys.REVERTS),
              summary.get(LineageKeys.PUBLISHED_FROM),
              count(summary, SnapshotSummary.ADDED_RECORDS_PROP),
              count(summary, SnapshotSummary.DELETED_RECORDS_PROP)));
    }
    return entries;
  }

  /**
   * Moves of main's head other than a commit on top of it, from the snapshot log (which Iceberg
   * keeps for main only), newest first. A log entry is a commit on top of the head when the
   * snapshot is a child of the head before and the entry is the snapshot's first in the log (its
   * own commit, or a fast-forward publish of an audit run); a later move back to such a child
   * (undoing a rollback of one commit) is a head move.
   */
  static List<HeadMove> headMoves(Table table) {
    Map<Long, List<String>> rollbackTags = new HashMap<>();
    for (Map.Entry<String, SnapshotRef> ref : new TreeMap<>(table.refs()).entrySet()) {
      if (RefMark.of(ref.getKey(), ref.getValue()).kind() == RefMark.Kind.ROLLBACK_TAG) {
        rollbackTags
            .computeIfAbsent(ref.getValue().snapshotId(), id -> new ArrayList<>())
            .add(ref.getKey());
      }
    }
    List<HistoryEntry> log = table.history();
    List<HeadMove> moves = new ArrayList<>();
    Set<Long> seen = new HashSet<>();
    if (!log.isEmpty()) {
      seen.add(log.get(0).snapshotId());
    }
    for (int i = 1; i < log.size(); i++) {
      long from = log.get(i - 1).snapshotId();
      long to = log.get(i).snapshotId();
      boolean firstInLog = seen.add(to);
      Snapshot target = table.snapshot(to);
      // Its first entry counts only when the log reaches back to when the snapshot was made (or
      // the entry is at its commit time): an expiry drops the entries before the last snapshot it
      // removes, perhaps the one of this snapshot's commit.
      boolean ownCommit =
          firstInLog
              && target != null
              && (target.timestampMillis() >= log.get(0).timestampMillis()
                  || target.timestampMillis() == log.get(i).timestampMillis());
      if (from == to || (ownCommit && Objects.equals(target.parentId(), from))) {
        // An ordinary commit on top of the head, or a fast-forward to a child of it committed
        // earlier (a published audit run), which moves nothing back.
        continue;
      }
      HeadMove.Direction direction;
      if (SnapshotUtil.isAncestorOf(table, from, to)) {
        direction = HeadMove.Direction.BACK;
      } else if (SnapshotUtil.isAncestorOf(table, to, from)) {
        direction = HeadMove.Direction.FORWARD;
      } else {
        direction = HeadMove.Direction.ASIDE;
      }
      moves.add(
          new HeadMove(
              Instant.ofEpochMilli(log.get(i).timestampMillis()),
              from,
              to,
              direction,
              rollbackTags.getOrDefault(from, List.of())));
    }
    moves.sort(Comparator.comparing(HeadMove::at).reversed());
    return moves;
  }

  private static Set<Long> line(Table table, long head) {
    Set<Long> ids = new HashSet<>();
    Snapshot snapshot = table.snapshot(head);
    if (snapshot != null) {
      for (long id : SnapshotUtil.ancestorIds(snapshot, table::snapshot)) {
        ids.add(id);
      }
    }
    return ids;
  }

  private static String lane(
      Table table,
      Snapshot snapshot,
      Set<Long> main,
      Map<String, Set<Long>> branchLines,
      Optional<Snapshot> cut) {
    if (main.contains(snapshot.snapshotId())) {
      return SnapshotRef.MAIN_BRANCH;
    }
    for (Map.Entry<String, Set<Long>> branch : branchLines.entrySet()) {
      if (branch.getValue().contains(snapshot.snapshotId())) {
        return branch.getKey();
      }
    }
    // As floe snapshots marks it: main may have held it before an expiry cut its history.
    return RunLookup.olderThanCut(table, snapshot, cut)
        ? TimelineSnapshot.BEFORE_CUT
        : TimelineSnapshot.OFF_MAIN;
  }

  private static long count(Map<String, String> summary, String key) {
    String value = summary.get(key);
    return value == null ? 0 : Long.parseLong(value);
  }
}
