package dev.floe.catalog.snapshot;

import dev.floe.catalog.lineage.LineageKeys;
import org.apache.iceberg.Snapshot;

/**
 * A commit made after the run being reverted that changed rows the revert would restore: it blocks
 * the revert (or, with --force, is what the revert discards).
 *
 * @param snapshotId its snapshot
 * @param runId its Floe run id, or null for another writer
 * @param job its Floe job, or null
 * @param revertsRun when it was itself a `floe revert`, the run id it reverted; else null
 */
public record LaterCommit(long snapshotId, String runId, String job, String revertsRun) {

  static LaterCommit of(Snapshot snapshot) {
    var summary = snapshot.summary();
    return new LaterCommit(
        snapshot.snapshotId(),
        summary.get(LineageKeys.RUN_ID),
        summary.get(LineageKeys.JOB),
        summary.get(LineageKeys.REVERTS));
  }

  /** E.g. {@code run 3f2a… (job fact_orders_daily, snapshot 123)}. */
  public String describe() {
    if (runId == null) {
      return "snapshot " + snapshotId + " (not a Floe run)";
    }
    if (revertsRun != null) {
      return "run " + runId + " (a revert of run " + revertsRun + ", snapshot " + snapshotId + ")";
    }
    return "run " + runId + " (job " + job + ", snapshot " + snapshotId + ")";
  }
}
