package dev.floe.catalog.maintain;

import java.time.Duration;
import java.time.Instant;

/**
 * A file under the table's location that nothing in the table references.
 *
 * @param location where it is, as the storage listing spelled it
 * @param sizeBytes its size
 * @param createdAt when the storage says it was written (last modified)
 * @param age how old that is by the clock of the plan
 */
public record OrphanFile(String location, long sizeBytes, Instant createdAt, Duration age) {}
