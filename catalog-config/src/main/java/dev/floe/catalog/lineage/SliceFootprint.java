package dev.floe.catalog.lineage;

import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.Slice;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Projections;

/**
 * Tells whether a snapshot may have changed a slice's rows (for the whole-table scope: always). A
 * Floe commit on the same column answers from its lineage (its slice label); anything else —
 * another writer, or a Floe slice of another column, which can rewrite this slice's partitions —
 * answers from the partitions of the files it added or removed. When unsure (an expired manifest),
 * the answer is yes.
 */
public final class SliceFootprint {
  private final Table table;
  private final Scope scope;
  private final Map<Integer, Evaluator> evaluators = new HashMap<>();

  /** The slice's label and its lineage prefix, or null for the whole table. */
  private final String label;

  private final String labelPrefix;

  public SliceFootprint(Table table, Scope scope) {
    this.table = table;
    this.scope = scope;
    this.label = scope.isWholeTable() ? null : scope.slice().label();
    this.labelPrefix = scope.isWholeTable() ? null : scope.slice().column() + "=[";
  }

  public boolean touchedBy(Snapshot snapshot) {
    return scope.isWholeTable() || touchedBy(snapshot, Lineage.of(snapshot));
  }

  /**
   * {@link #touchedBy(Snapshot)} for a walker that has read the snapshot's lineage already.
   *
   * @param lineage {@code Lineage.of(snapshot)}
   */
  public boolean touchedBy(Snapshot snapshot, Optional<Lineage> lineage) {
    if (scope.isWholeTable()) {
      return true; // every snapshot may change some row of the table
    }
    String recorded = lineage.map(Lineage::slice).orElse(null);
    if (recorded != null && recorded.startsWith(labelPrefix)) {
      return Slice.labelsOverlap(recorded, label);
    }
    return filesTouchSlice(snapshot);
  }

  private boolean filesTouchSlice(Snapshot snapshot) {
    try {
      return SnapshotFiles.changedFiles(table, snapshot)
          .anyMatch(
              file ->
                  evaluators
                      .computeIfAbsent(file.specId(), id -> evaluator(table.specs().get(id)))
                      .eval(file.partition()));
    } catch (UncheckedIOException | NotFoundException e) {
      return true; // an expired manifest cannot tell us
    }
  }

  private Evaluator evaluator(PartitionSpec spec) {
    return new Evaluator(
        spec.partitionType(), Projections.inclusive(spec).project(scope.toExpression()));
  }
}
