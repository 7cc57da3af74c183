package dev.floe.flink.maintain;

import dev.floe.catalog.error.ExitCodes;
import java.util.List;

/**
 * What {@code floe maintain --compact} did (or, for a dry run, would do), slice by slice.
 *
 * @param table the table
 * @param dryRun true when nothing was run or committed on purpose
 * @param baseSnapshotId the snapshot the files were planned from (null for a table without any)
 * @param targetFileSizeBytes the target size; a file below 3/4 of it counted as small
 * @param slices one outcome per slice, in the operator's order
 * @param elapsedMillis wall time, planning to last commit
 */
public record CompactionResult(
    String table,
    boolean dryRun,
    Long baseSnapshotId,
    long targetFileSizeBytes,
    List<SliceCompaction> slices,
    long elapsedMillis) {

  public CompactionResult {
    slices = List.copyOf(slices);
  }

  /** True when at least one slice failed (nothing was committed for it). */
  public boolean anyFailed() {
    return slices.stream().anyMatch(SliceCompaction::failed);
  }

  /**
   * The process exit code: 0 when no slice failed, else the highest exit code among the failed
   * slices — 5 (commit state unknown: look before rerunning) over 4 (a concurrent commit touched
   * the slice: rerun to compact the current files) over 3 (the rewritten rows did not hash equal)
   * over 1. The other slices' commits stand either way.
   */
  public int exitCode() {
    return slices.stream().mapToInt(SliceCompaction::exitCode).max().orElse(ExitCodes.OK);
  }

  /** The slices' files before, summed. */
  public FileStats before() {
    return slices.stream().map(SliceCompaction::before).reduce(FileStats.NONE, FileStats::plus);
  }

  /** The slices' files after (dry run: expected), summed. */
  public FileStats after() {
    return slices.stream().map(SliceCompaction::after).reduce(FileStats.NONE, FileStats::plus);
  }
}
