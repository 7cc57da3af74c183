package dev.floe.catalog.window;

import java.util.Optional;

/**
 * Rows of a slice that one source received after the snapshot a run read.
 *
 * @param source the source table's name
 * @param readSnapshotId the snapshot the run read (the newest it may have read)
 * @param upToSnapshotId the source snapshot the count goes up to, or null when there is none
 * @param rows the exact count, or null when it cannot be known
 * @param unknownReason why the count cannot be known, or null when it is exact
 */
public record LateRowCount(
    String source, long readSnapshotId, Long upToSnapshotId, Long rows, String unknownReason) {

  public LateRowCount {
    if ((rows == null) == (unknownReason == null)) {
      throw new IllegalArgumentException(
          "Cannot describe late rows of " + source + ": give either a count or a reason");
    }
  }

  public static LateRowCount exact(String source, long read, Long upTo, long rows) {
    return new LateRowCount(source, read, upTo, rows, null);
  }

  public static LateRowCount unknown(String source, long read, Long upTo, String reason) {
    return new LateRowCount(source, read, upTo, null, reason);
  }

  public boolean known() {
    return rows != null;
  }

  /** The count when known. */
  public Optional<Long> count() {
    return Optional.ofNullable(rows);
  }

  /** E.g. {@code sales.staging_orders: 3 rows after snapshot 123} or {@code …: unknown (…)}. */
  public String describe() {
    return source
        + ": "
        + (known()
            ? rows + (rows == 1 ? " row" : " rows") + " after snapshot " + readSnapshotId
            : "unknown (" + unknownReason + ")");
  }
}
