package dev.floe.catalog.snapshot;

import dev.floe.catalog.commit.RunLookup;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.lineage.AuditBranch;
import dev.floe.catalog.lineage.LineageKeys;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.StreamSupport;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Drops the branch a run left that main never saw ({@code floe discard --run}): an audited run's
 * audit branch, whose snapshot and files stay until snapshot expiry removes them ({@code floe
 * maintain --expire}); or, when the run has no audit branch, the scratch branch of a verify or a
 * backfill's sample check that was killed before it dropped it, with the files only it references
 * ({@link DropScratch}).
 *
 * <p>A discard whose goal is reached already is a no-op ({@link DiscardPlan.Role#NOTHING_LEFT}):
 * the run has no branch and main does not hold it, and the table shows the run existed (one of its
 * last {@value Untag#RECENT_VERSIONS} metadata versions had the branch, or a snapshot of the run is
 * left), so it is not a mistyped run id. A run that main holds is refused: discarding cannot undo
 * it, {@code floe revert} does. {@link #apply()} says what would happen; {@link #commit()} does it.
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
   * The branch and the snapshot it points at (and, for a scratch branch, the files that would be
   * deleted); changes nothing.
   *
   * @throws InvalidInputException when the run is on main, or the table holds no trace of it
   */
  public DiscardPlan apply() {
    DiscardPlan plan = decide();
    if (plan.role() != DiscardPlan.Role.SCRATCH) {
      return plan;
    }
    return plan.withFiles(scratchDrop().apply().files().keySet().stream().sorted().toList());
  }

  /** Removes the audit branch, or the scratch branch and its files; nothing when already done. */
  public DiscardPlan commit() {
    DiscardPlan[] plan = {decide()};
    if (plan[0].role() == DiscardPlan.Role.AUDIT) {
      RefCommit.commit(
          table,
          "discard run " + runId + " of " + name,
          base -> {
            // Decided again on every attempt: another discard of the run may have come first.
            plan[0] = decide();
            return plan[0].role() == DiscardPlan.Role.AUDIT
                ? TableMetadata.buildFrom(base).removeRef(plan[0].branch()).build()
                : null;
          });
    }
    if (plan[0].role() == DiscardPlan.Role.SCRATCH) {
      try {
        return plan[0].withFiles(scratchDrop().commit().deleted().stream().sorted().toList());
      } catch (InvalidInputException | NotFoundException e) {
        // Another drop of the same branch (a second discard, the verify's own) came first: the
        // branch was gone, or its files, before this drop committed anything. Then the goal is
        // reached. A failure after this drop's own commit (a file it could not delete, a lost
        // answer) is reported as it is.
        table.refresh();
        DiscardPlan now = decide();
        if (now.role() == DiscardPlan.Role.NOTHING_LEFT) {
          return now;
        }
        throw e;
      }
    }
    return plan[0];
  }

  /** The plan without the scratch branch's files. */
  private DiscardPlan decide() {
    InvalidInputException.check(
        runId != null && !runId.isBlank(), "Cannot discard in %s: give --run RUN_ID", name);
    String audit = AuditBranch.of(runId);
    String scratch = ScratchBranch.of(runId);
    // Also while its audit branch is left (main moved onto it by hand): dropping the branch would
    // say the run was discarded while main holds it.
    Optional<Snapshot> onMain = RunLookup.onMain(table, runId);
    if (onMain.isPresent()) {
      throw refusalOnMain(onMain.get());
    }
    for (String branch : List.of(audit, scratch)) {
      SnapshotRef ref = table.refs().get(branch);
      if (ref != null && ref.isBranch()) {
        DiscardPlan.Role role =
            branch.equals(audit) ? DiscardPlan.Role.AUDIT : DiscardPlan.Role.SCRATCH;
        return new DiscardPlan(name, runId, role, branch, ref.snapshotId(), List.of());
      }
    }
    Optional<RecentMetadata.Earlier> earlier =
        RecentMetadata.lastRef(table, List.of(audit, scratch), Untag.RECENT_VERSIONS)
            .found()
            .filter(found -> found.ref().isBranch());
    if (earlier.isPresent()) {
      return new DiscardPlan(
          name,
          runId,
          DiscardPlan.Role.NOTHING_LEFT,
          earlier.get().name(),
          earlier.get().ref().snapshotId(),
          List.of());
    }
    Optional<Snapshot> newest =
        StreamSupport.stream(table.snapshots().spliterator(), false)
            .filter(s -> runId.equals(s.summary().get(LineageKeys.RUN_ID)))
            .max(Comparator.comparingLong(Snapshot::timestampMillis));
    if (newest.isPresent()) {
      return new DiscardPlan(
          name, runId, DiscardPlan.Role.NOTHING_LEFT, null, newest.get().snapshotId(), List.of());
    }
    throw InvalidInputException.of(
        "Cannot discard run %s of %s: there is no audit branch %s nor scratch branch %s, and no"
            + " snapshot of the run (a mistyped run id, or expired; `floe tags %s` lists the"
            + " branches)",
        runId, name, audit, scratch, ShellWord.of(name));
  }

  /** Why a run on main is not discarded, and what undoes it if anything still can. */
  private InvalidInputException refusalOnMain(Snapshot run) {
    Optional<Snapshot> revertedBy =
        StreamSupport.stream(
                SnapshotUtil.ancestorsBetween(
                        table.currentSnapshot().snapshotId(), run.snapshotId(), table::snapshot)
                    .spliterator(),
                false)
            .filter(s -> runId.equals(s.summary().get(LineageKeys.REVERTS)))
            .findFirst();
    SnapshotRef left = table.refs().get(AuditBranch.of(runId));
    String leftOver =
        left != null && left.isBranch()
            ? "; `floe publish "
                + ShellWord.of(name)
                + " --run "
                + ShellWord.of(runId)
                + "` drops its left-over audit branch"
            : "";
    if (revertedBy.isPresent()) {
      return InvalidInputException.of(
          "Cannot discard run %s of %s: it reached main in snapshot %d and snapshot %d reverted it;"
              + " discard drops only a branch main never saw%s",
          runId,
          name,
          run.snapshotId(),
          revertedBy.get().snapshotId(),
          leftOver.isEmpty() ? ", and the run has none" : leftOver);
    }
    return InvalidInputException.of(
        "Cannot discard run %s of %s: main holds it in snapshot %d, and discard drops only a branch"
            + " main never saw (`floe revert %s --run %s` undoes a run on main%s)",
        runId, name, run.snapshotId(), ShellWord.of(name), ShellWord.of(runId), leftOver);
  }

  private DropScratch scratchDrop() {
    return DropScratch.of(table, name).branch(ScratchBranch.of(runId));
  }
}
