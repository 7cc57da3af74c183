package dev.floe.catalog.snapshot;

import java.util.List;

/**
 * What discarding a run's branch does.
 *
 * @param table the table's name
 * @param runId the run
 * @param role which branch of the run is dropped, or that none is left to drop
 * @param branch the branch: the audit branch (also when it is already gone) or the scratch branch
 * @param snapshotId the snapshot the branch pointed at (for {@link Role#ALREADY_DISCARDED}, the
 *     run's snapshot that no branch holds any more)
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
     * The run's audit branch is gone and main does not hold the run: a rerun of a discard, nothing
     * to do.
     */
    ALREADY_DISCARDED
  }
}
