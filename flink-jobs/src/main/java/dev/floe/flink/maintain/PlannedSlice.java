package dev.floe.flink.maintain;

import dev.floe.catalog.maintain.DeletedRows;
import dev.floe.catalog.slice.Slice;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.ContentFile;
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

  /**
   * The bytes the expected outputs are estimated to take. Rows are not conserved as bytes: each
   * small file carries a fixed overhead (Parquet footer and magic) that one output pays once. The
   * overhead is the intercept of {@link LinearFit the line} through the rewritten files' (rows,
   * bytes); with no line ({@link LinearFit#of}: too few points, row counts too close to tell a line
   * from noise, or one that does not rise) the rewritten bytes are kept.
   */
  long expectedOutputBytes() {
    List<DataFile> inputs = groups.stream().flatMap(g -> g.inputs().stream()).toList();
    long bytes = rewritten().bytes();
    long[] rows = new long[inputs.size()];
    long[] sizes = new long[inputs.size()];
    for (int i = 0; i < inputs.size(); i++) {
      rows[i] = inputs.get(i).recordCount();
      sizes[i] = inputs.get(i).fileSizeInBytes();
    }
    LinearFit fit = LinearFit.of(rows, sizes);
    if (fit == null) {
      return bytes;
    }
    long fewer = Math.max(0, inputs.size() - expectedOutputs());
    return Math.max(0, bytes - Math.round(fit.intercept() * fewer));
  }

  /**
   * Per manifest of the base snapshot (its location), how many of the files the commit removes it
   * holds: the rewritten data files and the obsolete delete files. A file whose manifest is not
   * known is counted under the empty location.
   */
  Map<String, Integer> removedByManifest() {
    Map<String, Integer> counts = new TreeMap<>();
    groups.forEach(g -> g.inputs().forEach(f -> count(counts, f)));
    obsoleteDeletes.forEach(f -> count(counts, f));
    return counts;
  }

  private static void count(Map<String, Integer> counts, ContentFile<?> file) {
    String manifest = file.manifestLocation();
    counts.merge(manifest == null ? "" : manifest, 1, Integer::sum);
  }
}
