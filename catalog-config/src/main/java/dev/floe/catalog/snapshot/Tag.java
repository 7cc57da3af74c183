package dev.floe.catalog.snapshot;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.lineage.AuditBranch;
import java.time.Duration;
import java.util.Objects;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;

/**
 * Names a snapshot with a tag ({@code floe tag}), so snapshot expiry keeps it and its files, and it
 * can be read or rolled back to by name. A tag is never moved: an existing name is refused. With
 * {@link #retain} the tag itself may be dropped by expiry once the snapshot is that old. {@link
 * #apply()} checks and describes; {@link #commit()} creates it in one metadata commit.
 */
public final class Tag {
  private final Table table;
  private final String name;
  private final String tag;
  private Long snapshotId;

  /**
   * The longest --retain: anything longer is a typo, and from about 290 million years on it
   * overflows Iceberg's max-ref-age, a count of milliseconds.
   */
  static final Duration MAX_RETAIN = Duration.ofDays(365_250);

  private Duration retain;

  private Tag(Table table, String name, String tag) {
    this.table = table;
    this.name = name;
    this.tag = tag;
  }

  /**
   * @param table the table
   * @param name its name, for messages
   * @param tag the tag to create
   */
  public static Tag of(Table table, String name, String tag) {
    return new Tag(table, name, tag);
  }

  /** Tag this snapshot instead of the current one. */
  public Tag snapshot(long id) {
    this.snapshotId = id;
    return this;
  }

  /** Let snapshot expiry drop the tag once its snapshot is older than this (max-ref-age). */
  public Tag retain(Duration maxRefAge) {
    this.retain = maxRefAge;
    return this;
  }

  /**
   * What would be tagged; changes nothing.
   *
   * @throws InvalidInputException for a reserved or existing name, an unknown snapshot, an empty
   *     table, or a retention that is not positive
   */
  public TagPlan apply() {
    InvalidInputException.check(
        tag != null && !tag.isBlank(), "Cannot tag %s: the tag name is empty", name);
    // `floe untag t -x` reads -x as an option: a hint could not name such a tag.
    InvalidInputException.check(
        !tag.startsWith("-"),
        "Cannot tag %s as %s: a name starting with '-' reads as an option on floe's command line",
        name,
        tag);
    InvalidInputException.check(
        !tag.equals(SnapshotRef.MAIN_BRANCH),
        "Cannot tag %s as %s: main is the table's main branch",
        name,
        tag);
    InvalidInputException.check(
        !AuditBranch.is(tag),
        "Cannot tag %s as %s: names starting with %s are reserved for write-audit-publish"
            + " branches",
        name,
        tag,
        AuditBranch.PREFIX);
    InvalidInputException.check(
        !ScratchBranch.is(tag),
        "Cannot tag %s as %s: names starting with %s are reserved for the scratch branches of"
            + " `floe verify`",
        name,
        tag,
        ScratchBranch.PREFIX);
    InvalidInputException.check(
        !tag.startsWith(Rollback.TAG_PREFIX),
        "Cannot tag %s as %s: names starting with %s are reserved for the tags `floe rollback`"
            + " makes",
        name,
        tag,
        Rollback.TAG_PREFIX);
    InvalidInputException.check(
        retain == null
            || (retain.compareTo(Duration.ofMillis(1)) >= 0 && retain.compareTo(MAX_RETAIN) <= 0),
        "Cannot tag %s as %s with --retain %s: the retention must be at least a millisecond and"
            + " at most %s (1,000 years)",
        name,
        tag,
        text(retain),
        text(MAX_RETAIN));
    // Iceberg keeps a ref's max age in milliseconds: a finer retention would be cut, not kept.
    InvalidInputException.check(
        retain == null || retain.getNano() % 1_000_000 == 0,
        "Cannot tag %s as %s with --retain %s: Iceberg keeps a tag's retention in whole"
            + " milliseconds",
        name,
        tag,
        text(retain));
    SnapshotRef existing = table.refs().get(tag);
    if (existing != null && isThisTag(existing)) {
      // A rerun of the same command (a retried script): the tag is already what it asks for.
      return new TagPlan(name, TagPlan.Action.UNCHANGED, Tags.entry(table, tag, existing));
    }
    if (existing != null && existing.isTag() && existing.snapshotId() == targetId()) {
      throw InvalidInputException.of(
          "Cannot tag %s as %s%s: tag %s already names snapshot %d with --retain %s; a tag's"
              + " retention is never changed (remove it first with `floe untag %s %s`)",
          name,
          tag,
          retain == null ? " without --retain" : " with --retain " + text(retain),
          tag,
          existing.snapshotId(),
          existing.maxRefAgeMs() == null ? "none" : text(Duration.ofMillis(existing.maxRefAgeMs())),
          ShellWord.of(name),
          ShellWord.of(tag));
    }
    if (existing != null) {
      throw InvalidInputException.of(
          "Cannot tag %s as %s: a %s named %s already points at snapshot %d; tags are never moved"
              + " (remove it first with `floe untag %s %s`)",
          name,
          tag,
          existing.isBranch() ? "branch" : "tag",
          tag,
          existing.snapshotId(),
          ShellWord.of(name),
          ShellWord.of(tag));
    }
    Snapshot snapshot = target();
    SnapshotRef ref =
        SnapshotRef.tagBuilder(snapshot.snapshotId())
            .maxRefAgeMs(retain == null ? null : retain.toMillis())
            .build();
    return new TagPlan(name, TagPlan.Action.CREATE, Tags.entry(table, tag, ref));
  }

