package dev.floe.flink.backfill;

import dev.floe.catalog.backfill.BackfillManifestKeys;
import dev.floe.catalog.backfill.RangeEnd;
import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.EffectSpec;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.Timeout;
import dev.floe.flink.run.RunOptions;
import dev.floe.flink.session.FlinkSessions;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * One backfill: a job manifest run for every slice of {@code [from, to)}, each slice its own atomic
 * commit. Built with {@link #builder}; changed through {@link #toBuilder()}.
 *
 * @param catalog the catalog to run against
 * @param job the job manifest
 * @param from the first slice value, inclusive
 * @param to the end of the range, exclusive
 * @param fromSource where {@code from} came from, for messages: {@code --from}, or a backfill
 *     manifest and its key ({@code m.yaml: from}); see {@link RangeEnd}
 * @param toSource the same for {@code to}
 * @param options the run options the backfill takes: {@code backfillId} (the id to record, or null
 *     to derive it from job, range and code version), {@code parallelism} (per slice; 0 takes the
 *     manifest's, else the cores shared among the slices in flight), {@code allowEffects} (let each
 *     slice fire its job's effects), {@code dryRun} (plan only: list the slices and what would
 *     happen to each, run nothing) and {@code timeout} (how long each slice's run may take; null:
 *     the job's {@code timeout}, else no limit)
 * @param maxConcurrency slices in flight at once (commits are serialized per table regardless)
 * @param slicesPerJob at most this many consecutive slices in one Flink job, each still its own
 *     commit, when the job's query gives each slice the same rows read together as read alone
 *     ({@code SplittableQuery}); 1 runs a Flink job per slice
 * @param sample the slice validated twice before the others, or null for the last slice
 * @param sampleSource where {@code sample} came from, for messages: {@code --sample}, or {@code
 *     sample} of a backfill manifest's file
 * @param sampleOnly stop after the sample check
 * @param expectVersion the code version the backfill is pinned to, or null
 * @param failFast stop starting slices after the first failure
 * @param failAtSlice a slice value whose run fails on purpose (rehearsals and tests), or null
 * @param failAtPoint where that slice's run fails: {@link FailurePoint#BEFORE_COMMIT} unless told
 * @param onBackfillDone webhooks sent once when every slice is loaded (the backfill manifest's
 *     {@code on_backfill_done})
 * @param overallTimeout how long the whole backfill may take ({@code --overall-timeout}, else the
 *     backfill manifest's {@code overall_timeout}), or null for no limit
 */
public record BackfillRequest(
    CatalogConfig catalog,
    JobSpec job,
    String from,
    String to,
    String fromSource,
    String toSource,
    RunOptions options,
    int maxConcurrency,
    int slicesPerJob,
    String sample,
    String sampleSource,
    boolean sampleOnly,
    String expectVersion,
    boolean failFast,
    String failAtSlice,
    FailurePoint failAtPoint,
    List<EffectSpec> onBackfillDone,
    Timeout overallTimeout) {

  public BackfillRequest {
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(job, "job");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(failAtPoint, "failAtPoint");
    onBackfillDone = List.copyOf(onBackfillDone);
    InvalidInputException.check(
        from != null && !from.isBlank() && to != null && !to.isBlank(),
        "Cannot backfill %s: give the range with --from (inclusive) and --to (exclusive)",
        job.source());
    InvalidInputException.check(
        maxConcurrency >= 1 && maxConcurrency <= BackfillManifestKeys.MOST_CONCURRENCY,
        "Cannot backfill %s: --max-concurrency must be 1 to %d, got %d",
        job.source(),
        BackfillManifestKeys.MOST_CONCURRENCY,
        maxConcurrency);
    InvalidInputException.check(
        slicesPerJob >= 1 && slicesPerJob <= BackfillManifestKeys.MOST_SLICES_PER_JOB,
        "Cannot backfill %s: --slices-per-job must be 1 to %d, got %d",
        job.source(),
        BackfillManifestKeys.MOST_SLICES_PER_JOB,
        slicesPerJob);
    // Checked before the backfill starts a local cluster with slots for all its slices.
    InvalidInputException.check(
        options.parallelism() >= 0 && options.parallelism() <= FlinkSessions.MAX_PARALLELISM,
        "Cannot backfill %s: --parallelism must be 0 (default) to %d, got %d",
        job.source(),
        FlinkSessions.MAX_PARALLELISM,
        options.parallelism());
  }

  /** A backfill with the defaults: one slice at a time, last slice as sample, effects off. */
  public static BackfillRequest of(CatalogConfig catalog, JobSpec job, String from, String to) {
    return builder(catalog, job, from, to).build();
  }

  /** A backfill of {@code [from, to)}, every other value at its default until set. */
  public static Builder builder(CatalogConfig catalog, JobSpec job, String from, String to) {
    return builder(catalog, job, RangeEnd.flag("--from", from), RangeEnd.flag("--to", to));
  }

  /** The same for ends given by flags or a backfill manifest, which messages name. */
  public static Builder builder(CatalogConfig catalog, JobSpec job, RangeEnd from, RangeEnd to) {
    return new Builder(catalog, job, from, to);
  }

  /** {@code from} and where it came from. */
  public RangeEnd rangeStart() {
    return new RangeEnd(from, fromSource);
  }

  /** {@code to} and where it came from. */
  public RangeEnd rangeEnd() {
    return new RangeEnd(to, toSource);
  }

  public Builder toBuilder() {
    return new Builder(catalog, job, rangeStart(), rangeEnd())
        .options(options)
        .maxConcurrency(maxConcurrency)
        .slicesPerJob(slicesPerJob)
        .sample(sample, sampleSource)
        .sampleOnly(sampleOnly)
        .expectVersion(expectVersion)
        .failFast(failFast)
        .failAtSlice(failAtSlice, failAtPoint)
        .onBackfillDone(onBackfillDone)
        .overallTimeout(overallTimeout);
  }

  /** The timeout each slice's run gets: the {@code timeout} option, else the job's, else none. */
  public Timeout effectiveSliceTimeout() {
    return options.timeout() != null ? options.timeout() : job.timeout();
  }

  /** Builds a {@link BackfillRequest}. */
  public static final class Builder {
    private final CatalogConfig catalog;
    private final JobSpec job;
    private final RangeEnd from;
    private final RangeEnd to;
    private RunOptions options = RunOptions.defaults();
    private int maxConcurrency = 1;
    private int slicesPerJob = 1;
    private String sample;
    private String sampleSource = "sample";
    private boolean sampleOnly;
    private String expectVersion;
    private boolean failFast;
    private String failAtSlice;
    private FailurePoint failAtPoint = FailurePoint.BEFORE_COMMIT;
    private List<EffectSpec> onBackfillDone = List.of();
    private Timeout overallTimeout;

    private Builder(CatalogConfig catalog, JobSpec job, RangeEnd from, RangeEnd to) {
      this.catalog = catalog;
      this.job = job;
      this.from = from;
      this.to = to;
    }

    public Builder options(RunOptions value) {
      this.options = value;
      return this;
    }

    /** Changes the run options, e.g. {@code b.options(o -> o.parallelism(1))}. */
    public Builder options(UnaryOperator<RunOptions.Builder> change) {
      this.options = change.apply(options.toBuilder()).build();
      return this;
    }

    public Builder maxConcurrency(int value) {
      this.maxConcurrency = value;
      return this;
    }

    /** Null: the last slice. */
    public Builder slicesPerJob(int value) {
      this.slicesPerJob = value;
      return this;
    }

    public Builder sample(String value) {
      this.sample = value;
      return this;
    }

    /**
     * @param value the sample slice, or null for the last slice
     * @param source where it came from, for messages: {@code --sample}, or {@code sample of <file>}
     */
    public Builder sample(String value, String source) {
      this.sample = value;
      this.sampleSource = source;
      return this;
    }

    public Builder sampleOnly(boolean value) {
      this.sampleOnly = value;
      return this;
    }

    public Builder expectVersion(String value) {
      this.expectVersion = value;
      return this;
    }

    public Builder failFast(boolean value) {
      this.failFast = value;
      return this;
    }

    /** Fails {@code value}'s run on purpose right before its commit. */
    public Builder failAtSlice(String value) {
      return failAtSlice(value, FailurePoint.BEFORE_COMMIT);
    }

    /**
     * Fails {@code value}'s run on purpose at {@code point}. A slice in a job shared with others
     * ({@link #slicesPerJob}) reaches only the commit points (BEFORE_COMMIT to AFTER_COMMIT): its
     * writers are the job's.
     */
    public Builder failAtSlice(String value, FailurePoint point) {
      this.failAtSlice = value;
      this.failAtPoint = Objects.requireNonNull(point, "point");
      return this;
    }

    public Builder onBackfillDone(List<EffectSpec> value) {
      this.onBackfillDone = value;
      return this;
    }

    /** Null for no limit. */
    public Builder overallTimeout(Timeout value) {
      this.overallTimeout = value;
      return this;
    }

    public BackfillRequest build() {
      return new BackfillRequest(
          catalog,
          job,
          from.value(),
          to.value(),
          from.source(),
          to.source(),
          options,
          maxConcurrency,
          slicesPerJob,
          sample,
          sampleSource,
          sampleOnly,
          expectVersion,
          failFast,
          failAtSlice,
          failAtPoint,
          onBackfillDone,
          overallTimeout);
    }
  }
}
