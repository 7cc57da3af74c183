package dev.floe.flink.backfill;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.FloeException;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.job.JobFailures;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.RunResult;
import dev.floe.flink.job.SliceJob;

/** Runs one slice of a backfill through the normal run path and turns its end into a line. */
final class BackfillSlices {

  private BackfillSlices() {}

  /** Runs the slice; a failure becomes a FAILED line, never an exception. */
  static SliceOutcome run(RunRequest request) {
    long started = System.nanoTime(); // for the summary only
    try {
      RunResult result = SliceJob.run(request);
      CommitOutcome outcome = result.outcome();
      SliceStatus status =
          outcome.status() == CommitOutcome.Status.COMMITTED
              ? SliceStatus.COMMITTED
              : SliceStatus.NO_OP;
      return new SliceOutcome(
          request.sliceValue(),
          status,
          outcome.rows(),
          outcome.snapshotId(),
          outcome.contentHash(),
          millisSince(started),
          null,
          ExitCodes.OK);
    } catch (RuntimeException e) {
      return new SliceOutcome(
          request.sliceValue(),
          SliceStatus.FAILED,
          -1,
          null,
          null,
          millisSince(started),
          JobFailures.firstLine(e.getMessage()),
          exitCode(e));
    }
  }

  /** The line of a slice this backfill had loaded already. */
  static SliceOutcome skipped(PlannedSlice slice) {
    return new SliceOutcome(
        slice.value(),
        SliceStatus.SKIPPED,
        slice.finished().lineage().rows(),
        slice.finished().snapshotId(),
        slice.finished().lineage().contentHash(),
        0,
        null,
        ExitCodes.OK);
  }

  static int exitCode(RuntimeException e) {
    FloeException floe = JobFailures.findFloeException(e);
    return floe == null ? ExitCodes.UNEXPECTED : floe.exitCode();
  }

  private static long millisSince(long startedNanos) {
    return (System.nanoTime() - startedNanos) / 1_000_000;
  }
}
