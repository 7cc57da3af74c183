package dev.floe.flink.backfill;

import dev.floe.flink.commit.FailurePoint;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.session.LocalCluster;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code floe backfill}: one job run for every slice of a range, each slice its own atomic commit
 * recording {@code floe.backfill-id}. In order: plan (refuse unsafe backfills, mark the slices this
 * backfill already loaded), validate the sample slice twice, then run the remaining slices with at
 * most {@code maxConcurrency} in flight on one shared local Flink cluster, their commits serialized
 * per table. A failed slice does not stop the others unless {@code failFast}; rerunning the same
 * backfill runs only what is left.
 */
public final class Backfill {

  private Backfill() {}

  /** The plan alone: what {@code --dry-run} shows. Metadata only; no Flink job. */
  public static BackfillPlan plan(BackfillRequest request) {
    return BackfillPlanner.plan(request);
  }

  public static BackfillResult run(BackfillRequest request) {
    return run(request, BackfillListener.NONE);
  }

  public static BackfillResult run(BackfillRequest request, BackfillListener listener) {
    long started = System.nanoTime(); // for the summary only
    BackfillPlan plan = BackfillPlanner.plan(request);
    listener.planned(plan);
    Map<String, SliceOutcome> outcomes = new LinkedHashMap<>();
    if (request.dryRun()) {
      for (PlannedSlice slice : plan.slices()) {
        outcomes.put(
            slice.value(),
            slice.isFinished()
                ? BackfillSlices.skipped(slice)
                : SliceOutcome.notRun(slice.value(), SliceStatus.PLANNED));
      }
      return new BackfillResult(plan, null, List.copyOf(outcomes.values()), millisSince(started));
    }
    Progress progress = new Progress(listener, plan.slices().size());
    SampleCheck sample;
    try (LocalCluster cluster =
        LocalCluster.start(plan.maxConcurrency() * Math.max(1, plan.parallelism()))) {
      PlannedSlice planned = plan.sample();
      progress.started(planned);
      sample = SampleRun.check(sliceRequest(request, plan, planned), planned, BackfillSlices::run);
      listener.sampleChecked(sample);
      outcomes.put(planned.value(), progress.finished(sample.first()));
      List<PlannedSlice> rest = plan.slices().stream().filter(slice -> !slice.sample()).toList();
      if (!sample.passed() || request.sampleOnly()) {
        rest.forEach(
            slice ->
                outcomes.put(
                    slice.value(), SliceOutcome.notRun(slice.value(), SliceStatus.NOT_RUN)));
      } else {
        runRest(request, plan, rest, progress).forEach(o -> outcomes.put(o.value(), o));
      }
    }
    List<SliceOutcome> ordered = new ArrayList<>();
    plan.slices().forEach(slice -> ordered.add(outcomes.get(slice.value())));
    return new BackfillResult(plan, sample, ordered, millisSince(started));
  }

  /** The slices after the sample, at most {@code maxConcurrency} at once, oldest first. */
  private static List<SliceOutcome> runRest(
      BackfillRequest request, BackfillPlan plan, List<PlannedSlice> slices, Progress progress) {
    AtomicBoolean stop = new AtomicBoolean(false);
    ExecutorService pool =
        Executors.newFixedThreadPool(
            plan.maxConcurrency(),
            runnable -> {
              Thread thread = new Thread(runnable, "floe-backfill-" + plan.backfillId());
              thread.setDaemon(true);
              return thread;
            });
    try {
      List<Future<SliceOutcome>> futures = new ArrayList<>();
      for (PlannedSlice slice : slices) {
        futures.add(
            pool.submit(
                () -> {
                  if (slice.isFinished()) {
                    return progress.finished(BackfillSlices.skipped(slice));
                  }
                  if (stop.get()) {
                    return progress.finished(
                        SliceOutcome.notRun(slice.value(), SliceStatus.NOT_RUN));
                  }
                  progress.started(slice);
                  SliceOutcome outcome = BackfillSlices.run(sliceRequest(request, plan, slice));
                  if (outcome.failed() && request.failFast()) {
                    stop.set(true);
                  }
                  return progress.finished(outcome);
                }));
      }
      List<SliceOutcome> outcomes = new ArrayList<>();
      for (Future<SliceOutcome> future : futures) {
        outcomes.add(future.get());
      }
      return outcomes;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Cannot finish the backfill: interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "Cannot finish the backfill: " + e.getCause().getMessage(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  private static RunRequest sliceRequest(
      BackfillRequest request, BackfillPlan plan, PlannedSlice slice) {
    return RunRequest.of(request.catalog(), request.job(), slice.value())
        .withParallelism(plan.parallelism())
        .withBackfillId(plan.backfillId())
        .withFailAt(
            slice.value().equals(request.failAtSlice())
                ? FailurePoint.BEFORE_COMMIT
                : FailurePoint.NONE);
  }

  private static long millisSince(long startedNanos) {
    return (System.nanoTime() - startedNanos) / 1_000_000;
  }

  /** Counts ended slices and tells the listener, one call at a time. */
  private static final class Progress {
    private final BackfillListener listener;
    private final int total;
    private final AtomicInteger done = new AtomicInteger();

    Progress(BackfillListener listener, int total) {
      this.listener = listener;
      this.total = total;
    }

    synchronized void started(PlannedSlice slice) {
      listener.sliceStarted(slice);
    }

    synchronized SliceOutcome finished(SliceOutcome outcome) {
      listener.sliceFinished(outcome, done.incrementAndGet(), total);
      return outcome;
    }
  }
}
