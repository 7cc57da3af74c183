package dev.floe.catalog.maintain;

import java.time.Instant;

/**
 * A snapshot snapshot expiry removes.
 *
 * @param snapshotId its id
 * @param committedAt its commit time
 * @param runId the Floe run that committed it, or null
 */
public record ExpiredSnapshot(long snapshotId, Instant committedAt, String runId) {}
