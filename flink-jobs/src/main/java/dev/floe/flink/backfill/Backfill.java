package dev.floe.flink.backfill;

import dev.floe.catalog.backfill.BackfillEffects;
import dev.floe.catalog.backfill.SliceRange;
import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.snapshot.CurrentCommit;
import dev.floe.flink.effects.EffectsReport;
import dev.floe.flink.effects.RunEffects;
import dev.floe.flink.job.Deadline;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.run.RunOptions;
import dev.floe.flink.session.LocalCluster;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/**
 * {@code floe backfill}: one job run for every slice of a range, each slice its own atomic commit
 * recording {@code floe.backfill-id}. In order: plan (refuse unsafe backfills, mark the slices this
 * backfill already loaded), validate the sample slice twice, then run the remaining slices with at
 * most {@code maxConcurrency} in flight on one shared local Flink cluster, their commits serialized
 * per table. A failed slice does not stop the others unless {@code failFast}; rerunning the same
 * backfill runs only what is left.
 */
public final class Backfill {

  /** Reads the clock for the overall deadline only (never to decide which slices to run). */
  static final Clock CLOCK = Clock.systemUTC();

  private Backfill() {}

  /** The plan alone: what {@code --dry-run} shows. Metadata only; no Flink job. */
  public static BackfillPlan plan(BackfillRequest request) {
    return BackfillPlanner.plan(request);
  }

  public static BackfillResult run(BackfillRequest request) {
    return run(request, BackfillListener.NONE);
  }

  public static BackfillResult run(BackfillRequest request, BackfillListener listener) {
    return run(request, listener, RunEffects.system());
  }

  /**
   * @param effects sends the slices' effects (with {@code allowEffects}) and the {@code
   *     on_backfill_done} webhooks; tests pass one with an injected clock and sleeper
   */
  public static BackfillResult run(
      BackfillRequest request, BackfillListener listener, RunEffects effects) {
    long started = System.nanoTime(); // for the summary only
    Deadline overall =
        request.overallTimeout() == null || request.options().dryRun()
            ? null
            : Deadline.overall(request.overallTimeout(), CLOCK);
    BackfillPlan plan = BackfillPlanner.plan(request);
    requireOutbox(request, effects, request.options().dryRun());
    listener.planned(plan);
    Map<String, SliceOutcome> outcomes = new LinkedHashMap<>();
    if (request.options().dryRun()) {
      for (PlannedSlice slice : plan.slices()) {
        outcomes.put(
            slice.value(),
            slice.isFinished()
                ? BackfillSlices.skipped(slice)
                : SliceOutcome.notRun(slice.value(), SliceStatus.PLANNED));
      }
      List<SliceOutcome> planned = List.copyOf(outcomes.values());
      return new BackfillResult(
          plan,
          null,
          planned,
          millisSince(started),
          doneEffects(request, plan, planned, effects, true));
    }
    BackfillContext context =
        new BackfillContext(
            request,
            plan,
            new Progress(listener, plan.slices().size()),
            effects,
            overall,
            new AtomicBoolean(false));
    Progress progress = context.progress();
    SampleCheck sample;
    String flinkJobs = null;
    try (LocalCluster cluster =
        LocalCluster.startOrJoin(plan.maxConcurrency() * Math.max(1, plan.parallelism()))) {
      PlannedSlice planned = plan.sample();
      progress.started(planned);
      sample =
          SampleRun.check(
              context.sliceRequest(planned),
              planned,
              slice -> BackfillSlices.run(slice, effects),
              () -> BackfillSlices.skipped(planned, context));
      listener.sampleChecked(sample);
      outcomes.put(planned.value(), progress.finished(sample.first()));
      List<PlannedSlice> rest = plan.slices().stream().filter(slice -> !slice.sample()).toList();
      if (!sample.passed() || request.sampleOnly()) {
        rest.forEach(
            slice ->
                outcomes.put(
                    slice.value(), SliceOutcome.notRun(slice.value(), SliceStatus.NOT_RUN)));
      } else if (request.slicesPerJob() > 1) {
        SharedJobs.Rest done = SharedJobs.run(context, rest);
        done.outcomes().forEach(o -> outcomes.put(o.value(), o));
        flinkJobs = done.flinkJobs();
      } else {
        runRest(context, rest).forEach(o -> outcomes.put(o.value(), o));
      }
    }
    List<SliceOutcome> ordered = new ArrayList<>();
    plan.slices().forEach(slice -> ordered.add(outcomes.get(slice.value())));
    return new BackfillResult(
        plan,
        sample,
        ordered,
        millisSince(started),
        doneEffects(request, plan, ordered, effects, false),
        flinkJobs);
  }

