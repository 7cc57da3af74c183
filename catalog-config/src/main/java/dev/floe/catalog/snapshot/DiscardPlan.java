package dev.floe.catalog.snapshot;

import java.util.List;

/**
 * What discarding a run's branch does.
 *
 * @param table the table's name
 * @param runId the run
 * @param role which branch of the run is dropped, or that none is left to drop
 * @param branch the branch dropped; for {@link Role#NOTHING_LEFT}, the run's branch as a recent
 *     metadata version had it, or null when only the run's snapshot is left
 * @param snapshotId the snapshot the branch pointed at (for {@link Role#NOTHING_LEFT}, that
 *     branch's snapshot, else the run's newest snapshot)
 * @param files for a scratch branch, the files only its snapshot references, by normalised
 *     location, sorted: those {@link Discard#commit()} deleted, or {@link Discard#apply()} would
 *     delete; empty otherwise (an audit branch's files go when snapshot expiry drops its snapshot)
 */
public record DiscardPlan(
    String table, String runId, Role role, String branch, long snapshotId, List<String> files) {

  public DiscardPlan {
    files = List.copyOf(files);
  }

  DiscardPlan withFiles(List<String> value) {
    return new DiscardPlan(table, runId, role, branch, snapshotId, value);
  }

  /** Which branch a discard drops. */
  public enum Role {
    /** The audit branch of a run made with {@code --publish manual}. */
    AUDIT,
    /** The scratch branch a killed {@code floe verify} or backfill sample check left. */
    SCRATCH,
    /**
     * The run has neither branch (any more) and main does not hold it: a retried discard, or a run
     * rolled back off main. Nothing to do.
     */
    NOTHING_LEFT
  }
}
