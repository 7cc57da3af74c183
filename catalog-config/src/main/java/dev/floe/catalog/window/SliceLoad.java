package dev.floe.catalog.window;

import dev.floe.catalog.lineage.Lineage;
import java.time.Instant;

/**
 * One Floe commit that loaded a slice.
 *
 * @param snapshotId the snapshot the run committed
 * @param committedAt the snapshot's commit time
 * @param lineage what the run recorded about itself
 */
public record SliceLoad(long snapshotId, Instant committedAt, Lineage lineage) {}
