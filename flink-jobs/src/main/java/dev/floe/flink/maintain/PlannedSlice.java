package dev.floe.flink.maintain;

import dev.floe.catalog.maintain.DeletedRows;
import dev.floe.catalog.slice.Slice;
import java.io.Serializable;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;

/**
 * What compaction will do to one slice, decided from the table's metadata at the base snapshot.
 *
 * @param index position in the operator's list of slices
 * @param value the slice as the operator typed it
 * @param slice the resolved slice
 * @param runId the id the slice's commit will carry ({@code floe.run-id})
 * @param before all data files of the slice at the base snapshot
 * @param groups the partitions with small files to rewrite; empty when there is nothing to do
 * @param nothingToDo why there is nothing to compact, or null when there are groups
 * @param obsoleteDeletes the delete files that apply to no data file once the groups are rewritten
 *     (every data file they apply to is rewritten with them applied): the commit removes them
 */
record PlannedSlice(
    int index,
    String value,
    Slice slice,
    String runId,
    FileStats before,
    List<RewriteGroup> groups,
    String nothingToDo,
    List<DeleteFile> obsoleteDeletes)
    implements Serializable {

  PlannedSlice {
    groups = List.copyOf(groups);
    obsoleteDeletes = List.copyOf(obsoleteDeletes);
  }

  PlannedSlice(
      int index,
      String value,
      Slice slice,
      String runId,
      FileStats before,
      List<RewriteGroup> groups,
      String nothingToDo) {
    this(index, value, slice, runId, before, groups, nothingToDo, List.of());
  }

  /** How many delete files the groups' rewrite applies (each counted once). */
  long appliedDeletes() {
    return groups.stream()
        .flatMap(g -> g.deletes().values().stream())
        .flatMap(List::stream)
        .map(DeleteFile::location)
        .distinct()
        .count();
  }

  /**
   * The rows the groups' rewrite is known to drop: those of the position deletes and deletion
   * vectors that name one rewritten file (their record count is the rows they delete). Equality
   * deletes and partition-wide position deletes drop rows only a read can count: see {@link
   * #deletedRowsKnown()}.
   */
  long positionDeletedRows() {
    long rows = 0;
    for (RewriteGroup group : groups) {
      for (DataFile input : group.inputs()) {
        rows += DeletedRows.knownFrom(input, group.deletesOf(input));
      }
    }
    return rows;
  }

  /** Whether {@link #positionDeletedRows()} counts every row the rewrite drops. */
  boolean deletedRowsKnown() {
    for (RewriteGroup group : groups) {
      for (DataFile input : group.inputs()) {
        for (DeleteFile delete : group.deletesOf(input)) {
          if (!DeletedRows.namesOnly(delete, input)) {
            return false;
          }
        }
      }
    }
    return true;
  }

  FileStats rewritten() {
    FileStats stats = FileStats.NONE;
    for (RewriteGroup group : groups) {
      stats = stats.plus(group.stats());
    }
    return stats;
  }

  int expectedOutputs() {
    return groups.stream().mapToInt(RewriteGroup::expectedOutputs).sum();
  }
}
