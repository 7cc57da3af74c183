package dev.floe.flink.backfill;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.EffectSpec;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.Timeout;
import dev.floe.flink.session.FlinkSessions;
import java.util.List;
import java.util.Objects;

/**
 * One backfill: a job manifest run for every slice of {@code [from, to)}, each slice its own atomic
 * commit.
 *
 * @param catalog the catalog to run against
 * @param job the job manifest
 * @param from the first slice value, inclusive
 * @param to the end of the range, exclusive
 * @param backfillId the id to record, or null to derive it from job, range and code version
 * @param maxConcurrency slices in flight at once (commits are serialized per table regardless)
 * @param sample the slice validated twice before the others, or null for the last slice
 * @param sampleOnly stop after the sample check
 * @param expectVersion the code version the backfill is pinned to, or null
 * @param failFast stop starting slices after the first failure
 * @param allowEffects let each slice fire its job's effects
 * @param dryRun plan only: list the slices and what would happen to each, run nothing
 * @param parallelism writer parallelism per slice; 0 takes the manifest's, else the cores shared
 *     among the slices in flight
 * @param failAtSlice a slice value whose run fails on purpose before its commit (rehearsals and
 *     tests), or null
 * @param onBackfillDone webhooks sent once when every slice is loaded (the backfill manifest's
 *     {@code on_backfill_done})
 * @param sliceTimeout how long each slice's run may take ({@code --timeout}); null: the job's
 *     {@code timeout}, else no limit
 * @param overallTimeout how long the whole backfill may take ({@code --overall-timeout}, else the
 *     backfill manifest's {@code overall_timeout}), or null for no limit
 */
