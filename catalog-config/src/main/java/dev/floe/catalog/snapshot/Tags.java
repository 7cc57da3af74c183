package dev.floe.catalog.snapshot;

import dev.floe.catalog.lineage.AuditBranch;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.maintain.RefAges;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;

/**
 * Lists a table's tags and branches ({@code floe tags}); {@link Tag} and {@link Untag} change them.
 * Metadata only.
 */
public final class Tags {

  private Tags() {}

  /** Every ref of the table: main first, then the other branches, then the tags, each by name. */
  public static List<RefEntry> list(Table table) {
    List<RefEntry> entries = new ArrayList<>();
    for (Map.Entry<String, SnapshotRef> ref : table.refs().entrySet()) {
      entries.add(entry(table, ref.getKey(), ref.getValue()));
    }
    entries.sort(
        Comparator.comparing((RefEntry e) -> e.role() != RefEntry.Role.MAIN)
            .thenComparing(RefEntry::kind, Comparator.reverseOrder())
            .thenComparing(RefEntry::name));
    return entries;
  }

  /**
   * The entry of a ref of {@code table}; its max-ref-age is the one snapshot expiry applies (the
   * ref's own, else the table's {@code history.expire.max-ref-age-ms}).
   */
  static RefEntry entry(Table table, String name, SnapshotRef ref) {
    return entry(
        name,
        ref,
        table.snapshot(ref.snapshotId()),
        RefAges.maxRefAgeMs(table.properties(), name, ref));
  }

  /** The entry of a ref whose snapshot is given (as an earlier metadata version had it). */
  static RefEntry entry(String name, SnapshotRef ref, Snapshot snapshot) {
    return entry(name, ref, snapshot, ref.maxRefAgeMs());
  }

  private static RefEntry entry(String name, SnapshotRef ref, Snapshot snapshot, Long maxRefAgeMs) {
    RefEntry.Kind kind = ref.isBranch() ? RefEntry.Kind.BRANCH : RefEntry.Kind.TAG;
    return new RefEntry(
        name,
        kind,
        role(name, kind),
        ref.snapshotId(),
        snapshot == null ? 0 : snapshot.timestampMillis(),
        millis(maxRefAgeMs),
        ref.minSnapshotsToKeep(),
        millis(ref.maxSnapshotAgeMs()),
        snapshot == null ? java.util.Optional.empty() : Lineage.readable(snapshot.summary()));
  }

  static RefEntry.Role role(String name, RefEntry.Kind kind) {
    if (kind == RefEntry.Kind.BRANCH && name.equals(SnapshotRef.MAIN_BRANCH)) {
      return RefEntry.Role.MAIN;
    }
    if (kind == RefEntry.Kind.BRANCH && AuditBranch.is(name)) {
      return RefEntry.Role.AUDIT;
    }
    if (kind == RefEntry.Kind.BRANCH && ScratchBranch.is(name)) {
      return RefEntry.Role.SCRATCH;
    }
    if (kind == RefEntry.Kind.TAG && name.startsWith(Rollback.TAG_PREFIX)) {
      return RefEntry.Role.ROLLBACK;
    }
    return RefEntry.Role.USER;
  }

  private static Duration millis(Long value) {
    return value == null ? null : Duration.ofMillis(value);
  }
}
