package dev.floe.catalog.snapshot;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a rollback does, before or after it is done.
 *
 * @param table the table's name
 * @param fromSnapshotId the current snapshot, which the rollback leaves (null for an empty table)
 * @param toSnapshotId the snapshot that becomes current
 * @param tag the tag that keeps {@code fromSnapshotId} reachable, so the rollback can be undone
 * @param ancestor true when {@code toSnapshotId} is an ancestor of the current snapshot
 * @param rowsBefore rows per partition now (from file metadata; in a changed partition, a file with
 *     delete files counts its live rows), in partition path order
 * @param rowsAfter rows per partition after the rollback
 * @param changedPartitions the partitions whose data files differ between the two snapshots: their
 *     content may change even where the row count stays; in path order
 */
public record RollbackPlan(
    String table,
    Long fromSnapshotId,
    long toSnapshotId,
    String tag,
    boolean ancestor,
    Map<String, Long> rowsBefore,
    Map<String, Long> rowsAfter,
    Set<String> changedPartitions) {

  public RollbackPlan {
    rowsBefore = Collections.unmodifiableSortedMap(new TreeMap<>(rowsBefore));
    rowsAfter = Collections.unmodifiableSortedMap(new TreeMap<>(rowsAfter));
    changedPartitions = Collections.unmodifiableSortedSet(new TreeSet<>(changedPartitions));
  }

  /** The target already is the current snapshot: a rollback changes nothing (a rerun). */
  public boolean changesNothing() {
    return fromSnapshotId != null && fromSnapshotId == toSnapshotId;
  }
}
