package dev.floe.flink.job;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.Timeout;
import dev.floe.flink.run.RunOptions;
import java.time.Clock;
import java.util.function.UnaryOperator;

/**
 * One run of a job manifest for one slice.
 *
 * @param catalog the catalog to run against
 * @param job the parsed manifest
 * @param sliceValue the {@code --slice} value, e.g. {@code 2026-10-03}; null when the manifest has
 *     no slice
 * @param options how it runs: parallelism, dry run, force, retries, publish mode, backfill id,
 *     timeout, an injected failure
 * @param notAfter a deadline from outside the run (a backfill's overall timeout), or null
 */
public record RunRequest(
    CatalogConfig catalog, JobSpec job, String sliceValue, RunOptions options, Deadline notAfter) {

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
    java.util.Objects.requireNonNull(options, "options");
    InvalidInputException.check(
        !options.forceCommit() || !job.mode().isKeyed(),
        "Cannot run %s with --force-commit: mode %s commits only rows that change, so a run with"
            + " nothing to change has nothing to commit",
        job.source(),
        job.mode().text());
    InvalidInputException.check(
        !options.recompute() || job.mode().replacesScope(),
        "Cannot run %s with --recompute: mode %s never skips its job as an unchanged rerun, so"
            + " there is nothing to recompute",
        job.source(),
        job.mode().text());
    InvalidInputException.check(
        options.parallelism() >= 0,
        "Cannot run: parallelism must be 0 (default) or more, got %d",
        options.parallelism());
    InvalidInputException.check(
        options.maxConflictRetries() >= 0,
        "Cannot run: max conflict retries must be 0 or more, got %d",
        options.maxConflictRetries());
  }

  /** A run with every default option. */
  public static RunRequest of(CatalogConfig catalog, JobSpec job, String sliceValue) {
    return of(catalog, job, sliceValue, RunOptions.defaults());
  }

  /** A run with these options and no outside deadline. */
  public static RunRequest of(
      CatalogConfig catalog, JobSpec job, String sliceValue, RunOptions options) {
    return new RunRequest(catalog, job, sliceValue, options, null);
  }

  /** The same run with its options changed, e.g. {@code r.withOptions(o -> o.dryRun(true))}. */
  public RunRequest withOptions(UnaryOperator<RunOptions.Builder> change) {
    return new RunRequest(
        catalog, job, sliceValue, change.apply(options.toBuilder()).build(), notAfter);
  }

  /** How long the run may take: the {@code --timeout} option, else the manifest's, else null. */
  public Timeout timeout() {
    return options.timeout() != null ? options.timeout() : job.timeout();
  }

  /** The deadline of a run starting now: its timeout from now, or the outside one if earlier. */
  public Deadline deadline(Clock clock) {
    Timeout timeout = timeout();
    return Deadline.earlier(timeout == null ? null : Deadline.after(timeout, clock), notAfter);
  }
}
