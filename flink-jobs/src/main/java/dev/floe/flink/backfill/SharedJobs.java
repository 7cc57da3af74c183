package dev.floe.flink.backfill;

import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.SlicesJob;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The slices of a backfill after its sample, with up to {@code --slices-per-job} consecutive slices
 * that still need loading in one Flink job ({@link SlicesJob}), at most {@code --max-concurrency}
 * jobs at once. Sharing a job never changes what a slice ends as:
 *
 * <ul>
 *   <li>the first job runs alone, and when the query does not split, every slice gets a job of its
 *       own, as without the option;
 *   <li>a later group whose query does not split (its range decides) runs its slices one by one;
 *   <li>when a shared job fails as a whole (a row of one slice breaks the query), the slices it did
 *       not commit run again in jobs of their own, so only the slice with the bad row fails: those
 *       of the first job with up to {@code --max-concurrency} in flight (nothing else runs yet),
 *       those of a later job one by one in its place in the pool.
 * </ul>
 */
final class SharedJobs {

  private SharedJobs() {}

  /** The outcomes of the slices after the sample, and how they were put into Flink jobs. */
  record Rest(List<SliceOutcome> outcomes, String flinkJobs) {}

  /**
   * How one group ended.
   *
   * @param outcomes one per slice of the group; empty when {@code notSplitBecause} is set
   * @param notSplitBecause why the group's query does not split (nothing ran), or null
   * @param sharedJobs 1 when a shared job ran for the group, else 0
   * @param shared slices whose outcome came from the shared job
   * @param alone slices of the group that ran in a job of their own (not those that, run again
   *     alone, did not start: --fail-fast or the overall deadline)
   * @param failedAsAWhole the group's shared job failed as a whole
   */
  private record GroupRun(
      List<SliceOutcome> outcomes,
      String notSplitBecause,
      int sharedJobs,
      int shared,
      int alone,
      boolean failedAsAWhole) {

    GroupRun(List<SliceOutcome> outcomes, String notSplitBecause, int sharedJobs, int alone) {
      this(outcomes, notSplitBecause, sharedJobs, 0, alone, false);
    }
  }

  static Rest run(BackfillContext context, List<PlannedSlice> slices) {
    BackfillPlan plan = context.plan();
    Progress progress = context.progress();
    int slicesPerJob = context.request().slicesPerJob();
    List<SliceOutcome> outcomes = new ArrayList<>();
    List<List<PlannedSlice>> groups = new ArrayList<>();
    List<PlannedSlice> group = new ArrayList<>();
    int previous = -2;
    for (PlannedSlice slice : slices) {
      int index = plan.slices().indexOf(slice);
      if (slice.isFinished()) {
        outcomes.add(progress.finished(BackfillSlices.skipped(slice, context)));
      } else {
        if (!group.isEmpty() && (index != previous + 1 || group.size() == slicesPerJob)) {
          groups.add(group);
          group = new ArrayList<>();
        }
        group.add(slice);
        previous = index; // a finished slice between two that run is a gap: a new job
      }
    }
    if (!group.isEmpty()) {
      groups.add(group);
    }
    if (groups.isEmpty()) {
      return new Rest(outcomes, "none: every slice after the sample was loaded already");
    }
    GroupRun first = runGroup(context, groups.get(0), false);
    if (first.notSplitBecause() != null) {
      List<PlannedSlice> unfinished = groups.stream().flatMap(List::stream).toList();
      outcomes.addAll(Backfill.runRest(context, unfinished));
      return new Rest(outcomes, "one per slice: " + first.notSplitBecause());
    }
    List<GroupRun> runs = new ArrayList<>(List.of(first));
    List<Callable<GroupRun>> rest = new ArrayList<>();
    for (List<PlannedSlice> next : groups.subList(1, groups.size())) {
      rest.add(
          () -> {
            GroupRun run = runGroup(context, next, true);
            return run.notSplitBecause() == null ? run : alone(context, next);
          });
    }
    runs.addAll(Backfill.inPool(plan, rest));
    runs.forEach(run -> outcomes.addAll(run.outcomes()));
    return new Rest(outcomes, describe(runs, slicesPerJob));
  }

