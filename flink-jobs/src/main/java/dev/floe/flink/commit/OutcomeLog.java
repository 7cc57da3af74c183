package dev.floe.flink.commit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes how a run's commit ended into the job's log (the TaskManager's, where the committer runs).
 * For a detached submission ({@code flink run -d}, a REST or Kubernetes submission) nobody reads
 * the outcome the committer returns as an accumulator, so this line is the operator's record of it.
 */
public final class OutcomeLog {
  private static final Logger LOG = LoggerFactory.getLogger(OutcomeLog.class);

  private OutcomeLog() {}

  /** Logs {@code outcome} of {@code plan}'s run at INFO. */
  public static void log(CommitPlan plan, CommitOutcome outcome) {
    LOG.info(
        "Floe job {}, run {} of {} for {} ({}, to {}): {}, snapshot {}, {} rows, content hash {},"
            + " {} attempt(s): {}",
        plan.lineage().job(),
        plan.lineage().runId(),
        plan.target(),
        plan.scope().label(),
        plan.mode().text(),
        plan.destination(),
        outcome.status().text(),
        outcome.snapshotId(),
        outcome.rows(),
        outcome.contentHash(),
        outcome.attempts(),
        outcome.detail());
  }
}
