package dev.floe.flink.backfill;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.flink.effects.EffectsReport;
import java.util.List;
import java.util.Optional;

/**
 * How a backfill ended.
 *
 * @param plan what it set out to do
 * @param sample the sample check, or null for a dry run
 * @param outcomes one per slice of the range, oldest first
 * @param elapsedMillis wall time of the whole backfill
 * @param doneEffects what became of the {@code on_backfill_done} webhooks: sent once every slice is
 *     loaded, "would send" for a dry run, held back otherwise
 * @param flinkJobs how the slices after the sample were put into Flink jobs, when {@code
 *     --slices-per-job} asked for several slices in one ("3 jobs for 199 slices", or why each slice
 *     got its own), else null
 */
public record BackfillResult(
    BackfillPlan plan,
    SampleCheck sample,
    List<SliceOutcome> outcomes,
    long elapsedMillis,
    EffectsReport doneEffects,
    String flinkJobs) {

  public BackfillResult {
    outcomes = List.copyOf(outcomes);
  }

  /** A backfill that ran a Flink job per slice. */
  public BackfillResult(
      BackfillPlan plan,
      SampleCheck sample,
      List<SliceOutcome> outcomes,
      long elapsedMillis,
      EffectsReport doneEffects) {
    this(plan, sample, outcomes, elapsedMillis, doneEffects, null);
  }

  /** Whether every slice of the range holds this backfill's load (or already held its content). */
  public boolean complete() {
    return outcomes.stream()
        .allMatch(
            o ->
                o.status() == SliceStatus.COMMITTED
                    || o.status() == SliceStatus.NO_OP
                    || o.status() == SliceStatus.SKIPPED);
  }

  public long count(SliceStatus status) {
    return outcomes.stream().filter(o -> o.status() == status).count();
  }

  /** Rows written by the slices that ran (skipped slices count their earlier load). */
  public long rows() {
    return outcomes.stream().mapToLong(o -> Math.max(0, o.rows())).sum();
  }

  /**
   * 0 when every slice is loaded; otherwise the code of the sample's failure, else of the first
   * failed slice (3 a check failed or the sample is not reproducible, 4 a conflict, 6 it timed out,
   * 1 anything else), else 6 when the overall timeout left slices not started, so a script can tell
   * a data problem from an outage or a lack of time.
   */
  public int exitCode() {
    if (sampleFailed()) {
      return sample.exitCode();
    }
    List<SliceOutcome> unfinished = unfinished();
    return unfinished.isEmpty() ? ExitCodes.OK : unfinished.get(0).exitCode();
  }

  /**
   * Why {@link #exitCode()} is not 0, as the one error line a failed command prints: the sample's
   * failure, else how many slices failed and how many were not started, and the first failed one
   * with its error; empty when the exit code is 0.
   */
  public Optional<String> failure() {
    if (sampleFailed()) {
      return Optional.of(
          String.format(
              "Cannot backfill %s (sample %s): %s", plan.job(), sample.slice(), sample.detail()));
    }
    List<SliceOutcome> failed = outcomes.stream().filter(SliceOutcome::failed).toList();
    List<SliceOutcome> notLoaded =
        outcomes.stream().filter(o -> !o.failed() && o.exitCode() != ExitCodes.OK).toList();
    if (failed.isEmpty() && notLoaded.isEmpty()) {
      return Optional.empty();
    }
    if (failed.isEmpty()) {
      SliceOutcome first = notLoaded.get(0);
      return Optional.of(
          String.format(
              "Cannot backfill %s: %d of %d slices not started, from %s%s",
              plan.job(),
              notLoaded.size(),
              outcomes.size(),
              first.value(),
              first.error() == null
                  ? ""
                  : ": " + first.error().replaceFirst("^not started: ", "")));
    }
    // Both counts: a timeout that failed one slice left the ones after it not started.
    SliceOutcome first = failed.get(0);
    return Optional.of(
        String.format(
            "Cannot backfill %s: %d of %d slices failed%s; the first, %s: %s",
            plan.job(),
            failed.size(),
            outcomes.size(),
            notLoaded.isEmpty() ? "" : " and " + notLoaded.size() + " not started",
            first.value(),
            first.error()));
  }

  private boolean sampleFailed() {
    return sample != null && !sample.passed();
  }

  /** The failed slices, else those not started with an exit code (the overall timeout passed). */
  private List<SliceOutcome> unfinished() {
    List<SliceOutcome> failed = outcomes.stream().filter(SliceOutcome::failed).toList();
    return failed.isEmpty()
        ? outcomes.stream().filter(o -> o.exitCode() != ExitCodes.OK).toList()
        : failed;
  }
}
