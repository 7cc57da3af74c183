package dev.floe.catalog.commit;

import dev.floe.catalog.lineage.LineageKeys;
import java.util.Optional;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * The one way Floe finds the snapshot a run committed: walking back from the head of a branch (a
 * rollback moves the head, so never from a remembered snapshot) to the newest snapshot whose {@code
 * floe.run-id} is the run's. A published run keeps its run id on main (fast-forwarded or
 * cherry-picked), so this also answers "is the run on main".
 */
public final class RunLookup {

  private RunLookup() {}

  /**
   * @param table the table, as loaded or refreshed by the caller
   * @param runId the run's {@code floe.run-id}
   * @param branch the branch to search; null for main
   * @return the run's snapshot, or empty when it is not in the branch's history (or the branch does
   *     not exist)
   */
  public static Optional<Snapshot> find(Table table, String runId, String branch) {
    Snapshot head = branch == null ? table.currentSnapshot() : table.snapshot(branch);
    if (head == null || runId == null) {
      return Optional.empty();
    }
    for (Snapshot s : SnapshotUtil.ancestorsOf(head.snapshotId(), table::snapshot)) {
      if (runId.equals(s.summary().get(LineageKeys.RUN_ID))) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  /** The run's snapshot on main, or empty. */
  public static Optional<Snapshot> onMain(Table table, String runId) {
    return find(table, runId, null);
  }

  /**
   * Where an expiry cut main's history: the oldest snapshot of main's history that is kept, when
   * its parent was expired. A kept snapshot older than it that is not in main's kept history (one a
   * tag keeps) may then be an ancestor of main all the same: whether main held it cannot be told.
   * Empty when main's history is whole down to its first snapshot, or the table has none.
   */
  public static Optional<Snapshot> mainHistoryCut(Table table) {
    Snapshot oldest = null;
    for (Snapshot s : SnapshotUtil.currentAncestors(table)) {
      oldest = s;
    }
    return oldest != null && oldest.parentId() != null && table.snapshot(oldest.parentId()) == null
        ? Optional.of(oldest)
        : Optional.empty();
  }

  /**
   * True when {@code snapshot}, not in main's kept history, may be an ancestor of main that the cut
   * ({@link #mainHistoryCut}) hides: it is older than the cut, and its own kept history does not
   * show it branched off (its line does not lead to the snapshot the cut's parent was, from which
   * main's kept line starts: an audit branch forked there is beside main, not on it).
   */
  public static boolean olderThanCut(Table table, Snapshot snapshot, Optional<Snapshot> cut) {
    if (cut.isEmpty()) {
      return false;
    }
    // An ancestor has a lower sequence number; format 1 has none (all 0): commit times then.
    boolean older =
        cut.get().sequenceNumber() > 0
            ? snapshot.sequenceNumber() < cut.get().sequenceNumber()
            : snapshot.timestampMillis() < cut.get().timestampMillis();
    if (!older) {
      return false;
    }
    long cutParent = cut.get().parentId();
    for (Snapshot s = snapshot; s != null && s.parentId() != null; ) {
      if (s.parentId() == cutParent) {
        return false;
      }
      s = table.snapshot(s.parentId());
    }
    return true;
  }

  /** The current snapshot's id, or null for a table without snapshots. */
  public static Long headId(Table table) {
    Snapshot head = table.currentSnapshot();
    return head == null ? null : head.snapshotId();
  }
}
