package dev.floe.catalog.effects;

import java.time.Duration;

/** Waits between delivery attempts; injected, so tests never sleep for real. */
@FunctionalInterface
public interface Sleeper {
  void sleep(Duration duration) throws InterruptedException;

  /** Thread.sleep: what the CLI uses. */
  static Sleeper real() {
    return duration -> Thread.sleep(duration.toMillis());
  }
}
