package dev.floe.catalog.snapshot;

import dev.floe.catalog.commit.Attempt;
import dev.floe.catalog.commit.CommitAction;
import dev.floe.catalog.commit.CommitUpdates;
import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.commit.RunCommit;
import dev.floe.catalog.commit.RunLookup;
import dev.floe.catalog.commit.UncommittedFiles;
import dev.floe.catalog.error.CommitConflictException;
import dev.floe.catalog.error.CommitStateUnknownException;
import dev.floe.catalog.error.IcebergMessages;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.CodeVersion;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.lineage.RunKey;
import dev.floe.catalog.lineage.StoredRows;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceLabel;
import dev.floe.catalog.spec.WritableProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.SnapshotUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Undoes one Floe run without rolling back the runs after it: the rows the run owned (its slice, or
 * for a keyed run without a slice the partitions it changed) get back the content they had in the
 * run's parent snapshot, in ONE new snapshot. The commit removes the data and delete files of that
 * region that are live now but were not in the parent, and re-adds the parent's files that are not
 * live now — taken from the parent's manifests. Merge-on-read tables are handled: the parent's
 * delete files that still cover kept data files are re-added, and a re-added data file that had
 * delete files at the parent is re-added as a copy of its live rows ({@link LiveCopy}: the only
 * case where a revert writes data, since a re-added file gets a new sequence number that old
 * deletes no longer cover). When no later commit touched the region this is exactly the run's
 * inverse (remove what it added, re-add what it removed), so files the run did not touch keep their
 * manifest entries.
 *
 * <p>Refused (exit 2) when a later commit changed the region, naming it, unless {@link #force}:
 * then the region is restored to the parent's content and those changes there are discarded. The
 * commit validates from the planned head with a conflict filter on the region, so a commit landing
 * in between makes it fail ({@link CommitConflictException}, exit 4) instead of overwriting newer
 * data. Like Iceberg's pending updates, {@link #apply()} plans ({@code --dry-run}) and {@link
 * #commit()} commits.
 *
 * <p>The revert snapshot records {@code floe.reverts=<run>}, a fresh {@code floe.run-id}, the same
 * {@code floe.slice}, {@code floe.mode=revert}, with force {@code floe.discards} (the run ids of
 * the later commits it undid whole: their slice lies inside the run's) and, when the region is the
 * run's whole scope, the content hash of what it restored. {@code revert} is not a mode that
 * "replaces the scope" for {@link SliceContent}, so no-op detection reads the slice after a revert
 * rather than trusting any hash: exact either way, and the hash recorded here is checked against a
 * read in the tests.
 */
public final class Revert {
  /** The {@code floe.mode} of a revert commit. */
  public static final String MODE = "revert";

  private static final Logger LOG = LoggerFactory.getLogger(Revert.class);

  private final Table table;
  private final String name;
  private String runId;
  private boolean force;
  private Runnable beforeCommit = () -> {};
  private FailurePoint failAt = FailurePoint.NONE;

  private Revert(Table table, String name) {
    this.table = table;
    this.name = name;
  }

  /**
   * @param table the table
   * @param name its name, for messages
   */
  public static Revert of(Table table, String name) {
    return new Revert(table, name);
  }

  /** The Floe run to revert: its {@code floe.run-id} (see `floe snapshots`). */
  public Revert run(String runId) {
    this.runId = runId;
    return this;
  }

  /** Revert even when later commits changed the same rows; their changes there are discarded. */
  public Revert force(boolean force) {
    this.force = force;
    return this;
  }

  /** Runs between planning and committing: tests commit a concurrent change or fail there. */
  Revert beforeCommit(Runnable hook) {
    this.beforeCommit = hook;
    return this;
  }

  /** A failure to inject in the commit (tests and rehearsals). */
  public Revert failAt(FailurePoint point) {
    this.failAt = point;
    return this;
  }

  /**
   * What the revert would do; changes nothing. A plan blocked by later commits is returned (so a
   * dry run can show them) with {@link RevertPlan#refusal()} saying why.
   *
   * @throws InvalidInputException when the run is not in the current history, its parent was
   *     expired, or a delete file of the region may apply outside it
   */
  public RevertPlan apply() {
    return prepare().plan();
  }

  /**
   * Commits the revert as one snapshot and returns the plan with the new snapshot's id (or
   * unchanged, without committing, when the region already holds the parent's content).
   *
   * @throws InvalidInputException when {@link #apply()} would, or the plan is refused
   * @throws CommitConflictException when another commit changed the region after planning
   * @throws CommitStateUnknownException when the catalog did not say whether the commit happened
   *     and the revert's run id is not in the history
   */
  public RevertPlan commit() {
    Prepared prepared = prepare();
    RevertPlan plan = prepared.plan();
    Optional<String> refusal = plan.refusal();
    if (refusal.isPresent()) {
      throw InvalidInputException.of("%s", refusal.get());
    }
    if (!plan.changes()) {
      return plan;
    }
    WritableProperties.require("revert run " + runId + " of " + name, name, table.properties());
    return RunCommit.of(table, new RevertCommit(prepared)).failAt(failAt).commit();
  }

  /** The revert as the commit core sees it: one overwrite, never retried. */
  private final class RevertCommit implements CommitAction<RevertPlan> {
    private final Prepared prepared;

    RevertCommit(Prepared prepared) {
      this.prepared = prepared;
    }

    @Override
    public String subject() {
      return "the revert of run " + runId + " of " + name;
    }

    @Override
    public String target() {
      return name;
    }

    @Override
    public String runId() {
      return prepared.plan().revertRunId();
    }

    @Override
    public Attempt<RevertPlan> prepare(Table refreshed, int attempt) {
      RevertPlan plan = prepared.plan();
      if (!prepared.touchesDeletes()) {
        OverwriteFiles overwrite =
            (plan.parentSnapshotId() == null
                    ? CommitUpdates.newOverwrite(table)
                    : CommitUpdates.newOverwriteRestoring(table, plan.parentSnapshotId()))
                .conflictDetectionFilter(prepared.region().conflictFilter())
                .validateFromSnapshot(plan.headSnapshotId())
                .validateNoConflictingData()
                .validateNoConflictingDeletes();
        prepared.remove().forEach(overwrite::deleteFile);
        prepared.restore().forEach(overwrite::addFile);
        summary(plan, prepared.discards()).forEach(overwrite::set);
        beforeCommit.run();
        return Attempt.commit(overwrite::commit);
      }
      // Delete files involved: one row delta removes what came after the parent (data and delete
      // files), re-adds the parent's delete files that still apply to kept data files, and re-adds
      // the parent's data files — as copies of their live rows when deletes applied to them.
      List<DataFile> copies = new ArrayList<>();
      RowDelta delta =
          (plan.parentSnapshotId() == null
                  ? CommitUpdates.newRowDelta(table)
                  : CommitUpdates.newRowDeltaRestoring(table, plan.parentSnapshotId()))
              .conflictDetectionFilter(prepared.region().conflictFilter())
              .validateFromSnapshot(plan.headSnapshotId())
              .validateNoConflictingDataFiles()
              .validateNoConflictingDeleteFiles();
      try {
        LiveCopy live = new LiveCopy(table, plan.revertRunId());
        for (DataFile file : prepared.restore()) {
          List<DeleteFile> deletes = prepared.before().deletesOf(file);
          if (deletes.isEmpty()) {
            delta.addRows(file);
          } else {
            DataFile copy = live.copy(file, deletes);
            if (copy.recordCount() == 0) {
              // Every row of it was deleted: there is nothing to bring back.
              table.io().deleteFile(copy.location());
              continue;
            }
            copies.add(copy);
            delta.addRows(copy);
          }
        }
      } catch (RuntimeException e) {
        UncommittedFiles.delete(table, copies);
        throw e;
      }
      prepared.remove().forEach(delta::removeRows);
      prepared.removeDeletes().forEach(delta::removeDeletes);
      prepared.restoreDeletes().forEach(delta::addDeletes);
      summary(plan, prepared.discards()).forEach(delta::set);
      beforeCommit.run();
      return Attempt.commit(delta::commit, copies);
    }

    @Override
    public Optional<RevertPlan> onConflict(
        Table refreshed, ValidationException conflict, int attempt) {
      RevertPlan plan = prepared.plan();
      if (conflict instanceof CommitUpdates.SourceExpiredException expired) {
        throw new CommitConflictException(
            String.format(
                "Cannot revert run %s of %s: its parent snapshot %d was expired while the revert"
                    + " committed (an expiry deletes the files only it referenced, which the"
                    + " revert would add back); nothing was committed",
                runId, name, expired.snapshotId()),
            conflict);
      }
      throw new CommitConflictException(
          String.format(
              "Cannot revert run %s of %s: another commit changed %s after the revert was planned"
                  + " on snapshot %d (%s); nothing was committed; run floe revert again to plan on"
                  + " the new head",
              runId,
              name,
              plan.region(),
              plan.headSnapshotId(),
              IcebergMessages.withoutFileLists(conflict.getMessage())),
          conflict);
    }

    @Override
    public RevertPlan committed(Table refreshed, Snapshot snapshot, int attempt) {
      requireReAddedFilesExist(refreshed, snapshot);
      return prepared.plan().committedAs(snapshot.snapshotId());
    }

    /**
     * The files the revert added back still exist. A REST catalog cannot make the commit wait on
     * the parent snapshot (its commit requirements assert main's head, which an expiry does not
     * move), so an expiry that removed the parent and deleted its files may have landed first.
     * While the table still holds the parent, no such expiry landed (one committing later sees the
     * revert's references and keeps the files). Otherwise, when a re-added file is gone, main is
     * set back to what it was right before the revert, in one commit against the metadata that
     * shows main at the revert (so no commit after it is lost), and the revert fails: exit 4, or
     * exit 5 when main moved on past the revert.
     */
    private void requireReAddedFilesExist(Table refreshed, Snapshot snapshot) {
      Long parentId = prepared.plan().parentSnapshotId();
      // The commit core read the history right before this, to find the commit.
      if (parentId == null || refreshed.snapshot(parentId) != null) {
        return;
      }
      List<String> gone = new ArrayList<>();
      for (String location : prepared.reAdded()) {
        try {
          if (!table.io().newInputFile(location).exists()) {
            gone.add(location);
          }
        } catch (RuntimeException e) {
          // Cannot tell: the revert did commit; say so rather than fail it.
          LOG.warn("Cannot check that {} exists after the revert of run {}", location, runId, e);
        }
      }
      if (gone.isEmpty()) {
        return;
      }
      long before = snapshot.parentId();
      String why =
          String.format(
              "Cannot revert run %s of %s: an expiry removed its parent snapshot while the revert"
                  + " committed and deleted %d file(s) it added back (%s)",
              runId, name, gone.size(), gone.get(0));
      String setBack =
          "; look at floe snapshots "
              + ShellWord.of(name)
              + " and, if nothing after the revert (snapshot "
              + snapshot.snapshotId()
              + ") must stay, floe rollback "
              + ShellWord.of(name)
              + " --to-snapshot "
              + before;
      TableOperations ops = ((HasTableOperations) refreshed).operations();
      TableMetadata base = ops.current();
      SnapshotRef main = base.ref(SnapshotRef.MAIN_BRANCH);
      if (main == null || main.snapshotId() != snapshot.snapshotId()) {
        throw new CommitStateUnknownException(
            why + "; main moved on past the revert, so it was not set back" + setBack, null);
      }
      try {
        ops.commit(
            base,
            TableMetadata.buildFrom(base)
                .setBranchSnapshot(before, SnapshotRef.MAIN_BRANCH)
                .build());
      } catch (RuntimeException e) {
        throw new CommitStateUnknownException(
            why + "; setting main back failed (" + e.getMessage() + ")" + setBack, e);
      }
      throw new CommitConflictException(
          why + "; main was set back to snapshot " + before + ", nothing stays committed");
    }
  }

  /**
   * The plan and the files behind it.
   *
   * @param before the region at the run's parent
   * @param remove data files live now that were not at the parent
   * @param restore data files of the parent that are not live now
   * @param removeDeletes delete files live now that were not at the parent
   * @param restoreDeletes delete files of the parent, not live now, that applied to a data file
   *     live both then and now
   * @param discards the run ids of later commits the revert undoes whole ({@code floe.discards})
   */
  private record Prepared(
      RevertPlan plan,
      RevertRegion region,
      RevertRegion.Live before,
      List<DataFile> remove,
      List<DataFile> restore,
      List<DeleteFile> removeDeletes,
      List<DeleteFile> restoreDeletes,
      List<String> discards) {

    /**
     * The files the commit adds back as they are: the parent's data files (except those copied with
     * their deletes applied, when delete files are involved) and its delete files.
     */
    List<String> reAdded() {
      List<String> locations = new ArrayList<>();
      boolean copiesWithDeletes = touchesDeletes();
      for (DataFile file : restore) {
        if (!copiesWithDeletes || before.deletesOf(file).isEmpty()) {
          locations.add(file.location());
        }
      }
      restoreDeletes.forEach(file -> locations.add(file.location()));
      return locations;
    }

    boolean touchesDeletes() {
      return !removeDeletes.isEmpty()
          || !restoreDeletes.isEmpty()
          || restore.stream().anyMatch(f -> !before.deletesOf(f).isEmpty());
    }
  }

  private Prepared prepare() {
    if (runId == null || runId.isBlank()) {
      throw InvalidInputException.of("Cannot revert a run of %s: give its run id (--run)", name);
    }
    table.refresh();
    Snapshot head = table.currentSnapshot();
    List<Snapshot> later = new ArrayList<>();
    Snapshot run = null;
    if (head != null) {
      for (Snapshot s : SnapshotUtil.currentAncestors(table)) {
        if (runId.equals(s.summary().get(LineageKeys.RUN_ID))) {
          run = s;
          break;
        }
        later.add(s);
      }
    }
    if (run == null) {
      Optional<Snapshot> revert =
          later.stream()
              .filter(s -> runId.equals(s.summary().get(LineageKeys.REVERTS)))
              .findFirst();
      if (revert.isPresent()) {
        return revertedBeforeExpiry(revert.get(), later);
      }
      Optional<Snapshot> cut = RunLookup.mainHistoryCut(table);
      Optional<Snapshot> behindCut =
          StreamSupport.stream(table.snapshots().spliterator(), false)
              .filter(s -> runId.equals(s.summary().get(LineageKeys.RUN_ID)))
              .filter(s -> RunLookup.olderThanCut(table, s, cut))
              .findFirst();
      if (behindCut.isPresent()) {
        throw InvalidInputException.of(
            "Cannot revert run %s of %s: its snapshot %d is kept (a tag or a branch holds it), but"
                + " an expiry cut main's history after it (main's kept history ends at snapshot"
                + " %d), so what later commits changed in its slice cannot be told",
            runId, name, behindCut.get().snapshotId(), cut.get().snapshotId());
      }
      throw InvalidInputException.of(
          "Cannot revert run %s of %s: no snapshot of the current history has that run id (a run"
              + " that was rolled back or never published is not in it); see `floe snapshots %s`",
          runId, name, ShellWord.of(name));
    }
    Snapshot parent = run.parentId() == null ? null : table.snapshot(run.parentId());
    if (run.parentId() != null && parent == null) {
      throw InvalidInputException.of(
          "Cannot revert run %s of %s: its parent snapshot %d was expired, so what the run"
              + " replaced is no longer known",
          runId, name, run.parentId());
    }
    Optional<Lineage> lineage = Lineage.of(run);
    String label = lineage.map(Lineage::slice).orElse(null);
    Scope scope = SliceLabel.parse(name, table, label);
    boolean keyed =
        lineage.map(l -> l.mode()).map(Revert::keyedMode).orElse(false) && scope.isWholeTable();
    RevertRegion region =
        keyed
            ? RevertRegion.ofPartitionsChangedBy(table, name, run)
            : RevertRegion.ofScope(table, name, scope);

    // A compaction moved rows between files without changing them: the file diff below still
    // restores the parent's rows, so it does not block the revert.
    List<Snapshot> touchingSnapshots =
        later.stream()
            .filter(s -> !WriteMode.preservesContent(s.summary().get(LineageKeys.MODE)))
            .filter(region::touchedBy)
            .toList();
    List<LaterCommit> touching = touchingSnapshots.stream().map(LaterCommit::of).toList();
    if (LaterCommit.revertInEffect(touching, runId).isPresent()) {
      return alreadyReverted(run, lineage, scope, region, head, touching);
    }
    List<String> discards =
        touchingSnapshots.stream()
            .filter(s -> s.summary().get(LineageKeys.RUN_ID) != null)
            .filter(s -> wholeScopeInside(s, region, scope))
            .map(s -> s.summary().get(LineageKeys.RUN_ID))
            .distinct()
            .toList();
    RevertRegion.Live liveNow = region.live(head, runId);
    RevertRegion.Live liveBefore =
        parent == null ? RevertRegion.Live.EMPTY : region.live(parent, runId);
    requireNoKeyLeftTwice(region, liveBefore, parent, head);
    List<DataFile> now = liveNow.dataFiles();
    List<DataFile> before = liveBefore.dataFiles();
    Map<String, DataFile> nowByPath = byPath(now);
    Map<String, DataFile> beforeByPath = byPath(before);
    List<DataFile> remove =
        now.stream().filter(f -> !beforeByPath.containsKey(f.location())).toList();
    List<DataFile> restore =
        before.stream().filter(f -> !nowByPath.containsKey(f.location())).toList();
    List<DeleteFile> removeDeletes =
        liveNow.deleteFiles().entrySet().stream()
            .filter(e -> !liveBefore.deleteFiles().containsKey(e.getKey()))
            .map(Map.Entry::getValue)
            .toList();
    List<DeleteFile> restoreDeletes = restoredDeletes(liveNow, liveBefore, before, nowByPath);
    String restoredHash =
        region.isWholeScope()
            ? (parent == null ? ContentHash.empty() : ContentAt.of(table, parent, scope)).encode()
            : null;
    RevertPlan plan =
        new RevertPlan(
            name,
            runId,
            lineage.map(Lineage::job).orElse(null),
            run.snapshotId(),
            run.parentId(),
            scope.label(),
            region.describe(),
            head.snapshotId(),
            touching,
            force,
            concat(remove.stream().map(DataFile::location), removeDeletes),
            concat(restore.stream().map(DataFile::location), restoreDeletes),
            rowsPerPartition(region, liveNow),
            rowsPerPartition(region, liveBefore),
            restoredHash,
            UUID.randomUUID().toString(),
            null);
    return new Prepared(
        plan, region, liveBefore, remove, restore, removeDeletes, restoreDeletes, discards);
  }

  /**
   * A revert of the run is in effect (no later commit reverted that revert): reverting again
   * changes nothing, whatever commits loaded the region since (with force too: restoring the parent
   * would only discard those loads, which is reverting them). The plan names no files, and its rows
   * and content hash are the region's now, which it leaves as they are.
   */
  private Prepared alreadyReverted(
      Snapshot run,
      Optional<Lineage> lineage,
      Scope scope,
      RevertRegion region,
      Snapshot head,
      List<LaterCommit> touching) {
    Map<String, Long> rows = rowsPerPartition(region, region.live(head, runId));
    RevertPlan plan =
        new RevertPlan(
            name,
            runId,
            lineage.map(Lineage::job).orElse(null),
            run.snapshotId(),
            run.parentId(),
            scope.label(),
            region.describe(),
            head.snapshotId(),
            touching,
            force,
            List.of(),
            List.of(),
            rows,
            rows,
            region.isWholeScope() ? ContentAt.of(table, head, scope).encode() : null,
            UUID.randomUUID().toString(),
            null);
    return new Prepared(
        plan,
        region,
        RevertRegion.Live.EMPTY,
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        List.of());
  }

  /**
   * The run's own snapshot was expired after {@code revert}, the newest commit reverting it,
   * reverted it. A retry of that revert (a lost answer, a re-triggered task) is a no-op, as it is
   * while the run's snapshot is kept, also when later commits loaded the reverted rows again; but
   * when a revert of that revert applied the run again, what the run replaced can no longer be
   * read, and the retry is refused. The region is the revert's slice, or for a run without one the
   * partitions the revert changed.
   */
  private Prepared revertedBeforeExpiry(Snapshot revert, List<Snapshot> ancestors) {
    Scope scope = SliceLabel.parse(name, table, revert.summary().get(LineageKeys.SLICE));
    // A run without a slice (a keyed merge) owned the partitions it changed: those the revert
    // changed back.
    RevertRegion region =
        scope.isWholeTable()
            ? RevertRegion.ofPartitionsChangedBy(table, name, revert)
            : RevertRegion.ofScope(table, name, scope);
    List<LaterCommit> touching =
        Stream.concat(
                ancestors.subList(0, ancestors.indexOf(revert)).stream()
                    .filter(s -> !WriteMode.preservesContent(s.summary().get(LineageKeys.MODE)))
                    .filter(region::touchedBy),
                Stream.of(revert))
            .map(LaterCommit::of)
            .toList();
    String revertRun = revert.summary().get(LineageKeys.RUN_ID);
    // The run's snapshot is gone: every run still in main's history is taken as made after it.
    Set<String> keptRuns = new HashSet<>();
    ancestors.forEach(a -> keptRuns.add(a.summary().get(LineageKeys.RUN_ID)));
    if (LaterCommit.revertInEffect(touching, runId, keptRuns).isEmpty()) {
      Optional<LaterCommit> undone =
          touching.stream()
              .filter(c -> revertRun.equals(c.revertsRun()) || c.discards().contains(revertRun))
              .findFirst();
      throw InvalidInputException.of(
          "Cannot revert run %s of %s: snapshot %d (run %s) reverted it and %s undid that revert,"
              + " so the run's rows are back; its own snapshot was expired since, so what it"
              + " replaced can no longer be read and it cannot be reverted again",
          runId,
          name,
          revert.snapshotId(),
          revertRun,
          undone.map(c -> "snapshot " + c.snapshotId()).orElse("a later commit"));
    }
    RevertPlan plan =
        new RevertPlan(
            name,
            runId,
            Lineage.of(revert).map(Lineage::job).orElse(null),
            null,
            null,
            scope.label(),
            region.describe(),
            ancestors.get(0).snapshotId(),
            touching,
            force,
            List.of(),
            List.of(),
            Map.of(),
            Map.of(),
            null,
            UUID.randomUUID().toString(),
            null);
    return new Prepared(
        plan,
        region,
        RevertRegion.Live.EMPTY,
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        List.of());
  }

  /**
   * On a table with a key, a revert may not leave a key twice: the run itself, or later commits (a
   * delete in the region and an insert outside it), may have moved a key the region held before the
   * run to a row outside the region, where it stays while the revert restores the region. Such a
   * key can only be in a data file outside the region added after the run's parent (on format 1,
   * which has no sequence numbers, any file outside), so those files' keys are read and compared
   * with the keys the revert puts back.
   *
   * @throws InvalidInputException naming a key that would be there twice
   */
  private void requireNoKeyLeftTwice(
      RevertRegion region, RevertRegion.Live before, Snapshot parent, Snapshot head) {
    Set<Integer> key = table.schema().identifierFieldIds();
    if (key.isEmpty() || before.dataFiles().isEmpty()) {
      return;
    }
    List<String> columns =
        key.stream().sorted().map(id -> table.schema().findColumnName(id)).toList();
    Set<List<Object>> restored = new HashSet<>();
    for (DataFile file : before.dataFiles()) {
      forEachKey(file, before.deletesOf(file), columns, restored::add);
    }
    boolean sequenced = ((HasTableOperations) table).operations().current().formatVersion() > 1;
    long after = parent == null || !sequenced ? -1 : parent.sequenceNumber();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(head.snapshotId()).planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        boolean newer = file.dataSequenceNumber() == null || file.dataSequenceNumber() > after;
        if (!newer || inRegion(region, file)) {
          continue;
        }
        forEachKey(
            file,
            task.deletes(),
            columns,
            k -> {
              if (restored.contains(k)) {
                throw InvalidInputException.of(
                    "Cannot revert run %s of %s%s: the table is keyed by %s, and key %s, which the"
                        + " revert would put back in %s, is also in %s outside it (the run or a"
                        + " later commit moved it there); it would be there twice; revert or"
                        + " reload that row's change first",
                    runId,
                    name,
                    force ? " with --force" : "",
                    columns,
                    k,
                    region.describe(),
                    file.location());
              }
            });
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the files of " + name, e);
    }
  }

  /** A file of an older spec that straddles the slice (unpruned here) counts as outside. */
  private static boolean inRegion(RevertRegion region, DataFile file) {
    try {
      return region.holds(file);
    } catch (InvalidInputException e) {
      return false;
    }
  }

  private void forEachKey(
      DataFile file,
      List<DeleteFile> deletes,
      List<String> columns,
      Consumer<List<Object>> action) {
    try (CloseableIterable<Record> rows =
        StoredRows.read(table, table.specs().get(file.specId()), file, deletes, new AtomicLong())) {
      for (Record row : rows) {
        List<Object> k = new ArrayList<>(columns.size());
        for (String c : columns) {
          Object value = row.getField(c);
          // fixed(n) reads as byte[], which compares by identity.
          k.add(value instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : value);
        }
        action.accept(k);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + file.location(), e);
    }
  }

  /**
   * Whether everything the later commit changed lies in the reverted region, so that the revert
   * undoes it whole: its recorded slice lies inside the reverted run's slice (or the reverted run
   * replaced the whole table); for a keyed run's partitions, every file it changed lies in them. A
   * commit the revert undoes only in part (a month over a reverted day, a merge's other partitions)
   * still holds the rest of what it loaded, so it keeps counting.
   */
  private boolean wholeScopeInside(Snapshot later, RevertRegion region, Scope scope) {
    if (!region.isWholeScope()) {
      return region.holdsAllChangesOf(later);
    }
    if (scope.isWholeTable()) {
      return true;
    }
    String label = later.summary().get(LineageKeys.SLICE);
    Optional<Slice> slice =
        label == null ? Optional.empty() : Slice.fromLabel(label, table.schema());
    return slice.isPresent() && scope.slice().covers(slice.get());
  }

  /** Data file locations, then delete file locations (a DV as {@code puffin@offset}). */
  private static List<String> concat(Stream<String> dataFiles, List<DeleteFile> deletes) {
    return Stream.concat(dataFiles, deletes.stream().map(RevertRegion.Live::key)).toList();
  }

  /**
   * The parent's delete files that are not live now and applied then to a data file live both then
   * and now: they are re-added (with a new sequence number, which still covers those files).
   * Refused when an equality delete would then also apply to a kept data file it did not cover at
   * the parent (one written after it), which would delete rows that were live.
   */
  private List<DeleteFile> restoredDeletes(
      RevertRegion.Live now,
      RevertRegion.Live before,
      List<DataFile> beforeFiles,
      Map<String, DataFile> nowByPath) {
    Map<String, DeleteFile> restored = new LinkedHashMap<>();
    List<DataFile> kept =
        beforeFiles.stream().filter(f -> nowByPath.containsKey(f.location())).toList();
    for (DataFile file : kept) {
      for (DeleteFile delete : before.deletesOf(file)) {
        String key = RevertRegion.Live.key(delete);
        if (!now.deleteFiles().containsKey(key)) {
          restored.putIfAbsent(key, delete);
        }
      }
    }
    for (DeleteFile delete : restored.values()) {
      if (delete.content() != FileContent.EQUALITY_DELETES) {
        continue; // position deletes name their files: a new sequence number changes nothing
      }
      for (DataFile file : kept) {
        if (file.specId() == delete.specId()
            && file.partition().equals(delete.partition())
            && file.dataSequenceNumber() != null
            && delete.dataSequenceNumber() != null
            && file.dataSequenceNumber() >= delete.dataSequenceNumber()) {
          throw InvalidInputException.of(
              "Cannot revert run %s of %s: equality delete file %s would also apply to data file"
                  + " %s, written after it; rewrite the deletes first (floe maintain --compact)",
              runId, name, delete.location(), file.location());
        }
      }
    }
    return List.copyOf(restored.values());
  }

  /** The lineage summary of the revert commit; no null values (Iceberg refuses them). */
  private Map<String, String> summary(RevertPlan plan, List<String> discards) {
    ContentHash restored =
        plan.restoredContentHash() == null ? null : ContentHash.decode(plan.restoredContentHash());
    Lineage lineage =
        new Lineage(
            RunKey.of(
                plan.job() == null ? "" : plan.job(),
                name,
                plan.scope(),
                "revert " + runId,
                CodeVersion.current()),
            plan.revertRunId(),
            plan.job() == null ? MODE : plan.job(),
            MODE,
            plan.scope(),
            CodeVersion.current(),
            restored == null ? 0 : restored.rows(),
            restored == null ? null : restored.encode(),
            Map.of(),
            null);
    Map<String, String> summary = new LinkedHashMap<>(lineage.toSummary());
    if (restored == null) {
      summary.remove(LineageKeys.ROWS); // unknown: only some partitions of the table were restored
    }
    summary.put(LineageKeys.REVERTS, runId);
    if (!discards.isEmpty()) {
      summary.put(LineageKeys.DISCARDS, String.join(",", discards));
    }
    summary.values().removeIf(v -> v == null);
    return summary;
  }

  private static boolean keyedMode(String recorded) {
    for (WriteMode mode : WriteMode.values()) {
      if (mode.text().equals(recorded)) {
        return mode.isKeyed();
      }
    }
    return false;
  }

  private static Map<String, DataFile> byPath(List<DataFile> files) {
    return files.stream()
        .collect(Collectors.toMap(DataFile::location, Function.identity(), (a, b) -> a));
  }

  /** Rows per partition of the region, as a reader sees them: deletes applied. */
  private Map<String, Long> rowsPerPartition(RevertRegion region, RevertRegion.Live live) {
    Map<String, Long> rows = new TreeMap<>();
    for (DataFile file : live.dataFiles()) {
      rows.merge(
          region.partitionOf(file),
          StoredRows.liveRowCount(
              table, table.specs().get(file.specId()), file, live.deletesOf(file)),
          Long::sum);
    }
    return rows;
  }
}
