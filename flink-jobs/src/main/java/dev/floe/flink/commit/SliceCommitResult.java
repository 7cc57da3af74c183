package dev.floe.flink.commit;

import java.io.Serializable;

/**
 * How the commit of one slice of a multi-slice job ended, as its committer reports it.
 *
 * @param slice the slice's index in the job
 * @param outcome the commit's outcome, or null when it failed or did not start
 * @param error why it failed ("Cannot …"), or null
 * @param exitCode the exit code the failure maps to, or 0
 */
public record SliceCommitResult(int slice, CommitOutcome outcome, String error, int exitCode)
    implements Serializable {

  /** True when the slice's commit ended with an outcome (committed, no-op or dry run). */
  public boolean ended() {
    return outcome != null;
  }
}