  /**
   * The loads that hold the range, for the done webhook's outbox key: each slice's commit. A slice
   * that ran again as a no-op (its sources were rewritten with the same rows) is held by the commit
   * that loaded it before, as a skipped slice is: repeating a finished backfill names the same
   * loads whichever way its slices were found unchanged.
   */
  private static List<String> loads(BackfillRequest request, List<SliceOutcome> outcomes) {
    Map<String, Long> unchanged = new LinkedHashMap<>();
    Set<String> noOps =
        outcomes.stream()
            .filter(o -> o.status() == SliceStatus.NO_OP)
            .map(SliceOutcome::value)
            .collect(Collectors.toSet());
    if (!noOps.isEmpty()) {
      Catalog catalog = Catalogs.open(request.catalog());
      try {
        JobSpec job = request.job();
        Table table = Catalogs.loadTable(catalog, job.target());
        // Each lookup walks the table's history: only for the slices that need it.
        for (Slice slice :
            SliceRange.of(
                job.target(), table, job.sliceColumn(), request.rangeStart(), request.rangeEnd())) {
          if (noOps.contains(slice.value())) {
            CurrentCommit.of(table, Scope.of(slice))
                .ifPresent(found -> unchanged.put(slice.value(), found.snapshotId()));
          }
        }
      } finally {
        Catalogs.close(catalog);
      }
    }
    List<String> loads = new ArrayList<>();
    for (SliceOutcome o : outcomes) {
      if (o.status() == SliceStatus.COMMITTED || o.status() == SliceStatus.SKIPPED) {
        loads.add(o.value() + "@" + o.snapshotId());
      } else if (o.status() == SliceStatus.NO_OP) {
        loads.add(o.value() + "@" + unchanged.get(o.value()));
      }
    }
    return loads;
  }

  /**
   * Refuses, before anything runs, effects that could not be recorded or sent. A dry run only
   * checks: it must not even create the outbox table.
   */
  private static void requireOutbox(BackfillRequest request, RunEffects effects, boolean dryRun) {
    String doneSource = request.job().source() + " on_backfill_done";
    if (dryRun) {
      if (request.options().allowEffects()) {
        effects.checkOutbox(request.catalog(), request.job());
      }
      effects.checkOutbox(request.catalog(), request.onBackfillDone(), doneSource);
      return;
    }
    if (request.options().allowEffects()) {
      effects.requireOutbox(request.catalog(), request.job());
    }
    effects.requireOutbox(request.catalog(), request.onBackfillDone(), doneSource);
  }

