package dev.floe.catalog.snapshot;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.SliceFootprint;
import dev.floe.catalog.lineage.SnapshotFiles;
import dev.floe.catalog.slice.PartitionPaths;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.SliceResolver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotChanges;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.Projections;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.PartitionSet;

/**
 * The rows a revert puts back: the reverted run's scope (a slice, or the whole table), or — for a
 * keyed run without a slice (merge, insert-if-absent), which only rewrote the files holding its
 * keys — just the partitions that run changed, so later runs on other partitions do not block it.
 * Knows which later commits touched the region and which data files hold it at a snapshot.
 */
final class RevertRegion {
  private static final int PARTITIONS_NAMED = 5;

  private final Table table;
  private final String tableName;
  private final Scope scope;
  private final PartitionSet partitions; // null: the whole scope
  private final Map<Integer, Evaluator[]> evaluators = new HashMap<>();

  private RevertRegion(Table table, String tableName, Scope scope, PartitionSet partitions) {
    this.table = table;
    this.tableName = tableName;
    this.scope = scope;
    this.partitions = partitions;
  }

  /** The whole scope. */
  static RevertRegion ofScope(Table table, String tableName, Scope scope) {
    return new RevertRegion(table, tableName, scope, null);
  }

  /**
   * The partitions {@code run} added or removed data files in; the whole table when its manifests
   * cannot be read.
   */
  static RevertRegion ofPartitionsChangedBy(Table table, String tableName, Snapshot run) {
    PartitionSet changed = PartitionSet.create(table.specs());
    try {
      SnapshotChanges changes = SnapshotFiles.changes(table, run);
      for (Iterable<DataFile> files :
          List.of(changes.addedDataFiles(), changes.removedDataFiles())) {
        files.forEach(f -> changed.add(f.specId(), f.partition()));
      }
    } catch (UncheckedIOException | NotFoundException e) {
      return ofScope(table, tableName, Scope.wholeTable());
    }
    return new RevertRegion(table, tableName, Scope.wholeTable(), changed);
  }

  /** True when the region is the run's whole scope, so its content is what lineage names. */
  boolean isWholeScope() {
    return partitions == null;
  }

  Scope scope() {
    return scope;
  }

  /** Rows a concurrent commit must not add to while the revert commits. */
  Expression conflictFilter() {
    // Partitions cannot be named in a row filter in general (bucket, truncate): the whole table.
    return partitions == null ? scope.toExpression() : Expressions.alwaysTrue();
  }

  /** True when {@code later} may have changed rows of the region (when unsure: true). */
  boolean touchedBy(Snapshot later) {
    if (partitions == null) {
      return new SliceFootprint(table, scope).touchedBy(later);
    }
    try {
      return SnapshotFiles.changedFiles(table, later)
          .anyMatch(file -> partitions.contains(file.specId(), file.partition()));
    } catch (UncheckedIOException | NotFoundException e) {
      return true; // an expired manifest cannot tell us
    }
  }

  /**
   * For a region of partitions: true when every file {@code later} added or removed lies in them,
   * so that restoring the region undoes all of it (when unsure, an expired manifest: false).
   */
  boolean holdsAllChangesOf(Snapshot later) {
    if (partitions == null) {
      throw new IllegalStateException("Cannot compare files with a slice region: compare slices");
    }
    try {
      return SnapshotFiles.changedFiles(table, later)
          .allMatch(file -> partitions.contains(file.specId(), file.partition()));
    } catch (UncheckedIOException | NotFoundException e) {
      return false;
    }
  }

  /**
   * The live data files of the region at {@code snapshot}, with their column statistics (they may
   * be committed again), and the delete files that apply to them.
   *
   * @throws InvalidInputException when a data file holds rows both inside and outside the region,
   *     or a delete file that applies to the region may also apply outside it (a delete file of
   *     another partition spec, e.g. a global equality delete)
   */
  Live live(Snapshot snapshot, String runId) {
    List<DataFile> files = new ArrayList<>();
    Map<String, List<DeleteFile>> deletesOf = new LinkedHashMap<>();
    Map<String, DeleteFile> deleteFiles = new LinkedHashMap<>();
    try (CloseableIterable<FileScanTask> tasks =
        table
            .newScan()
            .useSnapshot(snapshot.snapshotId())
            .filter(scope.toExpression())
            .includeColumnStats()
            .planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        if (!contains(file)) {
          continue;
        }
        files.add(file);
        if (task.deletes().isEmpty()) {
          continue;
        }
        List<DeleteFile> deletes = new ArrayList<>();
        for (DeleteFile delete : task.deletes()) {
          if (!containsDelete(delete)) {
            throw InvalidInputException.of(
                "Cannot revert run %s of %s: delete file %s (snapshot %d) applies to rows of %s"
                    + " and may apply to rows outside it; rewrite the deletes first",
                runId, tableName, delete.location(), snapshot.snapshotId(), describe());
          }
          deleteFiles.putIfAbsent(Live.key(delete), delete);
          deletes.add(delete);
        }
        deletesOf.put(file.location(), deletes);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the files of " + tableName, e);
    }
    return new Live(files, deletesOf, deleteFiles);
  }

