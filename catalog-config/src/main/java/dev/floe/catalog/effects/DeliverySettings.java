package dev.floe.catalog.effects;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * What a delivery depends on besides the outbox: time, waiting, the environment that holds header
 * secrets, and the HTTP limits. Injected; only the CLI takes {@link #system()}.
 *
 * @param clock the outbox's timestamps and claim leases
 * @param sleeper waits between attempts
 * @param environment resolves {@code ${env:NAME}} in URLs and headers
 * @param backoff the waits between attempts
 * @param timeout how long one POST may take as a whole: connecting, the answer's status and the
 *     rest of the answer
 */
public record DeliverySettings(
    Clock clock,
    Sleeper sleeper,
    Map<String, String> environment,
    Backoff backoff,
    Duration timeout) {
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  public DeliverySettings {
    environment = Map.copyOf(environment);
  }

  public static DeliverySettings of(Clock clock, Sleeper sleeper, Map<String, String> environment) {
    return new DeliverySettings(clock, sleeper, environment, Backoff.DEFAULT, DEFAULT_TIMEOUT);
  }

  /** The system clock, real sleeps and the process environment: the CLI edge only. */
  public static DeliverySettings system() {
    return of(Clock.systemUTC(), Sleeper.real(), System.getenv());
  }

  @Override
  public String toString() {
    // The environment holds secrets: name nothing of it.
    return "DeliverySettings{clock="
        + clock
        + ", backoff="
        + backoff
        + ", timeout="
        + timeout
        + "}";
  }
}
