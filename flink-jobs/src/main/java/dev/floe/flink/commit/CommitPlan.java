package dev.floe.flink.commit;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.job.CheckSpec;
import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.slice.Scope;
import java.io.Serializable;
import java.util.List;

/**
 * Everything the committer needs, fixed when the job is planned.
 *
 * @param catalog the catalog holding the target
 * @param target the target table
 * @param scope the slice (or whole table) this run owns
 * @param mode the write mode, for messages
 * @param allowEmpty swap: an empty result may empty the table
 * @param lineage the run's lineage (rows and content hash are filled in at commit)
 * @param startSnapshotId the target's current snapshot when the run started, or null if empty
 * @param checks the manifest's checks
 * @param forceCommit commit even when the slice already holds exactly this content
 * @param maxConflictRetries how often to re-commit over runs that read older source data
 * @param dryRun do everything but the commit: report what would happen, then delete the files
 * @param failAt a failure to inject, for atomicity tests
 * @param branch the branch to commit to (write-audit-publish: {@code audit-<run-id>}; verify:
 *     {@code scratch-<run-id>}), or null for main; the run still reads, probes and validates
 *     against main
 */
public record CommitPlan(
    CatalogConfig catalog,
    String target,
    Scope scope,
    WriteMode mode,
    boolean allowEmpty,
    Lineage lineage,
    Long startSnapshotId,
    List<CheckSpec> checks,
    boolean forceCommit,
    int maxConflictRetries,
    boolean dryRun,
    FailurePoint failAt,
    String branch)
    implements Serializable {

  public CommitPlan {
    checks = List.copyOf(checks);
  }

  public CommitPlan withChecks(List<CheckSpec> value) {
    return new CommitPlan(
        catalog,
        target,
        scope,
        mode,
        allowEmpty,
        lineage,
        startSnapshotId,
        value,
        forceCommit,
        maxConflictRetries,
        dryRun,
        failAt,
        branch);
  }

  public CommitPlan withForceCommit(boolean value) {
    return new CommitPlan(
        catalog,
        target,
        scope,
        mode,
        allowEmpty,
        lineage,
        startSnapshotId,
        checks,
        value,
        maxConflictRetries,
        dryRun,
        failAt,
        branch);
  }

  public CommitPlan withFailAt(FailurePoint value) {
    return new CommitPlan(
        catalog,
        target,
        scope,
        mode,
        allowEmpty,
        lineage,
        startSnapshotId,
        checks,
        forceCommit,
        maxConflictRetries,
        dryRun,
        value,
        branch);
  }

  /** Where the commit goes, for messages: "main", "audit branch audit-…" or "branch scratch-…". */
  public String destination() {
    if (branch == null) {
      return "main";
    }
    return (dev.floe.catalog.lineage.AuditBranch.is(branch) ? "audit branch " : "branch ") + branch;
  }
}
