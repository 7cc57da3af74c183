package dev.floe.catalog.snapshot;

import dev.floe.catalog.commit.RunLookup;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.AuditBranch;
import dev.floe.catalog.lineage.LineageKeys;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.StreamSupport;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;

/**
 * Drops the branch a run left that main never saw ({@code floe discard --run}): an audited run's
 * audit branch, whose snapshot and files stay until snapshot expiry removes them ({@code floe
 * maintain --expire}); or, when the run has no audit branch, the scratch branch of a verify or a
 * backfill's sample check that was killed before it dropped it, with the files only it references
 * ({@link DropScratch}).
 *
 * <p>A discard whose goal is reached already is a no-op ({@link
 * DiscardPlan.Role#ALREADY_DISCARDED}): the run's snapshot is still in the table's metadata but no
 * branch holds it and main does not hold the run. A run that is on main is refused: discarding
 * cannot undo it, {@code floe revert} does. {@link #apply()} says what would happen; {@link
 * #commit()} does it.
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

  /** The run whose audit or scratch branch to drop. */
  public Discard run(String value) {
    this.runId = value;
    return this;
  }

  /**
   * The branch and the snapshot it points at; changes nothing.
   *
   * @throws InvalidInputException when the run is on main, or the table holds no trace of it
   */
  public DiscardPlan apply() {
    InvalidInputException.check(
        runId != null && !runId.isBlank(), "Cannot discard in %s: give --run RUN_ID", name);
    String branch = AuditBranch.of(runId);
    SnapshotRef ref = table.refs().get(branch);
    if (ref != null && ref.isBranch()) {
      return new DiscardPlan(
          name, runId, DiscardPlan.Role.AUDIT, branch, ref.snapshotId(), List.of());
    }
    if (hasScratchBranch()) {
      DropScratchPlan drop = scratchDrop().apply();
      return new DiscardPlan(
          name,
          runId,
          DiscardPlan.Role.SCRATCH,
          drop.branch(),
          drop.snapshotId(),
          drop.files().keySet().stream().sorted().toList());
    }
    Optional<Snapshot> onMain = RunLookup.onMain(table, runId);
    if (onMain.isPresent()) {
      throw InvalidInputException.of(
          "Cannot discard run %s of %s: it is published, main holds it in snapshot %d (`floe"
              + " revert %s --run %s` undoes it)",
          runId, name, onMain.get().snapshotId(), name, runId);
    }
    Optional<Snapshot> unheld = unheldSnapshot();
    if (unheld.isPresent()) {
      return new DiscardPlan(
          name,
          runId,
          DiscardPlan.Role.ALREADY_DISCARDED,
          branch,
          unheld.get().snapshotId(),
          List.of());
    }
    throw InvalidInputException.of(
        "Cannot discard run %s of %s: there is no audit branch %s nor scratch branch %s and no"
            + " snapshot of the run (a mistyped run id, or expired; `floe tags %s` lists the"
            + " branches)",
        runId, name, branch, ScratchBranch.of(runId), name);
  }

  /** Removes the audit branch, or the scratch branch and its files; nothing when already done. */
  public DiscardPlan commit() {
    DiscardPlan plan = apply();
    switch (plan.role()) {
      case AUDIT -> table.manageSnapshots().removeBranch(plan.branch()).commit();
      case SCRATCH -> {
        return plan.withFiles(scratchDrop().commit().deleted().stream().sorted().toList());
      }
      case ALREADY_DISCARDED -> {}
    }
    return plan;
  }

  private boolean hasScratchBranch() {
    SnapshotRef ref = table.refs().get(ScratchBranch.of(runId));
    return ref != null && ref.isBranch();
  }

  private DropScratch scratchDrop() {
    return DropScratch.of(table, name).branch(ScratchBranch.of(runId));
  }

  /** The newest snapshot of the run, if no ref holds it (in its history). */
  private Optional<Snapshot> unheldSnapshot() {
    Set<Long> held = HeldSnapshots.ids(table.refs(), table::snapshot, null);
    return StreamSupport.stream(table.snapshots().spliterator(), false)
        .filter(s -> runId.equals(s.summary().get(LineageKeys.RUN_ID)))
        .filter(s -> !held.contains(s.snapshotId()))
        .reduce((older, newer) -> newer);
  }
}
