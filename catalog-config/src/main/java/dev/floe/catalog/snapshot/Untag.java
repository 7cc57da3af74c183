package dev.floe.catalog.snapshot;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.AuditBranch;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;

/**
 * Removes a tag ({@code floe untag}); the snapshot stays until snapshot expiry drops it. Only tags:
 * branches (main, audit branches) are refused. {@link #apply()} checks and describes; {@link
 * #commit()} removes it in one metadata commit.
 */
public final class Untag {
  private final Table table;
  private final String name;
  private final String tag;

  private Untag(Table table, String name, String tag) {
    this.table = table;
    this.name = name;
    this.tag = tag;
  }

  /**
   * @param table the table
   * @param name its name, for messages
   * @param tag the tag to remove
   */
  public static Untag of(Table table, String name, String tag) {
    return new Untag(table, name, tag);
  }

  /**
   * What would be removed; changes nothing.
   *
   * @throws InvalidInputException for an unknown name or a branch
   */
  public TagPlan apply() {
    SnapshotRef ref = table.refs().get(tag);
    InvalidInputException.check(
        ref != null,
        "Cannot untag %s from %s: no tag named %s (see `floe tags %s`)",
        tag,
        name,
        tag,
        name);
    if (ref.isBranch()) {
      if (tag.equals(SnapshotRef.MAIN_BRANCH)) {
        throw InvalidInputException.of(
            "Cannot untag %s from %s: main is the table's main branch, not a tag", tag, name);
      }
      if (AuditBranch.is(tag)) {
        throw InvalidInputException.of(
            "Cannot untag %s from %s: it is an audit branch, not a tag; use `floe discard` to drop"
                + " it",
            tag, name);
      }
      throw InvalidInputException.of(
          "Cannot untag %s from %s: it is a branch, not a tag", tag, name);
    }
    return new TagPlan(name, TagPlan.Action.REMOVE, Tags.entry(table, tag, ref));
  }

  /** Removes the tag in one metadata commit. */
  public TagPlan commit() {
    TagPlan plan = apply();
    table.manageSnapshots().removeTag(tag).commit();
    return plan;
  }
}
