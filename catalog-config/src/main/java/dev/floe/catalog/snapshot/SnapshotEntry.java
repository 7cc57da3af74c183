package dev.floe.catalog.snapshot;

import dev.floe.catalog.lineage.Lineage;
import java.util.Optional;

/**
 * One snapshot as operators see it in `floe snapshots`.
 *
 * @param snapshotId the snapshot's id
 * @param parentId its parent, or null for the first snapshot
 * @param timestampMillis commit time
 * @param operation Iceberg's operation: append, overwrite, delete (an empty slice), replace
 * @param current true for the table's current snapshot
 * @param onMain true when the snapshot is the current one or one of its ancestors (false after a
 *     rollback moved the head away from it, or on a branch); null when it is older than where an
 *     expiry cut main's history, so whether main held it cannot be told (a tag keeps it)
 * @param addedRows rows added, from the summary
 * @param deletedRows rows deleted, from the summary
 * @param rows the rows of the commit's slice after it ({@code floe.rows}), or null when the commit
 *     does not record them: another writer's, a compaction's (it records the rows it rewrote, not
 *     the slice's), a revert's of only some partitions
 * @param lineage Floe's lineage, empty for snapshots other writers made
 * @param lineageProblem why the summary's Floe keys are no lineage Floe can read (another tool
 *     wrote {@code floe.rows: ten}), or null; the lineage is then empty
 */
public record SnapshotEntry(
    long snapshotId,
    Long parentId,
    long timestampMillis,
    String operation,
    boolean current,
    Boolean onMain,
    long addedRows,
    long deletedRows,
    Long rows,
    Optional<Lineage> lineage,
    String lineageProblem) {}
