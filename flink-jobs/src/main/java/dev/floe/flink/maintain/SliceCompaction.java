package dev.floe.flink.maintain;

import dev.floe.catalog.error.ExitCodes;
import java.io.Serializable;
import java.util.Map;

/**
 * How compaction ended for one slice.
 *
 * @param slice the slice as the operator typed it
 * @param label the slice as lineage records it, e.g. {@code order_date=[2026-10-03,2026-10-04)}
 * @param status what happened
 * @param before the slice's data files before (at the base snapshot)
 * @param rewritten the small files chosen for rewriting (dry run: that would be rewritten)
 * @param written the files written in their place; {@link FileStats#NONE} unless compacted
 * @param expectedOutputFiles how many files of the target size the rewritten bytes fill
 * @param after the slice's data files after the commit; for a dry run, the expected numbers
 *     (rewritten files replaced by {@code expectedOutputFiles} files of their rows less the deleted
 *     ones, and of {@link PlannedSlice#expectedOutputBytes() their bytes less the overhead of the
 *     files saved}, an estimate); for every other outcome, {@code before}
 * @param removedDeleteFiles delete files the commit removed (dry run: would remove) because they
 *     apply to no data file once the rewritten files are replaced; 0 when nothing is committed
 * @param removedByManifest per manifest of the base snapshot, how many of the files the commit
 *     removed (dry run: would remove) it held (see {@link PlannedSlice#removedByManifest()}); empty
 *     when nothing is committed
 * @param snapshotId the compaction's snapshot, or null when nothing was committed
 * @param runId the compaction commit's {@code floe.run-id} (set even when nothing was committed)
 * @param exitCode 0, or the exit code this slice's failure maps to ({@link ExitCodes})
 * @param detail one sentence for the operator
 */
public record SliceCompaction(
    String slice,
    String label,
    Status status,
    FileStats before,
    FileStats rewritten,
    FileStats written,
    int expectedOutputFiles,
    FileStats after,
    int removedDeleteFiles,
    Map<String, Integer> removedByManifest,
    Long snapshotId,
    String runId,
    int exitCode,
    String detail)
    implements Serializable {

  public SliceCompaction {
    removedByManifest = Map.copyOf(removedByManifest);
  }

  public enum Status {
    /** One new snapshot replaced the small files; the slice's rows are unchanged. */
    COMPACTED("compacted"),
    /** No partition of the slice has two or more small files: nothing committed. */
    NOTHING_TO_COMPACT("nothing to compact"),
    /** Dry run: what a real run would rewrite; nothing written or committed. */
    WOULD_COMPACT("would compact"),
    /** Nothing committed for this slice (and its new files deleted); see the exit code. */
    FAILED("failed"),
    /** Detached job ({@code flink run -d}): the outcome is in the job's log, not here. */
    SUBMITTED("submitted");

    private final String text;

    Status(String text) {
      this.text = text;
    }

    /** How text output and {@code --json} name the status. */
    public String text() {
      return text;
    }
  }

  /**
   * A slice that committed nothing ({@link Status#FAILED}, {@link Status#SUBMITTED}): its files
   * stay those of {@code before}, and its compaction's run id is reported.
   */
  static SliceCompaction uncommitted(
      PlannedSlice slice, Status status, int exitCode, String detail) {
    return new SliceCompaction(
        slice.value(),
        slice.slice().label(),
        status,
        slice.before(),
        slice.rewritten(),
        FileStats.NONE,
        slice.expectedOutputs(),
        slice.before(),
        0,
        Map.of(),
        null,
        slice.runId(),
        exitCode,
        detail);
  }

  public boolean failed() {
    return status == Status.FAILED;
  }
}