  /**
   * E.g. {@code 2 jobs for 199 slices (--slices-per-job 100)}, or {@code 1 job for 17 slices
   * (--slices-per-job 20), 1 of them failed as a whole, 3 slices in jobs of their own}.
   */
  private static String describe(List<GroupRun> runs, int slicesPerJob) {
    int jobs = runs.stream().mapToInt(GroupRun::sharedJobs).sum();
    if (jobs == 0 && runs.stream().allMatch(run -> run.alone() == 0)) {
      return "none: no slice started (--fail-fast or the overall timeout stopped them)";
    }
    int shared = runs.stream().mapToInt(GroupRun::shared).sum();
    long failed = runs.stream().filter(GroupRun::failedAsAWhole).count();
    int alone = runs.stream().mapToInt(GroupRun::alone).sum();
    return jobs
        + (jobs == 1 ? " job" : " jobs")
        + " for "
        + shared
        + (shared == 1 ? " slice" : " slices")
        + " (--slices-per-job "
        + slicesPerJob
        + ")"
        + (failed == 0 ? "" : ", " + failed + " of them failed as a whole")
        + (alone == 0
            ? ""
            : ", " + alone + (alone == 1 ? " slice" : " slices") + " in jobs of their own");
  }

  /**
   * One group in one shared job; see the class comment for when slices run alone after all.
   *
   * @param inPool the group runs in the backfill's pool, as one of its {@code --max-concurrency}
   *     tasks: slices it runs again run one by one, so no more than that are in flight
   */
  private static GroupRun runGroup(
      BackfillContext context, List<PlannedSlice> group, boolean inPool) {
    Progress progress = context.progress();
    List<SliceOutcome> outcomes = new ArrayList<>();
    if (context.stop().get() || context.overallPassed()) {
      // Not started: each slice's line says why, as for a slice of its own.
      return alone(context, group);
    }
    long started = System.nanoTime();
    List<RunRequest> requests = group.stream().map(context::sliceRequest).toList();
    SlicesJob.Result result;
    try {
      result =
          SlicesJob.run(
              requests, context.request().failFast(), () -> group.forEach(progress::started));
    } catch (RuntimeException e) {
      // Refused before its job started (e.g. the query cannot be planned): as every slice's own.
      group.forEach(
          slice ->
              outcomes.add(progress.finished(BackfillSlices.failed(slice.value(), e, started))));
      outcomes.forEach(context::stopIfFailedFast);
      return new GroupRun(outcomes, null, 0, 0);
    }
    if (result.notSplitBecause() != null) {
      return new GroupRun(List.of(), result.notSplitBecause(), 0, 0);
    }
    List<PlannedSlice> again = new ArrayList<>();
    for (int i = 0; i < group.size(); i++) {
      SlicesJob.SliceRun run = result.slices().get(i);
      if (result.failedAsAWhole() && run.result() == null) {
        again.add(group.get(i));
        continue;
      }
      SliceOutcome outcome = progress.finished(BackfillSlices.of(run, context.effects(), started));
      context.stopIfFailedFast(outcome);
      outcomes.add(outcome);
    }
    int ranAlone = 0;
    if (!again.isEmpty()) {
      GroupRun retried = inPool ? alone(context, again) : aloneInPool(context, again);
      outcomes.addAll(retried.outcomes());
      ranAlone = retried.alone();
    }
    return new GroupRun(
        outcomes, null, 1, group.size() - again.size(), ranAlone, result.failedAsAWhole());
  }

  /** The group's slices one by one, each in a job of its own (or not started, saying why). */
  private static GroupRun alone(BackfillContext context, List<PlannedSlice> group) {
    List<SliceOutcome> outcomes = new ArrayList<>();
    for (PlannedSlice slice : group) {
      outcomes.add(Backfill.runAlone(context, slice));
    }
    return ranAlone(outcomes);
  }

  /** The group's slices each in a job of its own, up to {@code --max-concurrency} at once. */
  private static GroupRun aloneInPool(BackfillContext context, List<PlannedSlice> group) {
    return ranAlone(Backfill.runRest(context, group));
  }

  private static GroupRun ranAlone(List<SliceOutcome> outcomes) {
    // Slices stopped by --fail-fast or the overall deadline did not run at all.
    int ran = (int) outcomes.stream().filter(o -> o.status() != SliceStatus.NOT_RUN).count();
    return new GroupRun(outcomes, null, 0, ran);
  }
}
