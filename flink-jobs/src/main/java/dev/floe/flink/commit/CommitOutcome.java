package dev.floe.flink.commit;

import java.io.Serializable;

/**
 * How a run ended when it did not fail.
 *
 * @param status COMMITTED (a new snapshot), NO_OP (the slice already held this content) or DRY_RUN
 *     (nothing committed on purpose; the detail says what a real run would do)
 * @param snapshotId the new snapshot, or the current one for a no-op
 * @param rows overwrite and swap: the rows of the new slice (or table); merge and insert-if-absent:
 *     the rows of the batch, i.e. the source reduced to one row per key
 * @param contentHash the content hash of those rows (what lineage records as {@code
 *     floe.content-hash})
 * @param attempts commit attempts made (more than 1 after a conflict with an older run)
 * @param detail a sentence for the operator
 */
public record CommitOutcome(
    Status status, Long snapshotId, long rows, String contentHash, int attempts, String detail)
    implements Serializable {

  public enum Status {
    COMMITTED("committed"),
    NO_OP("no-op"),
    DRY_RUN("dry-run");

    private final String text;

    Status(String text) {
      this.text = text;
    }

    /** How the CLI and --json name the status. */
    public String text() {
      return text;
    }
  }
}
