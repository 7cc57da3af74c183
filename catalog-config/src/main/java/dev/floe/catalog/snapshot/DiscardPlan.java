package dev.floe.catalog.snapshot;

/**
 * What discarding an audit branch does.
 *
 * @param table the table's name
 * @param runId the audited run
 * @param branch its audit branch
 * @param snapshotId the snapshot the branch pointed at
 */
public record DiscardPlan(String table, String runId, String branch, long snapshotId) {}
