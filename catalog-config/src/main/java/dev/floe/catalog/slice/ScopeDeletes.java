package dev.floe.catalog.slice;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
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
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Projections;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Every delete file that applies to the rows of a data file planned by a filtered scan. Iceberg's
 * filtered planning leaves out the equality delete files whose column bounds cannot match the
 * filter, also bounds of columns that are not among their equality fields: a delete file written
 * with whole rows (Flink's non-upsert writer) whose other values lie outside the filter still
 * deletes rows inside it by its key, and is left out. Reading is not harmed where Iceberg's own
 * filtered reads agree, but a rewrite that dropped it would bring its rows back for every reader
 * (the new file's sequence number is after it). A rewrite (compaction, a merge) asks here instead,
 * once per snapshot it reads.
 */
public final class ScopeDeletes {
  private final Table table;
  private final long snapshotId;
  // The snapshot's equality deletes with metrics of a column other than their equality fields:
  // the only ones a filter can leave out although they apply.
  private final List<DeleteFile> wide;
  private Map<String, List<DeleteFile>> unfiltered;

  private ScopeDeletes(Table table, long snapshotId, List<DeleteFile> wide) {
    this.table = table;
    this.snapshotId = snapshotId;
    this.wide = wide;
  }

  /**
   * The delete files of {@code snapshotId}'s data files, for any number of filters: reads the
   * snapshot's delete manifests once, and plans the table without a filter at most once, when a
   * filter needs it ({@link #scope}).
   */
  public static ScopeDeletes at(Table table, long snapshotId) {
    Snapshot snapshot = table.snapshot(snapshotId);
    List<DeleteFile> wide = new ArrayList<>();
    if (snapshot != null) {
      for (ManifestFile manifest : snapshot.deleteManifests(table.io())) {
        try (ManifestReader<DeleteFile> deletes =
            ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
          for (DeleteFile delete : deletes) {
            if (delete.content() == FileContent.EQUALITY_DELETES && hasOtherMetrics(delete)) {
              wide.add(delete.copy());
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException("Cannot read the delete manifests of " + table.name(), e);
        }
      }
    }
    return new ScopeDeletes(table, snapshotId, wide);
  }

  /**
   * The delete files of the data files a scan filtered by {@code filter} plans: its own, or, when
   * an equality delete has metrics of a column {@code filter} names other than its equality fields
   * and its partition does not settle whether it applies to rows the filter keeps, those of the
   * table planned without a filter.
   */
  public Scoped scope(Expression filter) {
    if (filter.op() == Expression.Operation.TRUE || !mayLeaveOut(filter)) {
      return new Scoped(null);
    }
    if (unfiltered == null) {
      unfiltered = new HashMap<>();
      try (CloseableIterable<FileScanTask> tasks =
          table.newScan().useSnapshot(snapshotId).planFiles()) {
        for (FileScanTask task : tasks) {
          if (!task.deletes().isEmpty()) {
            unfiltered.put(task.file().location(), task.deletes());
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot plan the delete files of " + table.name(), e);
      }
    }
    return new Scoped(unfiltered);
  }

  /** The delete files for one filter ({@link #scope}). */
  public static final class Scoped {
    private final Map<String, List<DeleteFile>> unfiltered;

    private Scoped(Map<String, List<DeleteFile>> unfiltered) {
      this.unfiltered = unfiltered;
    }

    /** Whether the table was planned without the filter for it. */
    public boolean replanned() {
      return unfiltered != null;
    }

    /** Every delete file that applies to the rows of {@code task}'s data file. */
    public List<DeleteFile> of(FileScanTask task) {
      return unfiltered == null
          ? task.deletes()
          : unfiltered.getOrDefault(task.file().location(), List.of());
    }
  }

  private boolean mayLeaveOut(Expression filter) {
    Set<Integer> filtered =
        Binder.boundReferences(table.schema().asStruct(), List.of(filter), true);
    Map<Integer, Evaluator[]> partitionChecks = new HashMap<>();
    for (DeleteFile delete : wide) {
      if (hasMetricsOfOtherColumns(delete, filtered)
          && !pinned(
              delete,
              partitionChecks.computeIfAbsent(
                  delete.specId(), id -> checks(table.specs().get(id), filter)))) {
        return true;
      }
    }
    return false;
  }

  /**
   * For a spec, whether a partition lies wholly inside the filter (strict projection) and whether
   * it may hold a row of it (inclusive projection).
   */
  private static Evaluator[] checks(PartitionSpec spec, Expression filter) {
    return new Evaluator[] {
      new Evaluator(spec.partitionType(), Projections.strict(spec).project(filter)),
      new Evaluator(spec.partitionType(), Projections.inclusive(spec).project(filter))
    };
  }

  /**
   * Whether the partition of {@code delete} settles it: wholly inside the filter, so every row it
   * holds (and every value it stores, being of that partition) passes it; or wholly outside, so it
   * applies to no file the filter keeps (a partitioned delete applies to its partition's files
   * only). A partition that may hold rows on both sides (a month beside a day's filter), or none
   * (an unpartitioned spec: a global delete), does not.
   */
  private static boolean pinned(DeleteFile delete, Evaluator[] checks) {
    StructLike partition = delete.partition();
    return checks[0].eval(partition) || !checks[1].eval(partition);
  }

  /** Whether {@code delete} has metrics of any column other than its equality fields. */
  private static boolean hasOtherMetrics(DeleteFile delete) {
    for (Map<Integer, ?> metrics :
        java.util.Arrays.asList(
            delete.lowerBounds(),
            delete.upperBounds(),
            delete.valueCounts(),
            delete.nullValueCounts(),
            delete.nanValueCounts())) {
      if (metrics != null && !delete.equalityFieldIds().containsAll(metrics.keySet())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code delete} has metrics (bounds, or value, null or NaN counts: a column that is all
   * null has no bounds, and Iceberg leaves such a file out by its null count) of one of {@code
   * columns} that is not one of its equality fields: by those Iceberg's filtered planning may leave
   * it out although it deletes rows the filter keeps by its equality fields.
   */
  private static boolean hasMetricsOfOtherColumns(DeleteFile delete, Set<Integer> columns) {
    for (Integer column : columns) {
      if (!delete.equalityFieldIds().contains(column)
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
