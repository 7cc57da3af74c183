package dev.floe.flink.merge;

import dev.floe.flink.commit.CommitPlan;
import java.io.Serializable;
import java.util.List;

/**
 * What the keyed committer needs beyond an overwrite's plan.
 *
 * @param commit the shared plan: target, scope, mode (merge or insert-if-absent), lineage, checks,
 *     retries, dry run, injected failure
 * @param key the key columns
 * @param ordering merge: the column whose strictly greater value wins; insert-if-absent: the column
 *     whose smallest value is kept among source duplicates; may be null for the latter
 * @param deleteMissing merge with a slice: delete the slice's target rows whose key the source
 *     lacks
 */
public record MergePlan(CommitPlan commit, List<String> key, String ordering, boolean deleteMissing)
    implements Serializable {

  public MergePlan {
    key = List.copyOf(key);
  }

  public boolean insertOnly() {
    return !commit.mode().equals(dev.floe.catalog.job.WriteMode.MERGE);
  }
}
