package dev.floe.flink.job;

import dev.floe.catalog.lineage.ContentHash;

/**
 * What one scratch run left: the content of its slice (or of the whole table, for a run without a
 * slice) as read back from the table, not as the writers reported it.
 *
 * @param run the run itself (job, slice, run id, commit outcome)
 * @param branch the scratch branch {@code scratch-<run-id>}
 * @param onBranch whether the branch exists: false when a keyed run had nothing to change (a
 *     no-op), so its result is main's content and there is nothing to drop
 * @param snapshotId the snapshot that holds the run's result: the branch head, or for a no-op
 *     main's head (null for a table without snapshots)
 * @param content the content hash of the slice at that snapshot, by {@code TableContent.hash}
 */
public record ScratchResult(
    RunResult run, String branch, boolean onBranch, Long snapshotId, ContentHash content) {

  /** The rows of the slice at {@link #snapshotId()}. */
  public long rows() {
    return content.rows();
  }
}
