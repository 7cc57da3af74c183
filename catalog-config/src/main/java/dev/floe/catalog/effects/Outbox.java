package dev.floe.catalog.effects;

import dev.floe.catalog.error.InvalidInputException;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Records effects and sends them at most once per {@link OutboxKey}: record the row, claim it in
 * one statement, POST it (with backoff between failed attempts), then mark it sent or failed. A
 * process that dies after recording leaves a pending row the next run claims; one that dies while
 * sending leaves a claim that lapses after {@link #LEASE}, and then the next run sends it (the
 * receiver sees the same {@code Idempotency-Key} if the first POST did arrive).
 */
public final class Outbox implements AutoCloseable {
  /** How long a claim holds without news from its process; covers one POST plus one wait. */
  public static final Duration LEASE = Duration.ofMinutes(5);

  /** How a row is recorded before it is sent. */
  public enum Recording {
    /**
     * A run just committed: record the effect, or re-arm an unsent one (failed, skipped) of the
     * same key for this commit. A sent effect stays sent.
     */
    COMMIT,
    /**
     * A rerun found its own run key's commit still current: record the effect only when it is not
     * in the outbox at all (the process that committed died before recording it).
     */
    RECOVERY
  }

  private final OutboxStore store;
  private final DeliverySettings settings;
  private final WebhookPost webhook;
  private final String claimant = "floe-" + UUID.randomUUID();

  private Outbox(OutboxStore store, DeliverySettings settings) {
    this.store = store;
    this.settings = settings;
    this.webhook = new WebhookPost(settings.timeout(), settings.environment());
  }

  /** Opens the outbox (creating its table when needed). */
  public static Outbox open(OutboxLocation location, DeliverySettings settings) {
    return new Outbox(OutboxStore.open(location), settings);
  }

  /** Records {@code entry} as {@code recording} says, then sends it if it is pending. */
  public Delivery deliver(OutboxEntry entry, Recording recording) {
    if (recording == Recording.COMMIT) {
      store.insertOrRearm(entry, now());
    } else {
      store.insertIfAbsent(entry);
    }
    return send(entry.key());
  }

  /** Records a skipped effect (effects off), unless its key is in the outbox already. */
  public Delivery skip(OutboxEntry entry) {
    store.insertIfAbsent(entry);
    OutboxEntry current = store.find(entry.key()).orElseThrow();
    return current.status() == EffectStatus.SKIPPED
        ? Delivery.of(current, Delivery.Outcome.SKIPPED, 0)
        : settled(current);
  }

  /** An operator's retry: makes a failed or skipped effect pending again, then sends it. */
  public Delivery retry(OutboxKey key) {
    store.reopen(key, now());
    return send(key);
  }

  /**
   * What {@link #retry} of {@code entry} would report, sending nothing: {@code WOULD_FAIL} when it
   * cannot be sent as it stands (an environment variable it names is unset, a header value HTTP
   * refuses), {@code IN_FLIGHT} while another process holds its claim, else {@code WOULD_SEND}.
   */
  public Delivery wouldRetry(OutboxEntry entry) {
    try {
      webhook.request(entry);
    } catch (InvalidInputException e) {
      return new Delivery(
          entry.key(), entry.url(), Delivery.Outcome.WOULD_FAIL, 0, null, e.getMessage());
    }
    if (entry.status() == EffectStatus.PENDING
        && entry.leaseUntil() != null
        && entry.leaseUntil().isAfter(now())) {
      return settled(entry);
    }
    return new Delivery(entry.key(), entry.url(), Delivery.Outcome.WOULD_SEND, 0, null, null);
  }

  /** The effect filed under {@code key}, if any. */
  public Optional<OutboxEntry> find(OutboxKey key) {
    return store.find(key);
  }

  /** The outbox's entries; see {@link OutboxStore#list}. */
  public List<OutboxEntry> list(String target, Set<EffectStatus> statuses) {
    return store.list(target, statuses);
  }

