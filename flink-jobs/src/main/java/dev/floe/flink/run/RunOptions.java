package dev.floe.flink.run;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.job.Timeout;
import java.io.Serializable;
import java.util.Objects;

/**
 * How a run runs, whatever it runs: the options {@code floe run}, a backfill and each of its
 * slices, {@code floe verify} and the committer share. Held by {@code RunRequest}, {@code
 * CommitPlan} and {@code BackfillRequest} instead of copies of its fields; changed through {@link
 * #toBuilder()}. The requests that hold it check the values against what they run.
 *
 * @param parallelism writer parallelism; 0 takes the manifest's, then the default
 * @param dryRun a run: query, guards, checks and no-op detection, but no commit; a backfill: plan
 *     only, run nothing
 * @param forceCommit commit even when the slice already holds exactly this content
 * @param recompute run the job even when lineage shows the slice already holds this run's result
 *     (same run key, same source snapshots); the run then ends as the same no-op, only later
 * @param maxConflictRetries re-commits allowed over runs that read older source data
 * @param failAt a failure to inject (tests and rehearsals)
 * @param publish commit to main, or to an audit (or scratch) branch
 * @param backfillId the backfill a run is a slice of ({@code floe.backfill-id}), or null
 * @param allowEffects with a backfill id: send the job's effects as a plain run would
 * @param timeout how long a run may take from its start, winning over the manifest's {@code
 *     timeout}; null: the manifest's, else no limit
 */
public record RunOptions(
    int parallelism,
    boolean dryRun,
    boolean forceCommit,
    boolean recompute,
    int maxConflictRetries,
    FailurePoint failAt,
    PublishMode publish,
    String backfillId,
    boolean allowEffects,
    Timeout timeout)
    implements Serializable {

  /** {@code --max-conflict-retries}; text, because picocli's {@code defaultValue} takes text. */
  public static final String DEFAULT_MAX_CONFLICT_RETRIES = "3";

  public RunOptions {
    Objects.requireNonNull(failAt, "failAt");
    Objects.requireNonNull(publish, "publish");
  }

  /** The options of a plain run: every default. */
  public static RunOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder()
        .parallelism(parallelism)
        .dryRun(dryRun)
        .forceCommit(forceCommit)
        .recompute(recompute)
        .maxConflictRetries(maxConflictRetries)
        .failAt(failAt)
        .publish(publish)
        .backfillId(backfillId)
        .allowEffects(allowEffects)
        .timeout(timeout);
  }

  /** Whether a run with these options sends its job's effects: unless it is a backfill's slice. */
  public boolean sendsEffects() {
    return backfillId == null || allowEffects;
  }

  /** Builds {@link RunOptions}; every value starts at its default. */
  public static final class Builder {
    private int parallelism;
    private boolean dryRun;
    private boolean forceCommit;
    private boolean recompute;
    private int maxConflictRetries = Integer.parseInt(DEFAULT_MAX_CONFLICT_RETRIES);
    private FailurePoint failAt = FailurePoint.NONE;
    private PublishMode publish = PublishMode.AUTO;
    private String backfillId;
    private boolean allowEffects;
    private Timeout timeout;

    private Builder() {}

    public Builder parallelism(int value) {
      this.parallelism = value;
      return this;
    }

    public Builder dryRun(boolean value) {
      this.dryRun = value;
      return this;
    }

    public Builder forceCommit(boolean value) {
      this.forceCommit = value;
      return this;
    }

    public Builder recompute(boolean value) {
      this.recompute = value;
      return this;
    }

    public Builder maxConflictRetries(int value) {
      this.maxConflictRetries = value;
      return this;
    }

    public Builder failAt(FailurePoint value) {
      this.failAt = value;
      return this;
    }

    public Builder publish(PublishMode value) {
      this.publish = value;
      return this;
    }

    public Builder backfillId(String value) {
      this.backfillId = value;
      return this;
    }

    public Builder allowEffects(boolean value) {
      this.allowEffects = value;
      return this;
    }

    /** Null: the manifest's timeout, else no limit. */
    public Builder timeout(Timeout value) {
      this.timeout = value;
      return this;
    }

    public RunOptions build() {
      return new RunOptions(
          parallelism,
          dryRun,
          forceCommit,
          recompute,
          maxConflictRetries,
          failAt,
          publish,
          backfillId,
          allowEffects,
          timeout);
    }
  }
}
