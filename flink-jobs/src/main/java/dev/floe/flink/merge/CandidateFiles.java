package dev.floe.flink.merge;

import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.ScopeDeletes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.iceberg.BaseFileScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.expressions.ResidualEvaluator;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types.NestedField;

/**
 * The target's data files that may hold one of the batch's keys, found from metadata only: the
 * scope's partitions, Iceberg's partition pruning on the key values (a bucketed or identity key),
 * and each file's lower/upper bounds of every key column. A file is a candidate unless its bounds
 * exclude every key of the batch; a file without bounds is always a candidate.
 */
final class CandidateFiles {
  /**
   * @param candidates the files to read, each with every delete file of its rows
   * @param filesInScope every live data file in the scope
   */
  record Selection(List<FileScanTask> candidates, int filesInScope) {}

  private CandidateFiles() {}

  /**
   * @param table the target
   * @param snapshotId the snapshot to plan at, or null for an empty table
   * @param scope the part of the table the run owns
   * @param keyValues per key column, the batch's distinct values (Iceberg's Java representation)
   * @param everyFile true to return every file of the scope (delete_missing must see all keys)
   */
  static Selection select(
      Table table,
      Long snapshotId,
      Scope scope,
      Map<String, ? extends Collection<Comparable<?>>> keyValues,
      boolean everyFile) {
    if (snapshotId == null) {
      return new Selection(List.of(), 0);
    }
    List<KeyRange> ranges = new ArrayList<>();
    TableScan scan = table.newScan().useSnapshot(snapshotId).filter(scope.toExpression());
    Map<String, DeleteFile[]> deletes =
        deletes(scan, ScopeDeletes.at(table, snapshotId).scope(scope.toExpression()));
    int filesInScope = deletes.size();
    if (everyFile) {
      return new Selection(plan(scan, ranges, deletes), filesInScope);
    }
    scan = scan.includeColumnStats(keyValues.keySet());
    for (Map.Entry<String, ? extends Collection<Comparable<?>>> column : keyValues.entrySet()) {
      if (column.getValue().isEmpty()) {
        return new Selection(List.of(), filesInScope); // an empty batch matches nothing
      }
      NestedField field = table.schema().findField(column.getKey());
      ranges.add(new KeyRange(field, column.getValue()));
    }
    // Iceberg prunes by partition (a bucketed or identity key) and bounds; the ranges above also
    // prune by bounds when the batch is too large for an IN list.
    scan = scan.filter(KeyFilters.of(table, keyValues));
    return new Selection(plan(scan, ranges, deletes), filesInScope);
  }

  /**
   * Every live data file of the scope, with every delete file that applies to its rows ({@link
   * ScopeDeletes}). A scan filtered by key values leaves out the equality deletes whose bounds hold
   * none of those values: right for finding the keys, but a file rewritten whole must apply every
   * delete file of its rows, or the rows they delete come back (the new file's sequence number is
   * after those deletes).
   */
  private static Map<String, DeleteFile[]> deletes(TableScan scan, ScopeDeletes.Scoped all) {
    Map<String, DeleteFile[]> deletes = new HashMap<>();
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      for (FileScanTask task : tasks) {
        deletes.put(task.file().location(), all.of(task).toArray(DeleteFile[]::new));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the files of the merge target", e);
    }
    return deletes;
  }

  /** The tasks of {@code scan} the ranges keep, each with every delete file of its rows. */
  private static List<FileScanTask> plan(
      TableScan scan, List<KeyRange> ranges, Map<String, DeleteFile[]> deletes) {
    List<FileScanTask> candidates = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      for (FileScanTask task : tasks) {
        if (ranges.stream().allMatch(range -> range.mayHold(task.file()))) {
          candidates.add(
              new BaseFileScanTask(
                  task.file(),
                  deletes.get(task.file().location()),
                  SchemaParser.toJson(task.schema()),
                  PartitionSpecParser.toJson(task.spec()),
                  ResidualEvaluator.of(task.spec(), task.residual(), true)));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot plan the files of the merge target", e);
    }
    // Iceberg plans a table's manifests in parallel, so planFiles() has no fixed order; the
    // rewrite groups (and with them the files a merge commits) must not depend on it.
    candidates.sort(Comparator.comparing(task -> task.file().location()));
    return candidates;
  }

  /** The batch's sorted values of one key column, tested against a file's bounds. */
  private static final class KeyRange {
    private final int fieldId;
    private final Type type;
    private final TreeSet<Object> values;

    @SuppressWarnings("unchecked")
    KeyRange(NestedField field, Collection<Comparable<?>> batchValues) {
      this.fieldId = field.fieldId();
      this.type = field.type();
      this.values = new TreeSet<>((Comparator<Object>) Comparators.forType(type.asPrimitiveType()));
      this.values.addAll(batchValues);
    }

    boolean mayHold(DataFile file) {
      ByteBuffer lower = file.lowerBounds() == null ? null : file.lowerBounds().get(fieldId);
      ByteBuffer upper = file.upperBounds() == null ? null : file.upperBounds().get(fieldId);
      if (lower == null || upper == null) {
        return true; // no statistics: only reading the file can tell
      }
      Object from = Conversions.fromByteBuffer(type, lower);
      Object to = Conversions.fromByteBuffer(type, upper);
      Object first = values.ceiling(from);
      return first != null && values.comparator().compare(first, to) <= 0;
    }
  }
}
