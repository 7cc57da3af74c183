package dev.floe.catalog.commit;

import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.CommitConflictException;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.snapshot.SliceFootprint;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * What the sources of a run did while it was in flight, checked right before its commit.
 *
 * <p>The run read each source at the snapshot it recorded when it was planned (the Flink source is
 * pinned to it). Appends since then are harmless: their rows are late rows of the slice, reported
 * by {@code floe late plan} and loaded by the next run, and a run that read them commits under the
 * conflict rule as the newer one (DESIGN.md rule 7). A source that was rewritten in the run's scope
 * (an overwrite or delete that touched the slice's rows, judged on the source's column of the
 * slice's name; any rewrite when the source has no such column or the run owns the whole table) or
 * rolled back is different: a run that started later may have read the corrected source and found
 * nothing to do (a no-op leaves no trace), so committing now would put the stale result over the
 * correct table. The run stops instead (exit 4) and its rerun loads the current source.
 */
public final class SourceDrift {

  private SourceDrift() {}

  /**
   * @param subject what the run commits, for messages
   * @throws CommitConflictException when a source was rewritten in the scope or rolled back
   */
  public static void requireNoRewrite(
      Catalog catalog, Lineage lineage, Scope scope, String subject) {
    lineage
        .sourceSnapshots()
        .forEach(
            (name, planned) -> {
              Table source;
              try {
                source = Catalogs.loadTable(catalog, name);
              } catch (RuntimeException gone) {
                throw drift(subject, name, planned, "it was dropped or cannot be loaded");
              }
              Snapshot head = source.currentSnapshot();
              if (head == null || head.snapshotId() == planned) {
                if (head == null) {
                  throw drift(subject, name, planned, "it has no current snapshot any more");
                }
                return;
              }
              if (!SnapshotUtil.isAncestorOf(source, head.snapshotId(), planned)
                  && !SnapshotUtil.isParentAncestorOf(source, head.snapshotId(), planned)) {
                throw drift(
                    subject,
                    name,
                    planned,
                    "it was rolled back, or the snapshot read was expired with the history"
                        + " after it (its current snapshot "
                        + head.snapshotId()
                        + " does not descend from the one read)");
              }
              SliceFootprint footprint = new SliceFootprint(source, scope);
              for (Snapshot s : SnapshotUtil.ancestorsBetween(source, head.snapshotId(), planned)) {
                if (rewrote(s) && touches(footprint, s)) {
                  throw drift(
                      subject,
                      name,
                      planned,
                      "snapshot "
                          + s.snapshotId()
                          + " ("
                          + s.operation()
                          + ") rewrote rows of "
                          + (scope.isWholeTable() ? "it" : "slice " + scope.label()));
                }
              }
            });
  }

  /** Appends only add rows and replaces (compactions) change none; anything else may rewrite. */
  private static boolean rewrote(Snapshot snapshot) {
    String operation = snapshot.operation();
    return !DataOperations.APPEND.equals(operation) && !DataOperations.REPLACE.equals(operation);
  }

  private static boolean touches(SliceFootprint footprint, Snapshot snapshot) {
    try {
      return footprint.touchedBy(snapshot);
    } catch (RuntimeException e) {
      return true; // the source has no column of the slice's name: it may touch any row
    }
  }

  private static CommitConflictException drift(
      String subject, String source, long planned, String what) {
    return new CommitConflictException(
        String.format(
            "Cannot commit %s: source %s changed while the run was in flight: %s (the run read"
                + " snapshot %d); a run that started later may have loaded the current source, so"
                + " nothing was committed; rerun to load the current source data",
            subject, source, what, planned));
  }
}
