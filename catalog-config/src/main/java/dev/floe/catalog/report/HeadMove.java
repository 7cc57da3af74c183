package dev.floe.catalog.report;

import java.time.Instant;
import java.util.List;

/**
 * A move of main's current snapshot other than a commit on top of it, read from the table
 * metadata's snapshot log: a rollback, the undo of one, or a fast-forward.
 *
 * @param at when the move was committed
 * @param fromSnapshotId the snapshot that was current before
 * @param toSnapshotId the snapshot that became current
 * @param direction where the head went
 * @param tags the {@code floe-before-rollback-<n>} tags that keep {@code fromSnapshotId}
 */
public record HeadMove(
    Instant at, long fromSnapshotId, long toSnapshotId, Direction direction, List<String> tags) {

  public HeadMove {
    tags = List.copyOf(tags);
  }

  /** Where the head went, relative to where it was. */
  public enum Direction {
    /** To an ancestor: a rollback. */
    BACK("rollback"),
    /** To a descendant: undoing a rollback, or a fast-forward. */
    FORWARD("moved forward"),
    /** To a snapshot on another line (or history that expired): a rollback to a non-ancestor. */
    ASIDE("moved to another line");

    private final String text;

    Direction(String text) {
      this.text = text;
    }

    public String text() {
      return text;
    }
  }
}
