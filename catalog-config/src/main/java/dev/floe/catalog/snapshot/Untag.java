package dev.floe.catalog.snapshot;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.lineage.AuditBranch;
import java.util.List;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;

/**
 * Removes a tag ({@code floe untag}); the snapshot stays until snapshot expiry drops it. Only tags:
 * branches (main, audit branches) are refused. A tag that one of the table's last {@value
 * #RECENT_VERSIONS} metadata versions had is already removed: a retried untag is a no-op ({@link
 * TagPlan.Action#ALREADY_REMOVED}); a name none of them had is refused. {@link #apply()} checks and
 * describes; {@link #commit()} removes it in one metadata commit.
 */
public final class Untag {
  /** How many earlier metadata versions are read to tell a removed tag from a mistyped name. */
  public static final int RECENT_VERSIONS = 10;

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
    if (ref == null) {
      RecentMetadata.Search search = RecentMetadata.lastRef(table, List.of(tag), RECENT_VERSIONS);
      RecentMetadata.Earlier removed =
          search
              .found()
              .filter(earlier -> earlier.ref().isTag())
              .orElseThrow(
                  () ->
                      InvalidInputException.of(
                          "Cannot untag %s from %s: no tag named %s, nor in the %d earlier"
                              + " metadata version(s) read (see `floe tags %s`)",
                          tag, name, tag, search.versionsRead(), ShellWord.of(name)));
      return new TagPlan(
          name, TagPlan.Action.ALREADY_REMOVED, Tags.entry(tag, removed.ref(), removed.snapshot()));
    }
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

  /** Removes the tag in one metadata commit; nothing when it is already removed. */
  public TagPlan commit() {
    TagPlan[] plan = new TagPlan[1];
    RefCommit.commit(
        table,
        "untag " + tag + " from " + name,
        base -> {
          // Planned again on every attempt: another untag of the same tag may have come first.
          plan[0] = apply();
          return plan[0].action() == TagPlan.Action.REMOVE
              ? TableMetadata.buildFrom(base).removeRef(tag).build()
              : null;
        });
    return plan[0];
  }
}
