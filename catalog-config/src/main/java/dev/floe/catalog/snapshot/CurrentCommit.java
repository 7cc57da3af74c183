package dev.floe.catalog.snapshot;

import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.SliceFootprint;
import dev.floe.catalog.slice.Scope;
import java.util.Optional;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * The Floe commit whose content a scope holds on main right now: walking back from the head (a
 * rollback moves it), the newest commit recorded for exactly this scope, unless something else
 * (another writer, another slice's commit over the same partitions) touched the scope after it.
 * Compactions change no row, so the walk looks through them, as {@link SliceContent} does.
 */
public final class CurrentCommit {

  /**
   * @param snapshotId the commit's snapshot
   * @param lineage what the commit recorded
   */
  public record Found(long snapshotId, Lineage lineage) {}

  private CurrentCommit() {}

  /**
   * Whether a commit's recorded content is still what its rows read as: the table's schema is the
   * one the commit was made with. Rows are read with the current schema, so after a change a column
   * dropped and added again reads NULL, and a new column NULL, while the commit recorded the rows
   * as they were; its content hash then says nothing about what the scope holds now.
   *
   * @param table the table
   * @param snapshotId the commit's snapshot
   */
  public static boolean madeWithCurrentSchema(Table table, long snapshotId) {
    Snapshot commit = table.snapshot(snapshotId);
    return commit != null
        && commit.schemaId() != null
        && commit.schemaId() == table.schema().schemaId();
  }

  public static Optional<Found> of(Table table, Scope scope) {
    SliceFootprint footprint = new SliceFootprint(table, scope);
    String label = scope.label();
    Snapshot snapshot = table.currentSnapshot();
    while (snapshot != null) {
      Optional<Lineage> lineage = Lineage.of(snapshot);
      boolean contentPreserved =
          lineage.isPresent() && WriteMode.preservesContent(lineage.get().mode());
      if (lineage.isPresent() && !contentPreserved && label.equals(lineage.get().slice())) {
        return Optional.of(new Found(snapshot.snapshotId(), lineage.get()));
      }
      if (!contentPreserved && footprint.touchedBy(snapshot, lineage)) {
        return Optional.empty();
      }
      if (snapshot.parentId() == null) {
        return Optional.empty();
      }
      snapshot = table.snapshot(snapshot.parentId());
    }
    return Optional.empty();
  }
}
