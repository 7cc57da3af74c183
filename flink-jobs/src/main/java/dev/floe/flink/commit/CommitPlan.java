package dev.floe.flink.commit;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.job.CheckSpec;
import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.slice.Scope;
import dev.floe.flink.run.RunOptions;
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
 * @param schemaId the id of the target's schema the run's writers write with ({@link
 *     dev.floe.catalog.commit.WriteSchema})
 * @param checks the manifest's checks
 * @param options the run's options: dry run, force, conflict retries, an injected failure, and the
 *     publish mode that names the branch to commit to ({@link #branch})
 */
public record CommitPlan(
    CatalogConfig catalog,
    String target,
    Scope scope,
    WriteMode mode,
    boolean allowEmpty,
    Lineage lineage,
    Long startSnapshotId,
    int schemaId,
    List<CheckSpec> checks,
    RunOptions options)
    implements Serializable {

  public CommitPlan {
    checks = List.copyOf(checks);
    java.util.Objects.requireNonNull(options, "options");
  }

  /**
   * The same plan validating its commit against what landed after {@code snapshotId} instead: for a
   * job that commits several slices and knows that everything between the two is its own commits of
   * other slices ({@link SlicesCommitterOperator}).
   */
  public CommitPlan validatingFrom(Long snapshotId) {
    return new CommitPlan(
        catalog, target, scope, mode, allowEmpty, lineage, snapshotId, schemaId, checks, options);
  }

  /** Commit even when the slice already holds exactly this content. */
  public boolean forceCommit() {
    return options.forceCommit();
  }

  /** How often to re-commit over runs that read older source data. */
  public int maxConflictRetries() {
    return options.maxConflictRetries();
  }

  /** Do everything but the commit: report what would happen, then delete the files. */
  public boolean dryRun() {
    return options.dryRun();
  }

  /** A failure to inject, for atomicity tests. */
  public FailurePoint failAt() {
    return options.failAt();
  }

  /**
   * The branch to commit to (write-audit-publish: {@code audit-<run-id>}; verify: {@code
   * scratch-<run-id>}), or null for main; the run still reads, probes and validates against main.
   */
  public String branch() {
    return options.publish().branch(lineage.runId());
  }

  /** Where the commit goes, for messages: "main", "audit branch audit-…" or "branch scratch-…". */
  public String destination() {
    String branch = branch();
    if (branch == null) {
      return "main";
    }
    return (dev.floe.catalog.lineage.AuditBranch.is(branch) ? "audit branch " : "branch ") + branch;
  }
}
