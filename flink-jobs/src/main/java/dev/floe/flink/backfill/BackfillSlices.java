package dev.floe.flink.backfill;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.FloeException;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.effects.EffectsReport;
import dev.floe.flink.effects.RunEffects;
import dev.floe.flink.job.Deadline;
import dev.floe.flink.job.JobFailures;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.RunResult;
import dev.floe.flink.job.SliceJob;
import dev.floe.flink.job.SlicesJob;
import java.util.List;

/** Runs one slice of a backfill through the normal run path and turns its end into a line. */
final class BackfillSlices {

  private BackfillSlices() {}

  /**
   * Runs the slice; a failure becomes a FAILED line, never an exception.
   *
   * @param request the slice's run; its options say whether the backfill lets it send its job's
   *     effects
   * @param effects sends the job's effects after a commit, or records them as skipped
   */
  static SliceOutcome run(RunRequest request, RunEffects effects) {
    long started = System.nanoTime(); // for the summary only
    RunResult result;
    try {
      result = SliceJob.run(request);
    } catch (RuntimeException e) {
      return failed(request.sliceValue(), e, started);
    }
    return outcome(request, result, started).withEffects(effects(request, result, effects));
  }

  /** A FAILED line for a slice whose run threw {@code e}. */
  static SliceOutcome failed(String value, RuntimeException e, long started) {
    return new SliceOutcome(
        value,
        SliceStatus.FAILED,
        -1,
        null,
        null,
        millisSince(started),
        JobFailures.firstLine(e.getMessage()),
        exitCode(e),
        null);
  }

  /**
   * The line of one slice of a Flink job that loaded several ({@link SlicesJob}), with its effects
   * sent after its commit as after a run of the slice alone.
   *
   * @param started when the slices' job started
   */
  static SliceOutcome of(SlicesJob.SliceRun run, RunEffects effects, long started) {
    RunRequest request = run.request();
    if (run.result() != null) {
      return outcome(request, run.result(), started)
          .withEffects(effects(request, run.result(), effects));
    }
    if (run.error() != null) {
      return new SliceOutcome(
          request.sliceValue(),
          SliceStatus.FAILED,
          -1,
          null,
          null,
          millisSince(started),
          run.error(),
          run.exitCode(),
          null);
    }
    return new SliceOutcome(
        request.sliceValue(),
        SliceStatus.NOT_RUN,
        -1,
        null,
        null,
        0,
        "not committed: an earlier slice of its Flink job failed (--fail-fast)",
        ExitCodes.OK,
        null);
  }

  /**
   * The slice is committed whatever its effects do: a failed webhook is a warning on the line (and
   * pending in the outbox for `floe effects --retry`), never a failed slice.
   */
  private static String effects(RunRequest request, RunResult result, RunEffects effects) {
    if (request.job().effects().isEmpty()) {
      return null;
    }
    try {
      EffectsReport report = effects.deliver(request, result, request.options().sendsEffects());
      List<String> parts = report.linesAndWarnings();
      return parts.isEmpty() ? "none" : String.join("; ", parts);
    } catch (RuntimeException e) {
      return "not recorded: " + JobFailures.firstLine(e.getMessage());
    }
  }

  private static SliceOutcome outcome(RunRequest request, RunResult result, long started) {
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
        ExitCodes.OK,
        null);
  }

  /** A slice left alone because the backfill's overall deadline had passed: exit 6. */
  static SliceOutcome notStarted(PlannedSlice slice, Deadline overall) {
    return new SliceOutcome(
        slice.value(),
        SliceStatus.NOT_RUN,
        -1,
        null,
        null,
        0,
        "not started: the backfill " + overall.reason(),
        ExitCodes.TIMED_OUT,
        null);
  }

  /** The line of a slice this backfill had loaded already. */
  static SliceOutcome skipped(PlannedSlice slice) {
    return skipped(slice, null);
  }

  /**
   * As {@link #skipped(PlannedSlice)}; with {@code --allow-effects} it also sends what the slice's
   * commit still owes (the process that committed it died before sending).
   */
  static SliceOutcome skipped(PlannedSlice slice, BackfillContext context) {
    String effects = null;
    if (context != null
        && context.request().options().allowEffects()
        && !context.request().job().effects().isEmpty()) {
      try {
        EffectsReport report =
            context
                .effects()
                .owedByLoad(
                    context.request().catalog(),
                    context.request().job(),
                    slice.finished().snapshotId(),
                    slice.finished().lineage());
        List<String> parts = report.linesAndWarnings();
        effects = parts.isEmpty() ? "none" : String.join("; ", parts);
      } catch (RuntimeException e) {
        effects = "not recorded: " + JobFailures.firstLine(e.getMessage());
      }
    }
    return new SliceOutcome(
        slice.value(),
        SliceStatus.SKIPPED,
        slice.finished().lineage().rows(),
        slice.finished().snapshotId(),
        slice.finished().lineage().contentHash(),
        0,
        null,
        ExitCodes.OK,
        effects);
  }

  static int exitCode(RuntimeException e) {
    FloeException floe = JobFailures.findFloeException(e);
    return floe == null ? ExitCodes.UNEXPECTED : floe.exitCode();
  }

  private static long millisSince(long startedNanos) {
    return (System.nanoTime() - startedNanos) / 1_000_000;
  }
}
