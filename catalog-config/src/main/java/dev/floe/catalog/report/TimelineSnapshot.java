package dev.floe.catalog.report;

import dev.floe.catalog.lineage.Lineage;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One snapshot on the report's timeline.
 *
 * @param snapshotId the snapshot's id
 * @param parentId its parent, or null
 * @param committedAt its commit time
 * @param operation Iceberg's operation (append, overwrite, delete, replace)
 * @param lane {@code main} for the current snapshot and its ancestors; else the first branch (by
 *     name) whose history holds it; else {@code ?} when it is older than where an expiry cut main's
 *     history, so whether main held it cannot be told (as {@code floe snapshots} marks it); else
 *     {@code off main} (e.g. left by a rollback)
 * @param current true for main's current snapshot
 * @param refs the branches and tags pointing at it, by name
 * @param lineage Floe's lineage when a Floe run committed it
 * @param revertsRun the run id a revert commit undid ({@code floe.reverts}), or null
 * @param publishedFrom the audit snapshot a publish commit re-applied, or null
 * @param addedRows rows added, from the summary
 * @param deletedRows rows deleted, from the summary
 */
public record TimelineSnapshot(
    long snapshotId,
    Long parentId,
    Instant committedAt,
    String operation,
    String lane,
    boolean current,
    List<RefMark> refs,
    Optional<Lineage> lineage,
    String revertsRun,
    String publishedFrom,
    long addedRows,
    long deletedRows) {

  /** The lane of a snapshot main does not hold (left by a rollback). */
  public static final String OFF_MAIN = "off main";

  /** The lane of a snapshot older than where an expiry cut main's history. */
  public static final String BEFORE_CUT = "?";

  public TimelineSnapshot {
    refs = List.copyOf(refs);
  }
}
