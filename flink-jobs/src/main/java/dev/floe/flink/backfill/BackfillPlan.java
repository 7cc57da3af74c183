package dev.floe.flink.backfill;

import java.util.List;

/**
 * What a backfill will do, decided before any job runs (also what {@code --dry-run} prints).
 *
 * @param backfillId the id every commit records as {@code floe.backfill-id}
 * @param job the job's name
 * @param target the target table
 * @param mode the job's write mode
 * @param codeVersion the running Floe build, recorded in every run key
 * @param slices every slice of the range, oldest first
 * @param sample the sample slice (one of {@code slices})
 * @param maxConcurrency slices in flight at once
 * @param parallelism writer parallelism of each slice's job
 */
public record BackfillPlan(
    String backfillId,
    String job,
    String target,
    String mode,
    String codeVersion,
    List<PlannedSlice> slices,
    PlannedSlice sample,
    int maxConcurrency,
    int parallelism) {

  public BackfillPlan {
    slices = List.copyOf(slices);
  }

  /** Slices a resumed backfill skips: they hold this backfill's load already. */
  public long finishedCount() {
    return slices.stream().filter(PlannedSlice::isFinished).count();
  }

  /** Slices this backfill loaded before that run again, because their sources or they changed. */
  public List<PlannedSlice> runAgain() {
    return slices.stream().filter(s -> s.runAgainBecause() != null).toList();
  }
}
