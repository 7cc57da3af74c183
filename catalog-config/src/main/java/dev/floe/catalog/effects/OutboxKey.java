package dev.floe.catalog.effects;

/**
 * The outbox's primary key: an effect is sent at most once per key.
 *
 * @param runKey the run key of the commit (or any other key, e.g. a backfill's id)
 * @param effect the effect's name
 */
public record OutboxKey(String runKey, String effect) {

  /** What every POST carries as {@code Idempotency-Key}, so a receiver can drop a duplicate. */
  public String idempotencyKey() {
    return runKey + "/" + effect;
  }

  @Override
  public String toString() {
    return idempotencyKey();
  }
}