  /**
   * Claims a pending row and POSTs it; reports how an unclaimable row stands. Whatever goes wrong
   * while sending, the row ends failed, not claimed: an exception's message is kept only when it is
   * one of ours (which names variables, never values), since the HTTP client's own messages quote
   * header values.
   */
  public Delivery send(OutboxKey key) {
    Instant claimedAt = now();
    if (!store.claim(key, claimant, claimedAt, claimedAt.plus(LEASE))) {
      return settled(
          store
              .find(key)
              .orElseThrow(() -> new IllegalStateException("Cannot find effect " + key)));
    }
    OutboxEntry entry = store.find(key).orElseThrow();
    int[] attempts = {0};
    try {
      return post(entry, attempts);
    } catch (InvalidInputException e) {
      // A missing variable, a bad URL or header does not get better by waiting: fail at once.
      return fail(entry, attempts[0], e.getMessage());
    } catch (RuntimeException e) {
      return fail(
          entry,
          attempts[0],
          String.format(
              "Cannot send effect %s: %s (its message is withheld: it may quote a header value)",
              key.effect(), e.getClass().getName()));
    }
  }

  private Delivery post(OutboxEntry entry, int[] attempts) {
    OutboxKey key = entry.key();
    HttpRequest request = webhook.request(entry);
    List<String> secrets = webhook.secrets(entry);
    WebhookPost.Result result = null;
    for (int attempt = 1; attempt <= entry.maxAttempts(); attempt++) {
      try {
        attempts[0] = attempt;
        result = webhook.post(request, secrets);
        Instant now = now();
        if (result.ok()) {
          store.markSent(key, claimant, result.httpStatus(), now);
          return new Delivery(
              key, entry.url(), Delivery.Outcome.SENT, attempt, result.httpStatus(), null);
        }
        store.recordFailedAttempt(
            key, claimant, result.error(), result.httpStatus(), now, now.plus(LEASE));
        if (attempt < entry.maxAttempts()) {
          settings.sleeper().sleep(settings.backoff().delay(attempt));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        store.release(key, claimant, now());
        return new Delivery(
            key,
            entry.url(),
            Delivery.Outcome.INTERRUPTED,
            attempt,
            result == null ? null : result.httpStatus(),
            result == null ? "interrupted" : result.error());
      }
    }
    store.markFailed(key, claimant, now());
    return new Delivery(
        key,
        entry.url(),
        Delivery.Outcome.FAILED,
        entry.maxAttempts(),
        result.httpStatus(),
        result.error());
  }

  /**
   * Ends the claim as failed with {@code error}. An attempt in flight when the exception came is
   * counted; when none started (the request could not be built: no POST), none is.
   */
  private Delivery fail(OutboxEntry entry, int attemptsMade, String error) {
    OutboxKey key = entry.key();
    Instant now = now();
    if (attemptsMade > 0) {
      store.recordFailedAttempt(key, claimant, error, null, now, now.plus(LEASE));
    } else {
      store.recordError(key, claimant, error, now);
    }
    store.markFailed(key, claimant, now);
    return new Delivery(key, entry.url(), Delivery.Outcome.FAILED, attemptsMade, null, error);
  }

  @Override
  public void close() {
    store.close();
  }

  private Delivery settled(OutboxEntry entry) {
    Delivery.Outcome outcome =
        switch (entry.status()) {
          case SENT -> Delivery.Outcome.ALREADY_SENT;
          case FAILED -> Delivery.Outcome.FAILED_EARLIER;
          case SKIPPED -> Delivery.Outcome.SKIPPED;
          case PENDING -> Delivery.Outcome.IN_FLIGHT;
        };
    if (outcome == Delivery.Outcome.IN_FLIGHT && entry.leaseUntil() != null) {
      return new Delivery(
          entry.key(),
          entry.url(),
          outcome,
          0,
          entry.httpStatus(),
          entry.leaseUntil().isAfter(now())
              ? "claimed by another process until " + entry.leaseUntil()
              : "its sender's claim lapsed at " + entry.leaseUntil() + "; a retry sends it");
    }
    return Delivery.of(entry, outcome, 0);
  }

  private Instant now() {
    return settings.clock().instant();
  }
}
