package dev.floe.catalog.snapshot;

import dev.floe.catalog.lineage.Lineage;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * One named reference of a table as `floe tags` shows it: a tag or a branch, where it points, how
 * long it is kept, and the Floe run that made the snapshot.
 *
 * @param name the ref's name
 * @param kind tag or branch
 * @param role what Floe uses it for (main, an audit or scratch branch, a rollback tag, or the
 *     operator's own)
 * @param snapshotId the snapshot it points at
 * @param snapshotTimestampMillis that snapshot's commit time
 * @param maxRefAge how long after the snapshot's commit the ref itself may be dropped by snapshot
 *     expiry ({@code floe tag --retain}), or null to keep it forever
 * @param minSnapshotsToKeep for a branch with its own retention: ancestors it keeps, else null
 * @param maxSnapshotAge for a branch with its own retention: max age of its ancestors, else null
 * @param lineage the lineage of the snapshot, empty when Floe did not write it
 */
public record RefEntry(
    String name,
    Kind kind,
    Role role,
    long snapshotId,
    long snapshotTimestampMillis,
    Duration maxRefAge,
    Integer minSnapshotsToKeep,
    Duration maxSnapshotAge,
    Optional<Lineage> lineage) {

  /** Iceberg's two kinds of named reference. */
  public enum Kind {
    TAG,
    BRANCH
  }

  /** What a ref is for, so operators can tell Floe's own refs from theirs. */
  public enum Role {
    /** The table's main branch: what readers see. */
    MAIN,
    /** A write-audit-publish branch {@code audit-<run-id>}: publish or discard it. */
    AUDIT,
    /**
     * A scratch branch {@code scratch-<run-id>} of {@code floe verify} or a backfill's sample: it
     * never reaches main and is dropped when the comparison is done.
     */
    SCRATCH,
    /** {@code floe-before-rollback-<n>}: the head a rollback left; roll back to it to undo. */
    ROLLBACK,
    /** A tag or branch someone made by hand. */
    USER
  }

  /** When the ref may be dropped by snapshot expiry, or null when it never is. */
  public Instant expiresAt() {
    return maxRefAge == null ? null : Instant.ofEpochMilli(snapshotTimestampMillis).plus(maxRefAge);
  }
}
