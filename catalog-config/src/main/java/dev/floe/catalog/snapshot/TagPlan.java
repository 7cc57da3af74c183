package dev.floe.catalog.snapshot;

/**
 * What {@code floe tag} or {@code floe untag} does, before or after it is done.
 *
 * @param table the table's name
 * @param action whether the tag is created or removed
 * @param tag the tag as it will be (create) or as it was (remove)
 */
public record TagPlan(String table, Action action, RefEntry tag) {

  /** The two changes a tag command makes. */
  public enum Action {
    CREATE,
    REMOVE
  }
}
