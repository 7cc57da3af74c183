package dev.floe.flink.job;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.Timeout;
import java.time.Clock;

/**
 * One run of a job manifest for one slice.
 *
 * @param catalog the catalog to run against
 * @param job the parsed manifest
 * @param sliceValue the {@code --slice} value, e.g. {@code 2026-10-03}; null when the manifest has
 *     no slice
 * @param parallelism writer parallelism; 0 takes the manifest's, then Flink's default
 * @param forceCommit commit even when the slice already holds exactly this content
 * @param maxConflictRetries re-commits allowed over runs that read older source data
 * @param dryRun run query, guards, checks and no-op detection, but commit nothing
 * @param failAt a failure to inject (tests and rehearsals)
 * @param publish commit to main, or to an audit branch for write-audit-publish
 * @param backfillId the backfill this run is a slice of ({@code floe.backfill-id}), or null
 * @param timeout how long the run may take from its start ({@code --timeout}, else the manifest's
 *     {@code timeout}), or null for no limit
 * @param notAfter a deadline from outside the run (a backfill's overall timeout), or null
 */
public record RunRequest(
    CatalogConfig catalog,
    JobSpec job,
    String sliceValue,
    int parallelism,
    boolean forceCommit,
    int maxConflictRetries,
    boolean dryRun,
    FailurePoint failAt,
    PublishMode publish,
    String backfillId,
    Timeout timeout,
    Deadline notAfter) {

  /** A run with the manifest's timeout and no outside deadline. */
  public RunRequest(
      CatalogConfig catalog,
      JobSpec job,
      String sliceValue,
      int parallelism,
      boolean forceCommit,
      int maxConflictRetries,
      boolean dryRun,
      FailurePoint failAt,
      PublishMode publish,
      String backfillId) {
    this(
        catalog,
        job,
        sliceValue,
        parallelism,
        forceCommit,
        maxConflictRetries,
        dryRun,
        failAt,
        publish,
        backfillId,
        job.timeout(),
        null);
  }

  /** A run that is not part of a backfill. */
  public RunRequest(
      CatalogConfig catalog,
      JobSpec job,
      String sliceValue,
      int parallelism,
      boolean forceCommit,
      int maxConflictRetries,
      boolean dryRun,
      FailurePoint failAt,
      PublishMode publish) {
    this(
        catalog,
        job,
        sliceValue,
        parallelism,
        forceCommit,
        maxConflictRetries,
        dryRun,
        failAt,
        publish,
        null);
  }

  public RunRequest {
    if (job.hasSlice()) {
      InvalidInputException.check(
          sliceValue != null && !sliceValue.isBlank(),
          "Cannot run %s: missing --slice (a job never derives its slice from the clock; pass"
              + " the scheduler's logical date, e.g. --slice 2026-10-03)",
          job.source());
    } else {
      InvalidInputException.check(
          sliceValue == null,
          "Cannot run %s with --slice %s: the manifest has no slice, so the run owns the whole"
              + " table (mode %s); drop --slice, or add slice: {column: ...} to the manifest",
          job.source(),
          sliceValue,
          job.mode().text());
    }
    InvalidInputException.check(
        !forceCommit || !job.mode().isKeyed(),
        "Cannot run %s with --force-commit: mode %s commits only rows that change, so a run with"
            + " nothing to change has nothing to commit",
        job.source(),
        job.mode().text());
    java.util.Objects.requireNonNull(publish, "publish");
    InvalidInputException.check(
        parallelism >= 0,
        "Cannot run: parallelism must be 0 (default) or more, got %d",
        parallelism);
    InvalidInputException.check(
        maxConflictRetries >= 0,
        "Cannot run: max conflict retries must be 0 or more, got %d",
        maxConflictRetries);
  }

  public static RunRequest of(CatalogConfig catalog, JobSpec job, String sliceValue) {
    return new RunRequest(
        catalog,
        job,
        sliceValue,
        0,
        false,
        JobOptions.defaultMaxConflictRetries(),
        false,
        FailurePoint.NONE,
        PublishMode.AUTO);
  }

  public RunRequest withForceCommit(boolean value) {
    return new RunRequest(
        catalog,
        job,
        sliceValue,
        parallelism,
        value,
        maxConflictRetries,
        dryRun,
        failAt,
        publish,
        backfillId,
        timeout,
        notAfter);
  }

  public RunRequest withParallelism(int value) {
    return new RunRequest(
        catalog,
        job,
        sliceValue,
        value,
        forceCommit,
        maxConflictRetries,
        dryRun,
        failAt,
        publish,
        backfillId,
        timeout,
        notAfter);
  }

  public RunRequest withPublish(PublishMode value) {
    return new RunRequest(
        catalog,
        job,
        sliceValue,
        parallelism,
        forceCommit,
        maxConflictRetries,
        dryRun,
        failAt,
        value,
        backfillId,
        timeout,
        notAfter);
  }

  public RunRequest withFailAt(FailurePoint value) {
    return new RunRequest(
        catalog,
        job,
        sliceValue,
        parallelism,
        forceCommit,
        maxConflictRetries,
        dryRun,
        value,
        publish,
        backfillId,
        timeout,
        notAfter);
  }

  public RunRequest withBackfillId(String value) {
    return new RunRequest(
        catalog,
        job,
        sliceValue,
        parallelism,
        forceCommit,
        maxConflictRetries,
        dryRun,
        failAt,
        publish,
        value,
        timeout,
        notAfter);
  }

  /** The same run with another timeout; null for no limit. */
  public RunRequest withTimeout(Timeout value) {
    return new RunRequest(
        catalog,
        job,
        sliceValue,
        parallelism,
        forceCommit,
        maxConflictRetries,
        dryRun,
        failAt,
        publish,
        backfillId,
        value,
        notAfter);
  }

  /** The same run, also bound by a deadline from outside (a backfill's overall timeout). */
  public RunRequest withNotAfter(Deadline value) {
    return new RunRequest(
        catalog,
        job,
        sliceValue,
        parallelism,
        forceCommit,
        maxConflictRetries,
        dryRun,
        failAt,
        publish,
        backfillId,
        timeout,
        value);
  }

  /** The deadline of a run starting now: its timeout from now, or the outside one if earlier. */
  public Deadline deadline(Clock clock) {
    return Deadline.earlier(timeout == null ? null : Deadline.after(timeout, clock), notAfter);
  }
}