  /**
   * Whether {@code existing} is the tag this command would create: a tag of the snapshot it names,
   * with the same retention.
   */
  private boolean isThisTag(SnapshotRef existing) {
    // Checked above to be whole milliseconds within MAX_RETAIN: toMillis() is exact here.
    Long wanted = retain == null ? null : retain.toMillis();
    return existing.isTag()
        && Objects.equals(existing.maxRefAgeMs(), wanted)
        && existing.snapshotId() == targetId();
  }

  /** The snapshot this command names: --snapshot, else the current one (-1 for none). */
  private long targetId() {
    if (snapshotId != null) {
      return snapshotId;
    }
    return table.currentSnapshot() == null ? -1 : table.currentSnapshot().snapshotId();
  }

  /** Creates the tag (and its max-ref-age) in one metadata commit; an unchanged one is left. */
  public TagPlan commit() {
    TagPlan[] plan = new TagPlan[1];
    RefCommit.commit(
        table,
        "tag " + name + " as " + tag,
        base -> {
          // Planned again on every attempt: a racing command may have made this very tag.
          plan[0] = apply();
          if (plan[0].action() != TagPlan.Action.CREATE) {
            return null;
          }
          SnapshotRef ref =
              SnapshotRef.tagBuilder(plan[0].tag().snapshotId())
                  .maxRefAgeMs(retain == null ? null : retain.toMillis())
                  .build();
          return TableMetadata.buildFrom(base).setRef(tag, ref).build();
        });
    return plan[0];
  }

  /** A duration as written: P30D for whole days (Duration's own text would be PT720H). */
  private static String text(Duration duration) {
    if (duration == null) {
      return "none";
    }
    return duration.getNano() == 0 && duration.getSeconds() % 86_400 == 0
        ? "P" + duration.toDays() + "D"
        : duration.toString();
  }

  private Snapshot target() {
    if (snapshotId == null) {
      Snapshot current = table.currentSnapshot();
      InvalidInputException.check(
          current != null, "Cannot tag %s as %s: the table has no snapshots yet", name, tag);
      return current;
    }
    Snapshot snapshot = table.snapshot(snapshotId);
    InvalidInputException.check(
        snapshot != null,
        "Cannot tag %s as %s at snapshot %d: no such snapshot (expired, or of another table;"
            + " see `floe snapshots %s`)",
        name,
        tag,
        snapshotId,
        ShellWord.of(name));
    return snapshot;
  }
}
