package dev.floe.catalog.effects;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One row of the outbox table.
 *
 * @param key run key and effect name
 * @param runId the run that committed what the effect announces
 * @param job the job's name (or what else fired the effect)
 * @param target the table the effect is about
 * @param slice the slice label
 * @param snapshotId the snapshot the effect announces, or null
 * @param url the URL template ({@code ${env:NAME}} unresolved)
 * @param headers the header templates ({@code ${env:NAME}} unresolved, never a secret value)
 * @param body the filled-in JSON body
 * @param maxAttempts POSTs per delivery
 * @param status where the effect stands
 * @param attempts POSTs made so far, over all deliveries
 * @param lastError why the last POST failed, or null
 * @param httpStatus the last HTTP status received, or null
 * @param createdAt when the row was recorded
 * @param updatedAt when it last changed
 * @param sentAt when it was delivered, or null
 * @param claimedBy the run id of the process sending it, or null
 * @param leaseUntil until when that claim holds, or null; after it, another run may send
 */
public record OutboxEntry(
    OutboxKey key,
    String runId,
    String job,
    String target,
    String slice,
    Long snapshotId,
    String url,
    Map<String, String> headers,
    String body,
    int maxAttempts,
    EffectStatus status,
    int attempts,
    String lastError,
    Integer httpStatus,
    Instant createdAt,
    Instant updatedAt,
    Instant sentAt,
    String claimedBy,
    Instant leaseUntil) {

  public OutboxEntry {
    headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
  }

  /** A new row in {@code status} (pending, or skipped when effects are off). */
  public static OutboxEntry recorded(
      OutboxKey key,
      String runId,
      String job,
      String target,
      String slice,
      Long snapshotId,
      String url,
      Map<String, String> headers,
      String body,
      int maxAttempts,
      EffectStatus status,
      Instant now) {
    return new OutboxEntry(
        key,
        runId,
        job,
        target,
        slice,
        snapshotId,
        url,
        headers,
        body,
        maxAttempts,
        status,
        0,
        null,
        null,
        now,
        now,
        null,
        null,
        null);
  }
}