  /**
   * The {@code on_backfill_done} webhooks, once every slice is loaded: the checklist's "warn
   * downstream consumers" step. Keyed by the backfill id, so a resumed or repeated backfill that
   * finds everything loaded does not tell downstream twice.
   */
  private static EffectsReport doneEffects(
      BackfillRequest request,
      BackfillPlan plan,
      List<SliceOutcome> outcomes,
      RunEffects effects,
      boolean dryRun) {
    if (request.onBackfillDone().isEmpty()) {
      return EffectsReport.NONE;
    }
    BackfillResult partial = new BackfillResult(plan, null, outcomes, 0, EffectsReport.NONE);
    if (!dryRun && !partial.complete()) {
      return new EffectsReport(
          List.of(),
          "on_backfill_done held back: not every slice is loaded; the backfill that completes"
              + " the range sends it");
    }
    if (request.sampleOnly()) {
      return new EffectsReport(
          List.of(), "on_backfill_done held back: --sample-only loads one slice");
    }
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("backfill_id", plan.backfillId());
    values.put("job", plan.job());
    values.put("target", plan.target());
    values.put("mode", plan.mode());
    values.put("from", request.from());
    values.put("to", request.to());
    values.put("slices", outcomes.size());
    values.put("committed", partial.count(SliceStatus.COMMITTED));
    values.put("skipped", partial.count(SliceStatus.SKIPPED));
    values.put("rows", partial.rows());
    values.put("code_version", plan.codeVersion());
    return effects.deliverOnce(
        request.catalog(),
        BackfillEffects.outboxKey(plan.backfillId(), loads(request, outcomes)),
        request.onBackfillDone(),
        values,
        plan.target(),
        "[" + request.from() + ", " + request.to() + ")",
        dryRun);
  }

  /** The slices after the sample, at most {@code maxConcurrency} at once, oldest first. */
  static List<SliceOutcome> runRest(BackfillContext context, List<PlannedSlice> slices) {
    List<Callable<SliceOutcome>> runs = new ArrayList<>();
    for (PlannedSlice slice : slices) {
      runs.add(() -> runAlone(context, slice));
    }
    return inPool(context.plan(), runs);
  }

  /**
   * Runs {@code tasks} with at most {@code maxConcurrency} at once, on daemon threads named after
   * the backfill; their results in the tasks' order.
   */
  static <T> List<T> inPool(BackfillPlan plan, List<Callable<T>> tasks) {
    ExecutorService pool =
        Executors.newFixedThreadPool(
            plan.maxConcurrency(),
            runnable -> {
              Thread thread = new Thread(runnable, "floe-backfill-" + plan.backfillId());
              thread.setDaemon(true);
              return thread;
            });
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (Callable<T> task : tasks) {
        futures.add(pool.submit(task));
      }
      List<T> results = new ArrayList<>();
      for (Future<T> future : futures) {
        results.add(future.get());
      }
      return results;
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

  /**
   * One slice in a Flink job of its own, unless it is loaded already, a failure stopped the
   * backfill ({@code --fail-fast}) or the overall deadline passed.
   */
  static SliceOutcome runAlone(BackfillContext context, PlannedSlice slice) {
    Progress progress = context.progress();
    if (slice.isFinished()) {
      return progress.finished(BackfillSlices.skipped(slice, context));
    }
    if (context.stop().get()) {
      return progress.finished(SliceOutcome.notRun(slice.value(), SliceStatus.NOT_RUN));
    }
    if (context.overallPassed()) {
      return progress.finished(BackfillSlices.notStarted(slice, context.overall()));
    }
    progress.started(slice);
    SliceOutcome outcome = BackfillSlices.run(context.sliceRequest(slice), context.effects());
    context.stopIfFailedFast(outcome);
    return progress.finished(outcome);
  }

  /**
   * One slice's run: bound by the slice timeout from its own start and by the backfill's overall
   * deadline, whichever comes first.
   */
  static RunRequest sliceRequest(
      BackfillRequest request, BackfillPlan plan, PlannedSlice slice, Deadline overall) {
    RunOptions options =
        RunOptions.builder()
            .timeout(request.effectiveSliceTimeout())
            .parallelism(plan.parallelism())
            .backfillId(plan.backfillId())
            .allowEffects(request.options().allowEffects())
            .failAt(
                slice.value().equals(request.failAtSlice())
                    ? request.failAtPoint()
                    : FailurePoint.NONE)
            .build();
    return new RunRequest(request.catalog(), request.job(), slice.value(), options, overall);
  }

  private static long millisSince(long startedNanos) {
    return (System.nanoTime() - startedNanos) / 1_000_000;
  }
}
