package dev.floe.catalog.snapshot;

import dev.floe.catalog.lineage.LineageKeys;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.Snapshot;

/**
 * A commit made after the run being reverted that changed rows the revert would restore: it blocks
 * the revert (or, with --force, is what the revert discards).
 *
 * @param snapshotId its snapshot
 * @param runId its Floe run id, or null for another writer
 * @param job its Floe job, or null
 * @param revertsRun when it was itself a `floe revert`, the run id it reverted; else null
 * @param discards when it was a forced `floe revert`, the run ids of the later commits whose
 *     changes it discarded ({@code floe.discards}); else empty
 */
public record LaterCommit(
    long snapshotId, String runId, String job, String revertsRun, List<String> discards) {

  public LaterCommit {
    discards = List.copyOf(discards);
  }

  LaterCommit(long snapshotId, String runId, String job, String revertsRun) {
    this(snapshotId, runId, job, revertsRun, List.of());
  }

  static LaterCommit of(Snapshot snapshot) {
    var summary = snapshot.summary();
    String discards = summary.get(LineageKeys.DISCARDS);
    return new LaterCommit(
        snapshot.snapshotId(),
        summary.get(LineageKeys.RUN_ID),
        summary.get(LineageKeys.JOB),
        summary.get(LineageKeys.REVERTS),
        discards == null || discards.isBlank() ? List.of() : List.of(discards.split(",")));
  }

  /**
   * The revert of {@code runId} still in effect among {@code newestFirst}: the newest commit that
   * reverted that run and that no newer commit in effect reverted in turn. A revert of the revert
   * applied the run again (then there is none, unless a newer commit reverted the run once more); a
   * revert of that one reverted the run again, and so on. A forced revert in effect of a run made
   * after the run also undoes the commits it discarded: reverting a run made between the run and
   * its revert restores the run's rows. Ordinary commits after the revert do not undo it: they
   * loaded the rows anew, the run's content stays reverted.
   *
   * @param newestFirst commits after the run, newest first
   */
  static Optional<LaterCommit> revertInEffect(List<LaterCommit> newestFirst, String runId) {
    Set<String> laterRuns = new HashSet<>();
    newestFirst.forEach(c -> laterRuns.add(c.runId()));
    return revertInEffect(newestFirst, runId, laterRuns);
  }

  /**
   * As above, with the run ids known to come after the run: a forced revert undoes the commits it
   * discarded only when the run it reverted is one of them (reverting a run made before the run
   * restores a state before the run too, which keeps the run reverted).
   */
  static Optional<LaterCommit> revertInEffect(
      List<LaterCommit> newestFirst, String runId, Set<String> laterRuns) {
    Set<String> undone = new HashSet<>();
    for (LaterCommit commit : newestFirst) {
      if (commit.revertsRun() == null
          || (commit.runId() != null && undone.contains(commit.runId()))) {
        continue;
      }
      if (commit.revertsRun().equals(runId)) {
        return Optional.of(commit);
      }
      undone.add(commit.revertsRun());
      if (laterRuns.contains(commit.revertsRun())) {
        undone.addAll(commit.discards());
      }
    }
    return Optional.empty();
  }

  /** E.g. {@code run 3f2a… (job fact_orders_daily, snapshot 123)}. */
  public String describe() {
    if (runId == null) {
      return "snapshot " + snapshotId + " (not a Floe run)";
    }
    if (revertsRun != null) {
      return "run " + runId + " (a revert of run " + revertsRun + ", snapshot " + snapshotId + ")";
    }
    return "run " + runId + " (job " + job + ", snapshot " + snapshotId + ")";
  }
}
