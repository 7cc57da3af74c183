package dev.floe.catalog.snapshot;

/**
 * What {@code floe tag} or {@code floe untag} does, before or after it is done.
 *
 * @param table the table's name
 * @param action whether the tag is created or removed, or already is what {@code floe tag} asks
 * @param tag the tag as it will be (create) or as it was (remove, already removed)
 */
public record TagPlan(String table, Action action, RefEntry tag) {

  /** What a tag command does. */
  public enum Action {
    CREATE,
    REMOVE,
    /** The tag already names that snapshot with that retention: a rerun, nothing to do. */
    UNCHANGED,
    /**
     * The tag is gone and one of the table's recent metadata versions had it: a rerun of {@code
     * floe untag}, nothing to do. {@link TagPlan#tag()} is the tag as that version had it.
     */
    ALREADY_REMOVED
  }
}
