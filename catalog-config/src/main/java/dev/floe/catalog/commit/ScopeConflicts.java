package dev.floe.catalog.commit;

import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.lineage.SliceFootprint;
import dev.floe.catalog.slice.Scope;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Decides what to do when a run that replaces its scope (overwrite, swap, late apply, backfill
 * slices) failed validation because another commit touched the scope after the run started
 * (DESIGN.md rule 7). Never overwrite a run that read newer source data; re-commit over one that
 * read older data; report no-op when the content is the same. A table rolled back while the run was
 * in flight stops the run: the operator moved the head on purpose, and the run's result was
 * computed against a history that is no longer current.
 */
public final class ScopeConflicts {

  public enum Action {
    /** The newer commit holds exactly our content: nothing to do. */
    NO_OP,
    /** The newer commit read the same or newer sources with other content: ours is stale. */
    STALE,
    /** The newer commit read older sources: commit ours on top of it. */
    RETRY
  }

  /**
   * @param action what to do
   * @param conflictingSnapshotId the snapshot that decided it
   * @param reason a sentence for the operator
   */
  public record Resolution(Action action, Long conflictingSnapshotId, String reason) {}

  private ScopeConflicts() {}

  /** The resolution, or null when no commit since {@code baseSnapshotId} touched the slice. */
  public static Resolution resolve(
      Catalog catalog,
      Table target,
      Long baseSnapshotId,
      Scope scope,
      Lineage ours,
      ContentHash content) {
    Snapshot head = target.currentSnapshot();
    if (baseSnapshotId != null
        && (head == null
            || !SnapshotUtil.isAncestorOf(target, head.snapshotId(), baseSnapshotId))) {
      return new Resolution(
          Action.STALE,
          head == null ? null : head.snapshotId(),
          "the table was rolled back while the run was in flight (its current snapshot "
              + (head == null ? "(none)" : head.snapshotId())
              + " does not descend from snapshot "
              + baseSnapshotId
              + ", where the run started)");
    }
    Snapshot newest = newestConflicting(target, baseSnapshotId, scope, false);
    if (newest == null) {
      Snapshot compaction = newestConflicting(target, baseSnapshotId, scope, true);
      if (compaction != null) {
        // Iceberg refuses an overwrite whose slice files were rewritten meanwhile, but a
        // compaction changed no row: replacing the compacted files is exactly our commit.
        return new Resolution(
            Action.RETRY,
            compaction.snapshotId(),
            "only a compaction (snapshot "
                + compaction.snapshotId()
                + ", no row changed) rewrote the slice's files since this run started");
      }
      return null; // nothing touched the slice since the run started: not a conflict at all
    }
    Optional<Lineage> theirs = Lineage.of(newest);
    if (theirs.isEmpty()) {
      return new Resolution(
          Action.STALE,
          newest.snapshotId(),
          "a writer other than Floe changed the slice in snapshot "
              + newest.snapshotId()
              + " (operation "
              + newest.operation()
              + ")");
    }
    Lineage other = theirs.get();
    SourceOrder order = compareSources(catalog, ours, other);
    if (order == SourceOrder.THEIRS_OLDER) {
      return new Resolution(
          Action.RETRY,
          newest.snapshotId(),
          "run " + other.runId() + " committed the slice from older source data");
    }
    if (scope.label().equals(other.slice())
        && WriteMode.replacesScope(other.mode())
        && content.encode().equals(other.contentHash())) {
      return new Resolution(
          Action.NO_OP,
          newest.snapshotId(),
          "run "
              + other.runId()
              + " already committed identical content in snapshot "
              + newest.snapshotId());
    }
    String reverts = newest.summary().get(LineageKeys.REVERTS);
    if (reverts != null) {
      // A revert reads no source: which data is newer cannot be told, so the revert stands.
      return new Resolution(
          Action.STALE,
          newest.snapshotId(),
          "run "
              + other.runId()
              + " reverted run "
              + reverts
              + " in the slice in snapshot "
              + newest.snapshotId()
              + " while this run ran; a revert reads no source, so this run's cannot be proved"
              + " newer than what it restored");
    }
    return new Resolution(
        Action.STALE,
        newest.snapshotId(),
        "run "
            + other.runId()
            + " (job "
            + other.job()
            + ") committed the slice in snapshot "
            + newest.snapshotId()
            + " from the same or newer source data ("
            + "their sources "
            + other.sourceSnapshots()
            + ", ours "
            + ours.sourceSnapshots()
            + ") with different content");
  }

  /**
   * The newest snapshot after {@code base} on the current branch that touched the slice: among the
   * compactions (which change no row, see {@link WriteMode#preservesContent}) when {@code
   * compactions}, else among all other commits.
   */
  private static Snapshot newestConflicting(
      Table table, Long base, Scope scope, boolean compactions) {
    SliceFootprint footprint = new SliceFootprint(table, scope);
    Snapshot head = table.currentSnapshot();
    if (head == null) {
      return null;
    }
    for (Snapshot s : SnapshotUtil.ancestorsBetween(table, head.snapshotId(), base)) {
      boolean compaction =
          Lineage.of(s).map(l -> WriteMode.preservesContent(l.mode())).orElse(false);
      if (compaction == compactions && footprint.touchedBy(s)) {
        return s;
      }
    }
    return null;
  }

  private enum SourceOrder {
    THEIRS_OLDER,
    SAME_OR_NEWER_OR_UNKNOWN
  }

  /**
   * THEIRS_OLDER only when, for every source, the newest snapshot the other run may have read is
   * ours or an ancestor of the oldest we may have read, or was rolled back out of the source's
   * history while ours is in it, and strictly older for at least one. Anything unclear counts as
   * newer: we do not overwrite what we cannot prove is older.
   */
  private static SourceOrder compareSources(Catalog catalog, Lineage ours, Lineage theirs) {
    boolean strictlyOlder = false;
    if (!theirs.sourceSnapshots().keySet().equals(ours.sourceSnapshots().keySet())) {
      return SourceOrder.SAME_OR_NEWER_OR_UNKNOWN;
    }
    for (Map.Entry<String, Long> source : ours.sourceSnapshots().entrySet()) {
      Long theirLatest = theirs.latestPossiblyRead(source.getKey());
      if (theirLatest.equals(source.getValue())) {
        continue;
      }
      try {
        Table sourceTable = Catalogs.loadTable(catalog, source.getKey());
        Long ourLatest = ours.latestPossiblyRead(source.getKey());
        long sourceHead = sourceTable.currentSnapshot().snapshotId();
        // isAncestorOf(table, snapshot, ancestor): is theirLatest an ancestor of what we read?
        boolean theirsAncestor =
            SnapshotUtil.isAncestorOf(sourceTable, source.getValue(), theirLatest);
        // Or did the source roll back past what they read, while what we read is current history?
        boolean theirsRolledBack =
            !SnapshotUtil.isAncestorOf(sourceTable, sourceHead, theirLatest)
                && SnapshotUtil.isAncestorOf(sourceTable, sourceHead, ourLatest);
        if (theirsAncestor || theirsRolledBack) {
          strictlyOlder = true;
        } else {
          return SourceOrder.SAME_OR_NEWER_OR_UNKNOWN;
        }
      } catch (RuntimeException e) {
        return SourceOrder.SAME_OR_NEWER_OR_UNKNOWN;
      }
    }
    return strictlyOlder ? SourceOrder.THEIRS_OLDER : SourceOrder.SAME_OR_NEWER_OR_UNKNOWN;
  }
}
