package dev.floe.flink.backfill;

import dev.floe.flink.effects.RunEffects;
import dev.floe.flink.job.Deadline;
import dev.floe.flink.job.RunRequest;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What every slice's run of one backfill shares once its plan is made: the request and the plan,
 * the progress shown, the effects, the overall deadline, and the stop that {@code --fail-fast} sets
 * at the first failed slice.
 *
 * @param overall the backfill's overall deadline, or null for none
 * @param stop set when a failed slice stops the slices not started yet ({@code --fail-fast})
 */
record BackfillContext(
    BackfillRequest request,
    BackfillPlan plan,
    Progress progress,
    RunEffects effects,
    Deadline overall,
    AtomicBoolean stop) {

  /** What {@code slice}'s run is asked ({@link Backfill#sliceRequest}). */
  RunRequest sliceRequest(PlannedSlice slice) {
    return Backfill.sliceRequest(request, plan, slice, overall);
  }

  /** True once the overall deadline has passed: slices not started yet are not started. */
  boolean overallPassed() {
    return overall != null && overall.passed(Backfill.CLOCK);
  }

  /** Stops the slices not started yet when {@code outcome} failed and the backfill fails fast. */
  void stopIfFailedFast(SliceOutcome outcome) {
    if (outcome.failed() && request.failFast()) {
      stop.set(true);
    }
  }
}
