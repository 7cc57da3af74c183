package dev.floe.catalog.report;

import dev.floe.catalog.lineage.AuditBranch;
import dev.floe.catalog.snapshot.Rollback;
import org.apache.iceberg.SnapshotRef;

/**
 * A branch or tag pointing at a snapshot, with what Floe uses it for.
 *
 * @param name the ref's name
 * @param kind what it is
 */
public record RefMark(String name, Kind kind) {

  /** What a ref is, as the timeline shows it. */
  public enum Kind {
    MAIN,
    AUDIT_BRANCH,
    BRANCH,
    ROLLBACK_TAG,
    TAG
  }

  /** Classifies a table ref by its name and type. */
  public static RefMark of(String name, SnapshotRef ref) {
    Kind kind;
    if (ref.isBranch()) {
      kind =
          SnapshotRef.MAIN_BRANCH.equals(name)
              ? Kind.MAIN
              : AuditBranch.is(name) ? Kind.AUDIT_BRANCH : Kind.BRANCH;
    } else {
      kind = name.startsWith(Rollback.TAG_PREFIX) ? Kind.ROLLBACK_TAG : Kind.TAG;
    }
    return new RefMark(name, kind);
  }

  public boolean isBranch() {
    return kind == Kind.MAIN || kind == Kind.AUDIT_BRANCH || kind == Kind.BRANCH;
  }
}
