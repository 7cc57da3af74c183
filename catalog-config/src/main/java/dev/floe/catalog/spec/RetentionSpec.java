package dev.floe.catalog.spec;

import java.time.Duration;

/**
 * Which snapshots snapshot expiry keeps. At least one of the two limits is set; a snapshot is kept
 * while either limit keeps it.
 *
 * @param keepLast how many of the newest snapshots to keep, or null when not limited by count
 * @param maxAge how old a snapshot may get before it expires, or null when not limited by age
 */
public record RetentionSpec(Integer keepLast, Duration maxAge) {

  public RetentionSpec {
    if (keepLast == null && maxAge == null) {
      throw new IllegalArgumentException("Cannot create a retention: set keep_last or max_age");
    }
  }
}
