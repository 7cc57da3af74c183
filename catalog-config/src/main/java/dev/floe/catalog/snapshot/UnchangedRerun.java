package dev.floe.catalog.snapshot;

import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.slice.Scope;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * Finds, before a run starts its job, that the run can only end as a no-op (DESIGN rule 5): the
 * commit that holds its scope's content on main was made by a run with the same intent (run key:
 * job, target, slice, manifest text, code version) from the same source snapshots, into the same
 * table schema, and replaced its whole scope. A deterministic query over the same pinned snapshots
 * gives the same rows, so the full run would hash them equal to that commit's content and commit
 * nothing; skipping the job ends the table the same, only sooner.
 *
 * <p>The caller decides whether the run qualifies at all: its query must be free of calls whose
 * result depends on when it runs, every table it reads must be pinned to a snapshot, and a forced
 * commit never skips.
 */
public final class UnchangedRerun {

  private UnchangedRerun() {}

  /**
   * @param table the target, as loaded when the run was planned
   * @param scope the run's scope
   * @param runKey the run's key
   * @param sources the snapshot of every table the run's query reads, pinned
   * @return the commit whose content the run would reproduce, or empty when the job must run
   */
  public static Optional<CurrentCommit.Found> find(
      Table table, Scope scope, String runKey, Map<String, Long> sources) {
    return CurrentCommit.of(table, scope)
        .filter(found -> sameIntentAndSources(found.lineage(), runKey, sources))
        .filter(found -> sameSchema(table, table.snapshot(found.snapshotId())));
  }

  private static boolean sameIntentAndSources(
      Lineage lineage, String runKey, Map<String, Long> sources) {
    return runKey.equals(lineage.runKey())
        && WriteMode.replacesScope(lineage.mode())
        && lineage.contentHash() != null
        // Floe before pinned sources recorded only a lower bound of what a run read.
        && lineage.sourceSnapshotsUntil().isEmpty()
        && lineage.sourceSnapshots().equals(sources);
  }

  /** Rows are aligned to the target's schema: a column added since would change them. */
  private static boolean sameSchema(Table table, Snapshot commit) {
    return commit != null
        && commit.schemaId() != null
        && Objects.equals(commit.schemaId(), table.schema().schemaId());
  }
}
