package dev.floe.catalog.snapshot;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.AuditBranch;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;

/**
 * Drops a run's audit branch without publishing it: main never saw the run. The branch's snapshot
 * and files stay until snapshot expiry removes them ({@code floe maintain --expire}). {@link
 * #apply()} says what would happen; {@link #commit()} does it.
 */
public final class Discard {
  private final Table table;
  private final String name;
  private String runId;

  private Discard(Table table, String name) {
    this.table = table;
    this.name = name;
  }

  public static Discard of(Table table, String name) {
    return new Discard(table, name);
  }

  /** The run whose audit branch to drop. */
  public Discard run(String value) {
    this.runId = value;
    return this;
  }

  /**
   * The branch and the snapshot it points at; changes nothing.
   *
   * @throws InvalidInputException when the run has no audit branch
   */
  public DiscardPlan apply() {
    InvalidInputException.check(
        runId != null && !runId.isBlank(), "Cannot discard in %s: give --run RUN_ID", name);
    String branch = AuditBranch.of(runId);
    SnapshotRef ref = table.refs().get(branch);
    if (ref == null || !ref.isBranch()) {
      throw InvalidInputException.of(
          "Cannot discard run %s of %s: there is no audit branch %s nor scratch branch %s%s"
              + " (already published or discarded, or a mistyped run id; `floe tags %s` lists the"
              + " branches)",
          runId, name, branch, ScratchBranch.PREFIX, runId, name);
    }
    return new DiscardPlan(name, runId, branch, ref.snapshotId());
  }

  /** Removes the audit branch. */
  public DiscardPlan commit() {
    DiscardPlan plan = apply();
    table.manageSnapshots().removeBranch(plan.branch()).commit();
    return plan;
  }
}