public record BackfillRequest(
    CatalogConfig catalog,
    JobSpec job,
    String from,
    String to,
    String backfillId,
    int maxConcurrency,
    String sample,
    boolean sampleOnly,
    String expectVersion,
    boolean failFast,
    boolean allowEffects,
    boolean dryRun,
    int parallelism,
    String failAtSlice,
    List<EffectSpec> onBackfillDone,
    Timeout sliceTimeout,
    Timeout overallTimeout) {

  public BackfillRequest {
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(job, "job");
    onBackfillDone = List.copyOf(onBackfillDone);
    InvalidInputException.check(
        from != null && !from.isBlank() && to != null && !to.isBlank(),
        "Cannot backfill %s: give the range with --from (inclusive) and --to (exclusive)",
        job.source());
    InvalidInputException.check(
        maxConcurrency >= 1,
        "Cannot backfill %s: --max-concurrency must be 1 or more, got %d",
        job.source(),
        maxConcurrency);
    // Checked before the backfill starts a local cluster with slots for all its slices.
    InvalidInputException.check(
        parallelism >= 0 && parallelism <= FlinkSessions.MAX_PARALLELISM,
        "Cannot backfill %s: --parallelism must be 0 (default) to %d, got %d",
        job.source(),
        FlinkSessions.MAX_PARALLELISM,
        parallelism);
  }

  /** A backfill with the defaults: one slice at a time, last slice as sample, effects off. */
  public static BackfillRequest of(CatalogConfig catalog, JobSpec job, String from, String to) {
    return new BackfillRequest(
        catalog, job, from, to, null, 1, null, false, null, false, false, false, 0, null, List.of(),
        null, null);
  }

  public BackfillRequest withMaxConcurrency(int value) {
    return new BackfillRequest(
        catalog,
        job,
        from,
        to,
        backfillId,
        value,
        sample,
        sampleOnly,
        expectVersion,
        failFast,
        allowEffects,
        dryRun,
        parallelism,
        failAtSlice,
        onBackfillDone,
        sliceTimeout,
        overallTimeout);
  }

  public BackfillRequest withSample(String value, boolean only) {
    return new BackfillRequest(
        catalog,
        job,
        from,
        to,
        backfillId,
        maxConcurrency,
        value,
        only,
        expectVersion,
        failFast,
        allowEffects,
        dryRun,
        parallelism,
        failAtSlice,
        onBackfillDone,
        sliceTimeout,
        overallTimeout);
  }

  public BackfillRequest withExpectVersion(String value) {
    return new BackfillRequest(
        catalog,
        job,
        from,
        to,
        backfillId,
        maxConcurrency,
        sample,
        sampleOnly,
        value,
        failFast,
        allowEffects,
        dryRun,
        parallelism,
        failAtSlice,
        onBackfillDone,
        sliceTimeout,
        overallTimeout);
  }

  public BackfillRequest withFailFast(boolean value) {
    return new BackfillRequest(
        catalog,
        job,
        from,
        to,
        backfillId,
        maxConcurrency,
        sample,
        sampleOnly,
        expectVersion,
        value,
        allowEffects,
        dryRun,
        parallelism,
        failAtSlice,
        onBackfillDone,
        sliceTimeout,
        overallTimeout);
  }

  public BackfillRequest withDryRun(boolean value) {
    return new BackfillRequest(
        catalog,
        job,
        from,
        to,
        backfillId,
        maxConcurrency,
        sample,
        sampleOnly,
        expectVersion,
        failFast,
        allowEffects,
        value,
        parallelism,
        failAtSlice,
        onBackfillDone,
        sliceTimeout,
        overallTimeout);
  }

  public BackfillRequest withParallelism(int value) {
    return new BackfillRequest(
        catalog,
        job,
        from,
        to,
        backfillId,
        maxConcurrency,
        sample,
        sampleOnly,
        expectVersion,
        failFast,
        allowEffects,
        dryRun,
        value,
        failAtSlice,
        onBackfillDone,
        sliceTimeout,
        overallTimeout);
  }

  public BackfillRequest withFailAtSlice(String value) {
    return new BackfillRequest(
        catalog,
        job,
        from,
        to,
        backfillId,
        maxConcurrency,
        sample,
        sampleOnly,
        expectVersion,
        failFast,
        allowEffects,
        dryRun,
        parallelism,
        value,
        onBackfillDone,
        sliceTimeout,
        overallTimeout);
  }

  public BackfillRequest withAllowEffects(boolean value) {
    return new BackfillRequest(
        catalog,
        job,
        from,
        to,
        backfillId,
        maxConcurrency,
        sample,
        sampleOnly,
        expectVersion,
        failFast,
        value,
        dryRun,
        parallelism,
        failAtSlice,
        onBackfillDone,
        sliceTimeout,
        overallTimeout);
  }

  public BackfillRequest withOnBackfillDone(List<EffectSpec> value) {
    return new BackfillRequest(
        catalog,
        job,
        from,
        to,
        backfillId,
        maxConcurrency,
        sample,
        sampleOnly,
        expectVersion,
        failFast,
        allowEffects,
        dryRun,
        parallelism,
        failAtSlice,
        value,
        sliceTimeout,
        overallTimeout);
  }

  /** Each slice bound by {@code value} instead of the job's timeout; null: the job's. */
  public BackfillRequest withSliceTimeout(Timeout value) {
    return new BackfillRequest(
        catalog,
        job,
        from,
        to,
        backfillId,
        maxConcurrency,
        sample,
        sampleOnly,
        expectVersion,
        failFast,
        allowEffects,
        dryRun,
        parallelism,
        failAtSlice,
        onBackfillDone,
        value,
        overallTimeout);
  }

  /** The whole backfill bound by {@code value}; null for no limit. */
  public BackfillRequest withOverallTimeout(Timeout value) {
    return new BackfillRequest(
        catalog,
        job,
        from,
        to,
        backfillId,
        maxConcurrency,
        sample,
        sampleOnly,
        expectVersion,
        failFast,
        allowEffects,
        dryRun,
        parallelism,
        failAtSlice,
        onBackfillDone,
        sliceTimeout,
        value);
  }

  /** The timeout each slice's run gets: {@link #sliceTimeout}, else the job's, else none. */
  public Timeout effectiveSliceTimeout() {
    return sliceTimeout != null ? sliceTimeout : job.timeout();
  }
}
