package dev.floe.catalog.snapshot;

import dev.floe.catalog.commit.Attempt;
import dev.floe.catalog.commit.CommitAction;
import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.commit.ManifestScans;
import dev.floe.catalog.commit.RunCommit;
import dev.floe.catalog.commit.RunLookup;
import dev.floe.catalog.error.CommitConflictException;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.AuditBranch;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.lineage.SliceFootprint;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.SliceLabel;
import dev.floe.catalog.spec.WritableProperties;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Projections;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Publishes a run that {@code floe run --publish manual} committed to its audit branch: main is
 * fast-forwarded to the run's snapshot when main has not moved since the run forked from it;
 * otherwise the run's file changes are cherry-picked onto main, but only when nothing main
 * committed meanwhile touched the run's slice. The audit branch is removed in the same commit.
 * {@link #apply()} says what would happen; {@link #commit()} does it.
 */
public final class Publish {
  private final Table table;
  private final String name;
  private String runId;
  private FailurePoint failAt = FailurePoint.NONE;

  private Publish(Table table, String name) {
    this.table = table;
    this.name = name;
  }

  /**
   * @param table the table
   * @param name its name, for messages
   */
  public static Publish of(Table table, String name) {
    return new Publish(table, name);
  }

  /** The run to publish. */
  public Publish run(String value) {
    this.runId = value;
    return this;
  }

  /** A failure to inject in the commit (tests and rehearsals). */
  public Publish failAt(FailurePoint point) {
    this.failAt = point;
    return this;
  }

  /**
   * What publishing would do; changes nothing.
   *
   * @throws InvalidInputException when the run has no audit branch and is not on main
   * @throws CommitConflictException when main changed the run's slice since the run forked
   */
  public PublishPlan apply() {
    InvalidInputException.check(
        runId != null && !runId.isBlank(), "Cannot publish to %s: give --run RUN_ID", name);
    String branch = AuditBranch.of(runId);
    SnapshotRef ref = table.refs().get(branch);
    Snapshot head = table.currentSnapshot();
    Long mainId = head == null ? null : head.snapshotId();
    if (ref == null || !ref.isBranch()) {
      Snapshot published = RunLookup.onMain(table, runId).orElse(null);
      if (published != null) {
        return plan(PublishPlan.Method.ALREADY_PUBLISHED, published, mainId, Map.of());
      }
      Snapshot dropped = droppedBranchHoldingMainsContent(branch);
      if (dropped != null) {
        return plan(PublishPlan.Method.ALREADY_IDENTICAL, dropped, mainId, Map.of());
      }
      throw InvalidInputException.of(
          "Cannot publish run %s of %s: there is no audit branch %s and the run is not on main"
              + " (was it run with --publish manual? discarded? `floe tags %s` lists the"
              + " branches)",
          runId, name, branch, ShellWord.of(name));
    }
    Optional<Snapshot> onMain = RunLookup.onMain(table, runId);
    if (onMain.isPresent()) {
      // Main holds the run although its branch is left (main was moved onto the branch by hand):
      // publishing it again would report a cherry-pick that commits nothing.
      return plan(PublishPlan.Method.ON_MAIN_WITH_BRANCH, onMain.get(), mainId, Map.of());
    }
    Snapshot run = table.snapshot(ref.snapshotId());
    Map<String, PublishPlan.RowChange> changes =
        RunFileChanges.of(table, run).rowsPerPartition(table);
    // Fast-forward only onto the very snapshot the branch forked from: "main's head is some
    // ancestor of the run" also holds after main was rolled back behind the fork, and moving main
    // forward then would bring the rolled-back snapshots back.
    if (Objects.equals(run.parentId(), mainId)) {
      return plan(PublishPlan.Method.FAST_FORWARD, run, mainId, changes);
    }
    if (head == null) {
      throw InvalidInputException.of(
          "Cannot publish run %s of %s: main has no snapshot, but branch %s forked from snapshot"
              + " %d; rerun the job",
          runId, name, branch, run.parentId());
    }
    return plan(checkCherryPick(run, head), run, mainId, changes);
  }

  /**
   * The run's snapshot as its audit branch held it, when a recent metadata version still had the
   * branch and main's slice now holds exactly the run's content: a publish that found main
   * identical dropped the branch, and its retry must find the same answer; else null.
   */
  private Snapshot droppedBranchHoldingMainsContent(String branch) {
    Snapshot run =
        RecentMetadata.lastRef(table, List.of(branch), Untag.RECENT_VERSIONS)
            .found()
            .filter(found -> found.ref().isBranch())
            .map(RecentMetadata.Earlier::snapshot)
            .orElse(null);
    return run != null && mainHoldsTheRunsContent(run, scopeOf(run)) ? run : null;
  }

  /** Publishes the run and removes its audit branch, in one metadata commit. */
  public PublishPlan commit() {
    PublishPlan plan = apply();
    switch (plan.method()) {
      case ALREADY_PUBLISHED, ALREADY_IDENTICAL -> {}
      case IDENTICAL_ON_MAIN, ON_MAIN_WITH_BRANCH -> {
        PublishPlan[] now = {plan};
        RefCommit.commit(
            table,
            "publish run " + runId + " of " + name,
            base -> {
              // Planned again on every attempt: main may have moved, or another publish of the
              // run may have come first.
              now[0] = apply();
              if (now[0].method() == plan.method()) {
                return TableMetadata.buildFrom(base).removeRef(now[0].branch()).build();
              }
              if (now[0].method() == PublishPlan.Method.ALREADY_PUBLISHED
                  || now[0].method() == PublishPlan.Method.ALREADY_IDENTICAL) {
                return null; // another publish of the run came first
              }
              throw new CommitConflictException(
                  String.format(
                      "Cannot publish run %s of %s: main changed while the run's audit branch"
                          + " was being dropped (%s); nothing was changed; run floe publish again",
                      runId, name, plan.method().text()));
            });
        return now[0];
      }
      case FAST_FORWARD, CHERRY_PICK -> {
        if (plan.method() == PublishPlan.Method.CHERRY_PICK) {
          // A fast-forward moves a ref; a cherry-pick writes a snapshot, as a run does.
          WritableProperties.require(
              "publish run " + runId + " of " + name, name, table.properties());
        }
        RunCommit.of(table, new PublishCommit(plan)).failAt(failAt).commit();
      }
    }
    return plan;
  }

  /**
   * Publishing as the commit core sees it: the run is published once its run id is on main,
   * whichever way it got there; never retried (a moved main is re-planned by the operator).
   */
  private final class PublishCommit implements CommitAction<PublishPlan> {
    private final PublishPlan plan;

    PublishCommit(PublishPlan plan) {
      this.plan = plan;
    }

    @Override
    public String subject() {
      return "the publication of run " + runId + " of " + name;
    }

    @Override
    public String target() {
      return name;
    }

    @Override
    public String runId() {
      return runId;
    }

    @Override
    public Attempt<PublishPlan> prepare(Table refreshed, int attempt) {
      return Attempt.commit(
          plan.method() == PublishPlan.Method.FAST_FORWARD
              ? () -> fastForward(plan)
              : () -> cherryPick(plan));
    }

    @Override
    public Optional<PublishPlan> onConflict(
        Table refreshed, ValidationException conflict, int attempt) {
      if (!branchHoldsTheRun(refreshed.refs().get(plan.branch()), plan)) {
        throw new CommitConflictException(
            String.format(
                "Cannot publish run %s of %s: its audit branch %s was dropped or moved while"
                    + " publishing (a `floe discard`?); nothing was published — `floe snapshots"
                    + " %s` shows main",
                runId, name, plan.branch(), ShellWord.of(name)),
            conflict);
      }
      Snapshot head = refreshed.currentSnapshot();
      Long headId = head == null ? null : head.snapshotId();
      String what =
          Objects.equals(headId, plan.mainSnapshotId())
              ? "another commit changed the table while publishing (main is still at snapshot "
                  + headId
              : "main moved while publishing (now snapshot " + (headId == null ? "(none)" : headId);
      throw new CommitConflictException(
          String.format(
              "Cannot publish run %s of %s: %s: %s); nothing was published — run `floe publish %s"
                  + " --run %s` again",
              runId, name, what, conflict.getMessage(), ShellWord.of(name), ShellWord.of(runId)),
          conflict);
    }

    @Override
    public PublishPlan committed(Table refreshed, Snapshot snapshot, int attempt) {
      return plan;
    }
  }

  /**
   * Moves main to the run's snapshot and drops its audit branch, committed against exactly the
   * metadata on which main was checked to be where the branch forked: a main moved meanwhile (a
   * commit, or a rollback behind the fork that must not be undone) makes the catalog refuse it.
   */
  private void fastForward(PublishPlan plan) {
    TableOperations ops = ((HasTableOperations) table).operations();
    CommitFailedException last = null;
    // Checked again on the table as it is at every attempt: another commit that left main and the
    // branch where they were (a tag, another run's discard) is no conflict, only a reason to retry.
    for (int attempt = 0; attempt < FAST_FORWARD_ATTEMPTS; attempt++) {
      TableMetadata base = ops.refresh();
      requireBranch(base.ref(plan.branch()), plan);
      Snapshot head = base.currentSnapshot();
      Long headId = head == null ? null : head.snapshotId();
      if (!Objects.equals(headId, plan.mainSnapshotId())) {
        throw new ValidationException(
            "main is at snapshot %s, no longer %s where branch %s forked",
            headId, plan.mainSnapshotId(), plan.branch());
      }
      TableMetadata updated =
          TableMetadata.buildFrom(base)
              .setBranchSnapshot(plan.branchSnapshotId(), SnapshotRef.MAIN_BRANCH)
              .removeRef(plan.branch())
              .build();
      try {
        ops.commit(base, updated);
        return;
      } catch (CommitFailedException changed) {
        last = changed;
      }
    }
    throw new ValidationException(last, "%s", last.getMessage());
  }

  private static final int FAST_FORWARD_ATTEMPTS = 5;

  /**
   * The audit branch still holds the run as planned: a discard that landed after the plan (it
   * leaves main alone, so main's checks cannot see it) must not be undone by publishing the run.
   */
  private static void requireBranch(SnapshotRef ref, PublishPlan plan) {
    if (!branchHoldsTheRun(ref, plan)) {
      throw new ValidationException(
          "branch %s no longer holds snapshot %d of the run",
          plan.branch(), plan.branchSnapshotId());
    }
  }

  private static boolean branchHoldsTheRun(SnapshotRef ref, PublishPlan plan) {
    return ref != null && ref.isBranch() && ref.snapshotId() == plan.branchSnapshotId();
  }

  /**
   * Whether main's slice holds exactly the data files the run removed (those its fork held in the
   * slice), and no delete file: then main has not changed the slice since the run forked, whatever
   * of that history was expired. A compaction on main since counts as a change (conservative).
   */
  private boolean mainSliceIsWhatTheRunReplaced(Snapshot run) {
    Set<String> replaced = new HashSet<>();
    RunFileChanges.of(table, run).removed().forEach(f -> replaced.add(f.location()));
    if (replaced.isEmpty()) {
      return false; // an empty slice proves nothing: a newer run may have emptied it again
    }
    // Empty when a delete file applies or a file straddles the slice: not the same files then.
    return SliceContent.wholeFiles(table, scopeOf(run))
        .map(files -> files.stream().map(task -> task.file().location()).toList())
        .map(onMain -> onMain.size() == replaced.size() && replaced.containsAll(onMain))
        .orElse(false);
  }

  /**
   * Whether a kept snapshot of main, from its head down to the first expired one, changed rows of
   * the run's slice.
   */
  private boolean keptHistoryTouchedTheSlice(Snapshot head, Snapshot run) {
    SliceFootprint footprint = new SliceFootprint(table, scopeOf(run));
    for (Snapshot s = head;
        s != null;
        s = s.parentId() == null ? null : table.snapshot(s.parentId())) {
      if (!WriteMode.preservesContent(mode(s)) && footprint.touchedBy(s)) {
        return true;
      }
    }
    return false;
  }

  /** The id of the first ancestor of {@code head} the table no longer holds, or null. */
  private Long firstMissingAncestor(Snapshot head) {
    Snapshot current = head;
    while (current.parentId() != null) {
      Snapshot parent = table.snapshot(current.parentId());
      if (parent == null) {
        return current.parentId();
      }
      current = parent;
    }
    return null;
  }

  /** CHERRY_PICK or IDENTICAL_ON_MAIN; throws when the run cannot reach main. */
  private PublishPlan.Method checkCherryPick(Snapshot run, Snapshot head) {
    List<Snapshot> branchOnly = new ArrayList<>();
    Snapshot fork = run;
    Long missing = null;
    while (fork != null
        && !SnapshotUtil.isAncestorOf(table, head.snapshotId(), fork.snapshotId())) {
      branchOnly.add(fork);
      Long parentId = fork.parentId();
      fork = parentId == null ? null : table.snapshot(parentId);
      if (fork == null && parentId != null) {
        missing = parentId;
      }
    }
    if (fork == null) {
      // No common snapshot: fine only when both histories are whole down to their first
      // snapshot. An expired fork, or a gap in main's history, hides what main did to the slice
      // since the run forked (a newer run of it would be overwritten).
      Long gap = missing != null ? missing : firstMissingAncestor(head);
      if (gap != null
          && replacesScope(run)
          && !RunFileChanges.of(table, run).hasDeleteFiles()
          && !keptHistoryTouchedTheSlice(head, run)
          && mainSliceIsWhatTheRunReplaced(run)) {
        // Main's slice holds exactly the files the run replaced: nothing changed it since.
        return PublishPlan.Method.CHERRY_PICK;
      }
      if (gap != null) {
        throw new CommitConflictException(
            String.format(
                "Cannot publish run %s of %s: main moved since the run forked, and snapshot %d of"
                    + " that history was expired, so what main did to the run's slice since cannot"
                    + " be told; nothing was published — rerun the job on the current data, or"
                    + " `floe discard %s --run %s`",
                runId, name, gap, ShellWord.of(name), ShellWord.of(runId)));
      }
    }
    // An overwrite or swap run replaces its slice whole, so only its own snapshot is re-applied
    // and the others (e.g. a run main rolled back after the fork) stay behind. A keyed run's
    // changes were computed on the branch's base, so it needs that base on main.
    if (branchOnly.size() != 1 && !replacesScope(run)) {
      throw InvalidInputException.of(
          "Cannot publish run %s of %s: branch %s holds %d snapshots that main does not (was"
              + " main rolled back behind the run's fork?); only a branch with the run's one"
              + " snapshot can be re-applied on main — rerun the job, or discard the branch",
          runId, name, AuditBranch.of(runId), branchOnly.size());
    }
    Scope scope = scopeOf(run);
    RunFileChanges runChanges = RunFileChanges.of(table, run);
    if (runChanges.hasDeleteFiles()) {
      // Re-applied as a row delta: its delete files must cover only the run's scope, and an
      // overwrite-by-filter of the scope cannot be part of a row delta.
      DeleteFile outside = deleteOutside(runChanges, scope);
      if (replacesScope(run) || outside != null) {
        throw InvalidInputException.of(
            "Cannot publish run %s of %s: main moved and snapshot %d holds delete files%s, which"
                + " cannot be re-applied on main",
            runId,
            name,
            run.snapshotId(),
            outside == null
                ? ""
                : " (" + outside.location() + " may apply outside the run's slice)");
      }
    }
    SliceFootprint footprint = new SliceFootprint(table, scope);
    Long forkId = fork == null ? null : fork.snapshotId();
    for (Snapshot moved : SnapshotUtil.ancestorsBetween(table, head.snapshotId(), forkId)) {
      if (replacesScope(run) && WriteMode.preservesContent(mode(moved))) {
        continue; // a compaction changed files, not rows; the run replaces the slice whole
      }
      if (footprint.touchedBy(moved)) {
        if (mainHoldsTheRunsContent(run, scope)) {
          return PublishPlan.Method.IDENTICAL_ON_MAIN;
        }
        throw new CommitConflictException(
            String.format(
                "Cannot publish run %s of %s: main moved since the run forked from %s, and"
                    + " snapshot %d (%s) changed %s too; nothing was published — rerun the job on"
                    + " the current data, or `floe discard %s --run %s`",
                runId,
                name,
                forkId == null ? "it (the fork snapshot is gone)" : "snapshot " + forkId,
                moved.snapshotId(),
                describe(moved),
                scope.isWholeTable() ? "the table" : "slice " + scope.label(),
                ShellWord.of(name),
                ShellWord.of(runId)));
      }
    }
    return PublishPlan.Method.CHERRY_PICK;
  }

  private boolean mainHoldsTheRunsContent(Snapshot run, Scope scope) {
    String runContent = run.summary().get(LineageKeys.CONTENT_HASH);
    // A keyed run's hash describes its batch, not the slice: only replacing modes can compare.
    return runContent != null
        && replacesScope(run)
        && runContent.equals(SliceContent.current(table, scope).hash().encode());
  }

  /** Overwrite and swap runs own their whole scope; keyed runs changed only some files. */
  private static boolean replacesScope(Snapshot run) {
    String mode = mode(run);
    return mode != null && WriteMode.replacesScope(mode);
  }

  private static String mode(Snapshot snapshot) {
    return snapshot.summary().get(LineageKeys.MODE);
  }

  private Scope scopeOf(Snapshot run) {
    return SliceLabel.parse(name, table, run.summary().get(LineageKeys.SLICE));
  }

  /** A delete file of the run whose partition does not lie wholly inside the scope, or null. */
  private DeleteFile deleteOutside(RunFileChanges changes, Scope scope) {
    if (scope.isWholeTable()) {
      return null;
    }
    List<DeleteFile> all = new ArrayList<>(changes.addedDeletes());
    all.addAll(changes.removedDeletes());
    for (DeleteFile delete : all) {
      PartitionSpec spec = table.specs().get(delete.specId());
      Evaluator inside =
          new Evaluator(
              spec.partitionType(), Projections.strict(spec).project(scope.toExpression()));
      if (!inside.eval(delete.partition())) {
        return delete;
      }
    }
    return null;
  }

  /**
   * Re-applies a merge-on-read run (it added or removed delete files) on main as one row delta. Its
   * delete files get main's next sequence number; they lie wholly inside the run's slice, which
   * main did not change since the fork, so they cover exactly the files they covered on the branch
   * (the run's own new data files stay uncovered, as there).
   */
  private void cherryPickRowDelta(PublishPlan plan, Snapshot run, RunFileChanges changes) {
    Scope scope = scopeOf(run);
    Transaction transaction = table.newTransaction();
    RowDelta delta =
        transaction
            .newRowDelta()
            .validateFromSnapshot(plan.mainSnapshotId())
            .conflictDetectionFilter(scope.toExpression())
            .validateDeletedFiles()
            .validateNoConflictingDataFiles()
            .validateNoConflictingDeleteFiles();
    ManifestScans.onCommittingThreadIfLocal(table, delta);
    changes.removed().forEach(delta::removeRows);
    changes.added().forEach(delta::addRows);
    changes.removedDeletes().forEach(delta::removeDeletes);
    changes.addedDeletes().forEach(delta::addDeletes);
    lineageOnMain(run).forEach(delta::set);
    delta.commit();
    transaction.manageSnapshots().removeBranch(plan.branch()).commit();
    transaction.commitTransaction();
  }

  private void cherryPick(PublishPlan plan) {
    // The table was refreshed for this attempt; the branch removal below fails on a branch
    // dropped later still, before anything reaches the catalog.
    requireBranch(table.refs().get(plan.branch()), plan);
    Snapshot run = table.snapshot(plan.branchSnapshotId());
    RunFileChanges changes = RunFileChanges.of(table, run);
    if (changes.hasDeleteFiles()) {
      cherryPickRowDelta(plan, run, changes);
      return;
    }
    Scope scope = scopeOf(run);
    Transaction transaction = table.newTransaction();
    OverwriteFiles overwrite =
        transaction
            .newOverwrite()
            .validateFromSnapshot(plan.mainSnapshotId())
            .conflictDetectionFilter(scope.toExpression())
            .validateNoConflictingData()
            .validateNoConflictingDeletes();
    ManifestScans.onCommittingThreadIfLocal(table, overwrite);
    if (replacesScope(run)) {
      // The run's intent is "the slice holds exactly these files", as on its branch; this also
      // holds when a compaction on main rewrote the files the run had replaced.
      overwrite.overwriteByRowFilter(scope.toExpression());
      if (!changes.added().isEmpty()) {
        overwrite.validateAddedFilesMatchOverwriteFilter();
      }
    } else {
      changes.removed().forEach(overwrite::deleteFile);
    }
    changes.added().forEach(overwrite::addFile);
    lineageOnMain(run).forEach(overwrite::set);
    overwrite.commit();
    transaction.manageSnapshots().removeBranch(plan.branch()).commit();
    transaction.commitTransaction();
  }

  /**
   * The run's lineage for its copy on main. Its content hash describes the rows as the run's schema
   * read them; when main's schema changed since (a column dropped and added again reads NULL in the
   * run's files), the hash is left out, so no-op detection reads the slice instead of trusting it.
   */
  private Map<String, String> lineageOnMain(Snapshot run) {
    Map<String, String> lineage = new java.util.LinkedHashMap<>();
    run.summary().entrySet().stream()
        .filter(e -> e.getKey().startsWith(LineageKeys.PREFIX))
        .forEach(e -> lineage.put(e.getKey(), e.getValue()));
    if (!Objects.equals(run.schemaId(), table.schema().schemaId())) {
      lineage.remove(LineageKeys.CONTENT_HASH);
    }
    lineage.put(LineageKeys.PUBLISHED_FROM, String.valueOf(run.snapshotId()));
    return lineage;
  }

  private PublishPlan plan(
      PublishPlan.Method method,
      Snapshot run,
      Long mainId,
      Map<String, PublishPlan.RowChange> changes) {
    return new PublishPlan(
        name,
        runId,
        AuditBranch.of(runId),
        method,
        run.snapshotId(),
        mainId,
        run.summary().getOrDefault(LineageKeys.SLICE, Scope.WHOLE_TABLE_LABEL),
        changes);
  }

  private static String describe(Snapshot snapshot) {
    Map<String, String> summary = snapshot.summary();
    String run = summary.get(LineageKeys.RUN_ID);
    return run == null
        ? "operation " + snapshot.operation() + ", not a Floe run"
        : "run " + run + " of job " + summary.get(LineageKeys.JOB);
  }
}
