package dev.floe.catalog.effects;

import java.time.Duration;

/**
 * Exponential backoff between the POSTs of one delivery: {@code initial}, twice that, four times
 * that, ... never more than {@code max}.
 */
public record Backoff(Duration initial, Duration max) {
  public static final Backoff DEFAULT = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30));

  /** The wait after the {@code failedAttempts}-th failed POST (1-based). */
  public Duration delay(int failedAttempts) {
    Duration delay = initial;
    for (int i = 1; i < failedAttempts && delay.compareTo(max) < 0; i++) {
      delay = delay.multipliedBy(2);
    }
    return delay.compareTo(max) > 0 ? max : delay;
  }
}