  /**
   * The region's files at one snapshot.
   *
   * @param dataFiles the live data files
   * @param deletesOf the delete files that apply to each data file (by location), when any
   * @param deleteFiles every such delete file once, by {@link #key}
   */
  record Live(
      List<DataFile> dataFiles,
      Map<String, List<DeleteFile>> deletesOf,
      Map<String, DeleteFile> deleteFiles) {

    static final Live EMPTY = new Live(List.of(), Map.of(), Map.of());

    /** A delete file's identity: deletion vectors share a Puffin file, one blob each. */
    static String key(DeleteFile delete) {
      return delete.contentOffset() == null
          ? delete.location()
          : delete.location() + "@" + delete.contentOffset();
    }

    List<DeleteFile> deletesOf(DataFile file) {
      return deletesOf.getOrDefault(file.location(), List.of());
    }
  }

  /** Partition paths of files, e.g. {@code order_date=2026-10-03}; "(table)" if unpartitioned. */
  String partitionOf(DataFile file) {
    PartitionSpec spec = table.specs().get(file.specId());
    return spec.isPartitioned() ? PartitionPaths.of(spec, file.partition()) : "(table)";
  }

  /** The region in words, for plans and messages. */
  String describe() {
    if (partitions == null) {
      return scope.isWholeTable() ? "the whole table" : "slice " + scope.label();
    }
    if (partitions.stream().allMatch(p -> table.specs().get(p.first()).isUnpartitioned())) {
      return "the whole table";
    }
    TreeSet<String> paths = new TreeSet<>();
    partitions.forEach(
        p -> {
          PartitionSpec spec = table.specs().get(p.first());
          paths.add(spec.isPartitioned() ? PartitionPaths.of(spec, p.second()) : "(table)");
        });
    List<String> named = paths.stream().limit(PARTITIONS_NAMED).toList();
    return "the partitions the run changed ("
        + String.join(", ", named)
        + (paths.size() > named.size() ? ", and " + (paths.size() - named.size()) + " more" : "")
        + ")";
  }

  /** Whether a data file's rows are the region's (for a slice: it lies inside, checked whole). */
  boolean holds(DataFile file) {
    return contains(file);
  }

  private boolean contains(DataFile file) {
    if (partitions != null) {
      return partitions.contains(file.specId(), file.partition());
    }
    PartitionSpec spec = table.specs().get(file.specId());
    Evaluator[] evaluators = evaluators(spec);
    if (!evaluators[0].eval(file.partition())) {
      return false;
    }
    if (!evaluators[1].eval(file.partition())) {
      throw InvalidInputException.of(
          "Cannot revert slice %s of %s: data file %s (partition spec %s) holds rows inside and"
              + " outside the slice; rewrite it into the current spec first",
          scope.label(), tableName, file.location(), SliceResolver.describe(spec));
    }
    return true;
  }

  /** Whether a delete file can apply only to rows of the region (its partition lies inside). */
  private boolean containsDelete(DeleteFile delete) {
    if (partitions != null) {
      return partitions.contains(delete.specId(), delete.partition());
    }
    PartitionSpec spec = table.specs().get(delete.specId());
    return evaluators(spec)[1].eval(delete.partition());
  }

  /** The inclusive and the strict projection of the scope onto a spec's partitions. */
  private Evaluator[] evaluators(PartitionSpec spec) {
    return evaluators.computeIfAbsent(
        spec.specId(),
        id -> {
          Expression filter = scope.toExpression();
          return new Evaluator[] {
            new Evaluator(spec.partitionType(), Projections.inclusive(spec).project(filter)),
            new Evaluator(spec.partitionType(), Projections.strict(spec).project(filter))
          };
        });
  }
}
