package dev.floe.catalog.snapshot;

import dev.floe.catalog.commit.Attempt;
import dev.floe.catalog.commit.CommitAction;
import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.commit.RunCommit;
import dev.floe.catalog.error.CommitConflictException;
import dev.floe.catalog.error.CommitStateUnknownException;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.CodeVersion;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.lineage.RunKey;
import dev.floe.catalog.lineage.SnapshotFiles;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.SliceLabel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotChanges;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Undoes one Floe run without rolling back the runs after it: the rows the run owned (its slice, or
 * for a keyed run without a slice the partitions it changed) get back the content they had in the
 * run's parent snapshot, in ONE new snapshot. No data is rewritten: the commit removes the data
 * files of that region that are live now but were not in the parent, and re-adds the parent's files
 * that are not live now — taken from the parent's manifests. When no later commit touched the
 * region this is exactly the run's inverse (remove what it added, re-add what it removed), so files
 * the run did not touch keep their manifest entries.
 *
 * <p>Refused (exit 2) when a later commit changed the region, naming it, unless {@link #force}:
 * then the region is restored to the parent's content and those changes there are discarded. The
 * commit validates from the planned head with a conflict filter on the region, so a commit landing
 * in between makes it fail ({@link CommitConflictException}, exit 4) instead of overwriting newer
 * data. Like Iceberg's pending updates, {@link #apply()} plans ({@code --dry-run}) and {@link
 * #commit()} commits.
 *
 * <p>The revert snapshot records {@code floe.reverts=<run>}, a fresh {@code floe.run-id}, the same
 * {@code floe.slice}, {@code floe.mode=revert} and, when the region is the run's whole scope, the
 * content hash of what it restored. {@code revert} is not a mode that "replaces the scope" for
 * {@link SliceContent}, so no-op detection reads the slice after a revert rather than trusting any
 * hash: exact either way, and the hash recorded here is checked against a read in the tests.
 */
public final class Revert {
  /** The {@code floe.mode} of a revert commit. */
  public static final String MODE = "revert";

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
   *     expired, or delete files apply to the rows it would restore
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
      OverwriteFiles overwrite =
          table
              .newOverwrite()
              .conflictDetectionFilter(prepared.region().conflictFilter())
              .validateFromSnapshot(plan.headSnapshotId())
              .validateNoConflictingData()
              .validateNoConflictingDeletes();
      prepared.remove().forEach(overwrite::deleteFile);
      prepared.restore().forEach(overwrite::addFile);
      summary(plan).forEach(overwrite::set);
      beforeCommit.run();
      return Attempt.commit(overwrite::commit);
    }

    @Override
    public Optional<RevertPlan> onConflict(
        Table refreshed, ValidationException conflict, int attempt) {
      RevertPlan plan = prepared.plan();
      throw new CommitConflictException(
          String.format(
              "Cannot revert run %s of %s: another commit changed %s after the revert was planned"
                  + " on snapshot %d (%s); nothing was committed; run floe revert again to plan on"
                  + " the new head",
              runId, name, plan.region(), plan.headSnapshotId(), conflict.getMessage()),
          conflict);
    }

    @Override
    public RevertPlan committed(Table refreshed, Snapshot snapshot, int attempt) {
      return prepared.plan().committedAs(snapshot.snapshotId());
    }
  }

  /** The plan and the files behind it. */
  private record Prepared(
      RevertPlan plan, RevertRegion region, List<DataFile> remove, List<DataFile> restore) {}

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
      throw InvalidInputException.of(
          "Cannot revert run %s of %s: no snapshot of the current history has that run id (a run"
              + " that was rolled back or never published is not in it); see `floe snapshots %s`",
          runId, name, name);
    }
    Snapshot parent = run.parentId() == null ? null : table.snapshot(run.parentId());
    if (run.parentId() != null && parent == null) {
      throw InvalidInputException.of(
          "Cannot revert run %s of %s: its parent snapshot %d was expired, so what the run"
              + " replaced is no longer known",
          runId, name, run.parentId());
    }
    requireNoDeleteFiles(run);
    Optional<Lineage> lineage = Lineage.fromSummary(run.summary());
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
    List<LaterCommit> touching =
        later.stream()
            .filter(s -> !WriteMode.preservesContent(s.summary().get(LineageKeys.MODE)))
            .filter(region::touchedBy)
            .map(LaterCommit::of)
            .toList();
    List<DataFile> now = region.files(head, runId);
    List<DataFile> before = parent == null ? List.of() : region.files(parent, runId);
    Map<String, DataFile> nowByPath = byPath(now);
    Map<String, DataFile> beforeByPath = byPath(before);
    List<DataFile> remove =
        now.stream().filter(f -> !beforeByPath.containsKey(f.location())).toList();
    List<DataFile> restore =
        before.stream().filter(f -> !nowByPath.containsKey(f.location())).toList();
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
            remove.stream().map(DataFile::location).toList(),
            restore.stream().map(DataFile::location).toList(),
            rowsPerPartition(region, now),
            rowsPerPartition(region, before),
            restoredHash,
            UUID.randomUUID().toString(),
            null);
    return new Prepared(plan, region, remove, restore);
  }

  private void requireNoDeleteFiles(Snapshot run) {
    boolean deletes;
    try {
      SnapshotChanges changes = SnapshotFiles.changes(table, run);
      deletes =
          changes.addedDeleteFiles().iterator().hasNext()
              || changes.removedDeleteFiles().iterator().hasNext();
    } catch (RuntimeException e) {
      throw InvalidInputException.of(
          "Cannot revert run %s of %s: the manifests of its snapshot %d cannot be read (%s)",
          runId, name, run.snapshotId(), e.getMessage());
    }
    if (deletes) {
      throw InvalidInputException.of(
          "Cannot revert run %s of %s: its snapshot %d added or removed delete files; Floe reverts"
              + " copy-on-write commits only",
          runId, name, run.snapshotId());
    }
  }

  /** The lineage summary of the revert commit; no null values (Iceberg refuses them). */
  private Map<String, String> summary(RevertPlan plan) {
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

  private static Map<String, Long> rowsPerPartition(RevertRegion region, List<DataFile> files) {
    Map<String, Long> rows = new TreeMap<>();
    for (DataFile file : files) {
      rows.merge(region.partitionOf(file), file.recordCount(), Long::sum);
    }
    return rows;
  }
}
