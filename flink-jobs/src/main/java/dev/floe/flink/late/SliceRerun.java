package dev.floe.flink.late;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.window.LateSlice;
import dev.floe.flink.effects.EffectsReport;
import dev.floe.flink.job.RunResult;

/**
 * One slice {@code floe late apply} reran: the run's result, or why it failed.
 *
 * @param planned the plan's entry for the slice
 * @param result the run's result, or null when it failed
 * @param error the failure's message, or null when the run finished
 * @param exitCode the exit code the failure maps to, or 0
 * @param effects what became of the job's effects after the run, as after {@code floe run}; {@link
 *     EffectsReport#NONE} when the run failed
 */
public record SliceRerun(
    LateSlice planned, RunResult result, String error, int exitCode, EffectsReport effects) {

  static SliceRerun done(LateSlice planned, RunResult result, EffectsReport effects) {
    return new SliceRerun(planned, result, null, ExitCodes.OK, effects);
  }

  static SliceRerun failed(LateSlice planned, String error, int exitCode) {
    return new SliceRerun(planned, null, error, exitCode, EffectsReport.NONE);
  }

  public boolean failed() {
    return result == null;
  }

  /** {@code committed}, {@code no-op} or {@code failed}. */
  public String status() {
    return failed() ? "failed" : result.outcome().status().text();
  }
}
