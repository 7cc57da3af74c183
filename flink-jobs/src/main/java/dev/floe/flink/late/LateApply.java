package dev.floe.flink.late;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.window.LatePlan;
import dev.floe.catalog.window.LatePlanner;
import dev.floe.catalog.window.LateSlice;
import dev.floe.catalog.window.SealedThrough;
import dev.floe.flink.effects.EffectsReport;
import dev.floe.flink.effects.RunEffects;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.RunResult;
import dev.floe.flink.job.SliceJob;
import dev.floe.flink.job.SliceReads;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.catalog.Catalog;

/**
 * {@code floe late plan} and {@code floe late apply} for one job manifest. {@link #plan()} says,
 * per loaded slice of the job's target, whether late rows arrived and what to do ({@link
 * LatePlanner}); a slice another job loaded is listed as {@code other-job} and never rerun here;
 * {@link #run()} reruns exactly the slices marked rerun, each through the normal run path ({@link
 * SliceJob#run}: a whole-slice overwrite with its checks and lineage, never a patch of rows), then
 * moves the sealing marker {@code floe.sealed-through}. A failed slice is reported and the others
 * still run. Like {@code floe run}, a rerun sends the job's effects ({@link RunEffects}): the
 * outbox is checked before the first rerun, and each finished rerun delivers what its run key owes;
 * an effect that fails does not fail the slice. The as-of instant is always given; only the CLI
 * defaults it to now.
 *
 * <pre>{@code
 * LateApplyResult result = LateApply.of(config, job).asOf(instant).run();
 * }</pre>
 */
public final class LateApply {
  private final CatalogConfig catalog;
  private final JobSpec job;
  private Instant asOf;
  private boolean dryRun;
  private RunEffects effects = RunEffects.system();

  private LateApply(CatalogConfig catalog, JobSpec job) {
    this.catalog = catalog;
    this.job = job;
  }

  /**
   * @throws InvalidInputException when the manifest has no slice (its runs own the whole table, so
   *     there is no slice to rerun)
   */
  public static LateApply of(CatalogConfig catalog, JobSpec job) {
    InvalidInputException.check(
        job.hasSlice(),
        "Cannot plan late data for %s: the manifest has no slice (mode %s owns the whole table);"
            + " late data is handled per slice",
        job.source(),
        job.mode().text());
    return new LateApply(catalog, job);
  }

  /** The instant windows are judged at (required). */
  public LateApply asOf(Instant instant) {
    this.asOf = instant;
    return this;
  }

  /** Only say what would be rerun and which marker would be written. */
  public LateApply dryRun(boolean value) {
    this.dryRun = value;
    return this;
  }

  /** How effects are sent (clock, waits, environment); default {@link RunEffects#system()}. */
  public LateApply effects(RunEffects value) {
    this.effects = value;
    return this;
  }

  /** The plan; changes nothing. */
  public LatePlan plan() {
    Catalog opened = Catalogs.open(catalog);
    try {
      return LatePlanner.of(opened, job.target(), job.sliceColumn())
          .job(job.job())
          .readsBeyondSlice(slice -> SliceReads.whyItMayReadBeyond(job, catalog, slice))
          .asOf(asOf)
          .plan();
    } finally {
      Catalogs.close(opened);
    }
  }

  /**
   * Plans, reruns the slices marked rerun (unless a dry run), and moves the sealing marker.
   *
   * @throws InvalidInputException before any rerun when the job's effects could not be recorded or
   *     sent (no outbox database, an unset environment variable)
   */
  public LateApplyResult run() {
    LatePlan plan = plan();
    if (dryRun) {
      return new LateApplyResult(
          job.job(),
          plan,
          true,
          List.of(),
          plan.sealedThrough(),
          plan.sealedThroughAfter(List.of()).orElse(null));
    }
    if (!plan.reruns().isEmpty()) {
      effects.requireOutbox(catalog, job); // refused before anything runs, as `floe run` is
    }
    List<SliceRerun> reruns = new ArrayList<>();
    List<Slice> failed = new ArrayList<>();
    for (LateSlice slice : plan.reruns()) {
      SliceRerun rerun = rerun(slice);
      reruns.add(rerun);
      if (rerun.failed()) {
        failed.add(slice.slice());
      }
    }
    Optional<Instant> through = plan.sealedThroughAfter(failed);
    Instant before = plan.sealedThrough();
    Instant after = before;
    if (through.isPresent()) {
      Catalog opened = Catalogs.open(catalog);
      try {
        var update =
            SealedThrough.advance(
                Catalogs.loadTable(opened, job.target()), job.target(), through.get());
        before = update.before();
        after = update.after();
      } finally {
        Catalogs.close(opened);
      }
    }
    return new LateApplyResult(job.job(), plan, false, reruns, before, after);
  }

  private SliceRerun rerun(LateSlice slice) {
    RunRequest request;
    RunResult result;
    try {
      request = RunRequest.of(catalog, job, slice.slice().value());
      result = SliceJob.run(request);
    } catch (FloeException e) {
      return SliceRerun.failed(slice, e.getMessage(), e.exitCode());
    } catch (RuntimeException e) {
      // One slice's failure must not stop the others: report it and go on.
      String message = e.getMessage() == null ? e.toString() : e.getMessage();
      return SliceRerun.failed(slice, message, ExitCodes.UNEXPECTED);
    }
    return SliceRerun.done(slice, result, deliver(request, result));
  }

  /** The commit stands whatever becomes of its effects: a failure here is reported, not raised. */
  private EffectsReport deliver(RunRequest request, RunResult result) {
    try {
      return effects.deliver(request, result, true);
    } catch (RuntimeException e) {
      String message = e.getMessage() == null ? e.toString() : e.getMessage();
      return new EffectsReport(
          List.of(),
          "effects not sent: "
              + message
              + "; the next run of this slice sends what its run key still owes");
    }
  }
}
