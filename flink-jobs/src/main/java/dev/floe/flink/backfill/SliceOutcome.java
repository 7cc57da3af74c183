package dev.floe.flink.backfill;

/**
 * One slice's line of the backfill summary.
 *
 * @param value the slice value
 * @param status how it ended
 * @param rows rows the run wrote (for a skipped slice: rows its earlier load recorded), or -1
 * @param snapshotId the snapshot holding the slice's content, or null
 * @param contentHash the content hash the run computed, or null
 * @param elapsedMillis wall time of the slice's run, 0 when it did not run
 * @param error why it failed, or null
 * @param exitCode the exit code its failure maps to, or 0
 * @param effects what became of the job's effects for this slice (sent, skipped, failed), or null
 *     when the job has none
 */
public record SliceOutcome(
    String value,
    SliceStatus status,
    long rows,
    Long snapshotId,
    String contentHash,
    long elapsedMillis,
    String error,
    int exitCode,
    String effects) {

  public static SliceOutcome notRun(String value, SliceStatus status) {
    return new SliceOutcome(value, status, -1, null, null, 0, null, 0, null);
  }

  public SliceOutcome withEffects(String value) {
    return new SliceOutcome(
        this.value, status, rows, snapshotId, contentHash, elapsedMillis, error, exitCode, value);
  }

  public boolean failed() {
    return status == SliceStatus.FAILED;
  }
}
