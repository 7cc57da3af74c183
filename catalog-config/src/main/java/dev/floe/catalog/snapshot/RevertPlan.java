package dev.floe.catalog.snapshot;

import dev.floe.catalog.error.ShellWord;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What a revert of one run does, before or after it is done.
 *
 * @param table the table's name
 * @param runId the run being reverted
 * @param job that run's job (null when its lineage has none)
 * @param snapshotId the snapshot that run committed; null when it was expired after a revert of the
 *     run that is still in effect ({@link #alreadyRevertedBy()})
 * @param parentSnapshotId its parent, whose content the revert restores (null: the run made the
 *     table's first snapshot, and the restored content is empty; or the run's snapshot is null)
 * @param scope the run's scope label, e.g. {@code order_date=[2026-10-03,2026-10-04)} or {@code *}
 * @param region what the revert restores, in words: the slice, or the partitions a keyed
 *     whole-table run changed
 * @param headSnapshotId the current snapshot the revert was planned on (and validates from)
 * @param later later commits that changed the same rows, newest first: without force they block the
 *     revert, with force the revert discards their changes to the region
 * @param force true when the revert goes ahead over later commits
 * @param removedFiles data files the revert removes (live now, not in the parent's region), then
 *     the delete files it removes (a deletion vector as {@code puffin@offset})
 * @param restoredFiles data files of the parent's region the revert adds back, then the delete
 *     files it re-adds; a data file that had delete files at the parent is re-added as a copy of
 *     its live rows (the only case where a revert writes data)
 * @param rowsBefore rows per partition of the region now, in path order: file metadata's counts,
 *     less the rows delete files remove (a file that cannot be read with them counts whole)
 * @param rowsAfter rows per partition of the region after the revert (both empty when the run's
 *     snapshot is null; both the rows now when the run is {@linkplain #alreadyRevertedBy() already
 *     reverted}, which names no files)
 * @param restoredContentHash the region's content hash after the revert (for a run already
 *     reverted: now), or null when the region is not the run's whole scope (a keyed whole-table
 *     run: only its partitions are restored) or the run's snapshot is null
 * @param revertRunId the run id the revert commit records; reverting it undoes the revert
 * @param revertSnapshotId the snapshot the revert committed; null for a dry run or no change
 */
public record RevertPlan(
    String table,
    String runId,
    String job,
    Long snapshotId,
    Long parentSnapshotId,
    String scope,
    String region,
    long headSnapshotId,
    List<LaterCommit> later,
    boolean force,
    List<String> removedFiles,
    List<String> restoredFiles,
    Map<String, Long> rowsBefore,
    Map<String, Long> rowsAfter,
    String restoredContentHash,
    String revertRunId,
    Long revertSnapshotId) {

  public RevertPlan {
    later = List.copyOf(later);
    removedFiles = List.copyOf(removedFiles);
    restoredFiles = List.copyOf(restoredFiles);
    rowsBefore = Collections.unmodifiableSortedMap(new TreeMap<>(rowsBefore));
    rowsAfter = Collections.unmodifiableSortedMap(new TreeMap<>(rowsAfter));
  }

  /** False when the region already holds the parent's content: there is nothing to commit. */
  public boolean changes() {
    return !removedFiles.isEmpty() || !restoredFiles.isEmpty();
  }

  /**
   * The revert of this run that is already in effect ({@link LaterCommit#revertInEffect}): a later
   * commit reverted this very run and no later commit reverted that revert (or discarded it, as a
   * forced revert of a run made after this one does). Reverting again is then a no-op (a rerun of
   * `floe revert` after a crash or a lost answer, with or without force), not a refusal, also when
   * later commits loaded the region anew since the revert: the run's content is not there to
   * revert, and with force the revert would only discard those loads (revert them instead). Such a
   * plan changes nothing. Commits between the run and that revert were discarded by it (it could
   * only commit past them with force), so they discard nothing more now.
   */
  public Optional<LaterCommit> alreadyRevertedBy() {
    return changes() ? Optional.empty() : LaterCommit.revertInEffect(later, runId);
  }

  /**
   * Why the revert may not go ahead without force, or empty when it may (also when it changes
   * nothing, e.g. the run is {@linkplain #alreadyRevertedBy() already reverted}: then it discards
   * nothing). A run applied again by a revert of its revert is blocked like any run by the commits
   * after it, that revert of the revert among them.
   */
  public Optional<String> refusal() {
    if (later.isEmpty() || force || !changes()) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            "Cannot revert run %s of %s: later commits changed %s since: %s; reverting would"
                + " discard their changes there; pass --force to restore it to its content before"
                + " the run anyway (see `floe snapshots %s`)",
            runId, table, region, describe(later), ShellWord.of(table)));
  }

  /** The command that undoes this revert. */
  public String undoCommand() {
    return "floe revert " + ShellWord.of(table) + " --run " + revertRunId;
  }

  RevertPlan committedAs(Long snapshot) {
    return new RevertPlan(
        table,
        runId,
        job,
        snapshotId,
        parentSnapshotId,
        scope,
        region,
        headSnapshotId,
        later,
        force,
        removedFiles,
        restoredFiles,
        rowsBefore,
        rowsAfter,
        restoredContentHash,
        revertRunId,
        snapshot);
  }

  private static String describe(List<LaterCommit> commits) {
    return commits.stream().map(LaterCommit::describe).collect(Collectors.joining("; "));
  }
}
