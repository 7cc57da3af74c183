package dev.floe.catalog.slice;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Every delete file that applies to the rows of a data file planned by a filtered scan. Iceberg's
 * filtered planning leaves out the equality delete files whose column bounds cannot match the
 * filter, also bounds of columns that are not among their equality fields: a delete file written
 * with whole rows (Flink's non-upsert writer) whose other values lie outside the filter still
 * deletes rows inside it by its key, and is left out. Reading is not harmed where Iceberg's own
 * filtered reads agree, but a rewrite that dropped it would bring its rows back for every reader
 * (the new file's sequence number is after it). A rewrite (compaction, a merge) asks here instead.
 */
public final class ScopeDeletes {
  private final Map<String, List<DeleteFile>> unfiltered;

  private ScopeDeletes(Map<String, List<DeleteFile>> unfiltered) {
    this.unfiltered = unfiltered;
  }

  /**
   * The delete files of {@code snapshotId}'s data files. Reads the delete manifests; plans the
   * table once more without {@code filter} only when an equality delete file that could apply to a
   * file the filter keeps has metrics (bounds, or value, null or NaN counts: a column that is all
   * null has no bounds, and Iceberg leaves such a file out by its null count) of a column {@code
   * filter} names that is neither one of its equality fields nor pinned by its partition.
   */
  public static ScopeDeletes of(Table table, long snapshotId, Expression filter) {
    Snapshot snapshot = table.snapshot(snapshotId);
    if (snapshot == null
        || filter.op() == Expression.Operation.TRUE
        || !mayLeaveOut(table, snapshot, filter)) {
      return new ScopeDeletes(null);
    }
    Map<String, List<DeleteFile>> deletes = new HashMap<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(snapshotId).planFiles()) {
      for (FileScanTask task : tasks) {
        if (!task.deletes().isEmpty()) {
          deletes.put(task.file().location(), task.deletes());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot plan the delete files of " + table.name(), e);
    }
    return new ScopeDeletes(deletes);
  }

  /** Whether {@link #of} planned the table once more without the filter. */
  public boolean replanned() {
    return unfiltered != null;
  }

  /** Every delete file that applies to the rows of {@code task}'s data file. */
  public List<DeleteFile> of(FileScanTask task) {
    return unfiltered == null
        ? task.deletes()
        : unfiltered.getOrDefault(task.file().location(), List.of());
  }

  private static boolean mayLeaveOut(Table table, Snapshot snapshot, Expression filter) {
    Set<Integer> filtered =
        Binder.boundReferences(table.schema().asStruct(), List.of(filter), true);
    for (ManifestFile manifest : snapshot.deleteManifests(table.io())) {
      try (ManifestReader<DeleteFile> deletes =
          ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
        for (DeleteFile delete : deletes) {
          if (delete.content() == FileContent.EQUALITY_DELETES
              && prunableBy(delete, table.specs().get(delete.specId()), filtered)) {
            return true;
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the delete manifests of " + table.name(), e);
      }
    }
    return false;
  }

  /**
   * Whether a filter on {@code columns} may leave {@code delete} out although it deletes rows the
   * filter keeps: it has metrics of such a column that is not one of its equality fields and that
   * its partition does not pin (a delete of a day partition holds that day's values, and applies to
   * that partition's files only).
   */
  private static boolean prunableBy(DeleteFile delete, PartitionSpec spec, Set<Integer> columns) {
    for (Integer column : columns) {
      boolean pinned =
          spec != null
              && spec.fields().stream()
                  .anyMatch(f -> f.sourceId() == column && !f.transform().isVoid());
      if (!delete.equalityFieldIds().contains(column)
          && !pinned
          && (has(delete.lowerBounds(), column)
              || has(delete.upperBounds(), column)
              || has(delete.valueCounts(), column)
              || has(delete.nullValueCounts(), column)
              || has(delete.nanValueCounts(), column))) {
        return true;
      }
    }
    return false;
  }

  private static boolean has(Map<Integer, ?> metrics, Integer column) {
    return metrics != null && metrics.containsKey(column);
  }
}
