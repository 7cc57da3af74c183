package dev.floe.catalog.snapshot;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What publishing an audit branch does, before or after it is done.
 *
 * @param table the table's name
 * @param runId the audited run
 * @param branch its audit branch, {@code audit-<run-id>}
 * @param method how main gets the run's snapshot
 * @param branchSnapshotId the run's snapshot on the audit branch
 * @param mainSnapshotId main's current snapshot before publishing (null for an empty table)
 * @param slice the run's slice label ({@code *} for the whole table)
 * @param changes rows the run removes and adds, per partition path, in path order
 */
public record PublishPlan(
    String table,
    String runId,
    String branch,
    Method method,
    long branchSnapshotId,
    Long mainSnapshotId,
    String slice,
    Map<String, RowChange> changes) {

  /** How the run reaches main. */
  public enum Method {
    /** Main has not moved since the run forked from it: main now points at the run's snapshot. */
    FAST_FORWARD,
    /**
     * Main moved, but not in the run's slice: the run's file changes are committed on top of main
     * as a new snapshot with the run's lineage.
     */
    CHERRY_PICK,
    /** The run is already on main (an earlier publish): nothing to do. */
    ALREADY_PUBLISHED,
    /**
     * The run is on main, but its audit branch is still there (main was moved onto the branch's
     * snapshot by hand, e.g. {@code floe rollback --to-snapshot}): nothing to publish; the audit
     * branch is removed.
     */
    ON_MAIN_WITH_BRANCH,
    /**
     * Main moved in the run's slice, but to exactly the run's content (e.g. the same job ran there
     * on the same data): nothing to publish; the audit branch is removed.
     */
    IDENTICAL_ON_MAIN,
    /**
     * The run's audit branch was dropped recently (by a publish that found main identical, or a
     * discard) and main's slice holds exactly the run's content: nothing to publish, nothing to
     * remove; a retried publish ends here.
     */
    ALREADY_IDENTICAL;

    public String text() {
      return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
  }

  /** Rows a snapshot removes and adds in one partition (from file metadata). */
  public record RowChange(long removed, long added) {}

  public PublishPlan {
    changes = Collections.unmodifiableSortedMap(new TreeMap<>(changes));
  }
}
