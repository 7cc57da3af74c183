package dev.floe.catalog.snapshot;

import dev.floe.catalog.commit.Attempt;
import dev.floe.catalog.commit.CommitAction;
import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.commit.RunCommit;
import dev.floe.catalog.commit.RunLookup;
import dev.floe.catalog.error.CommitConflictException;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.lineage.AuditBranch;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.lineage.StoredRows;
import dev.floe.catalog.slice.PartitionPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.HistoryEntry;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Moves a table's current snapshot back, reversibly: in the same metadata commit the current head
 * is tagged {@code floe-before-rollback-<n>}, so rolling back to that tag undoes the rollback. Like
 * Iceberg's pending updates, {@link #apply()} says what would happen ({@code --dry-run}) and {@link
 * #commit()} does it. Metadata only; no data is read or written.
 */
public final class Rollback {
  /**
   * Prefix of the tags that keep a rolled-back head reachable: {@code floe-before-rollback-<n>}.
   */
  public static final String TAG_PREFIX = "floe-before-rollback-";

  private final Table table;
  private final String name;
  private Long toSnapshotId;
  private Instant toTime;
  private String beforeRun;
  private boolean allowNonAncestor;
  private FailurePoint failAt = FailurePoint.NONE;

  private Rollback(Table table, String name) {
    this.table = table;
    this.name = name;
  }

  /**
   * @param table the table
   * @param name its name, for messages
   */
  public static Rollback of(Table table, String name) {
    return new Rollback(table, name);
  }

  /** Roll back to this snapshot. */
  public Rollback toSnapshot(long snapshotId) {
    this.toSnapshotId = snapshotId;
    return this;
  }

  /** Roll back to the snapshot that was current at this instant. */
  public Rollback toTime(Instant time) {
    this.toTime = time;
    return this;
  }

  /** Roll back to the parent of the snapshot this Floe run committed. */
  public Rollback beforeRun(String runId) {
    this.beforeRun = runId;
    return this;
  }

  /** Allow a target that is not an ancestor of the current snapshot (e.g. undoing a rollback). */
  public Rollback allowNonAncestor(boolean allow) {
    this.allowNonAncestor = allow;
    return this;
  }

  /**
   * What the rollback would do; changes nothing.
   *
   * @throws InvalidInputException for a target that cannot be found, none or several targets, or a
   *     non-ancestor target without {@link #allowNonAncestor}
   */
  public RollbackPlan apply() {
    long target = target();
    Snapshot head = table.currentSnapshot();
    boolean ancestor = head != null && SnapshotUtil.isAncestorOf(table, head.snapshotId(), target);
    if (!ancestor && !allowNonAncestor) {
      Optional<Snapshot> cut = RunLookup.mainHistoryCut(table);
      if (RunLookup.olderThanCut(table, table.snapshot(target), cut)) {
        throw InvalidInputException.of(
            "Cannot roll %s back to snapshot %d: an expiry cut main's history after it (main's"
                + " kept history ends at snapshot %d), so whether it is an ancestor of the current"
                + " snapshot %d cannot be told; pass --allow-non-ancestor to make it current"
                + " anyway",
            name, target, cut.get().snapshotId(), head.snapshotId());
      }
      throw InvalidInputException.of(
          "Cannot roll %s back to snapshot %d: it is not an ancestor of the current snapshot %s;"
              + " pass --allow-non-ancestor to make it current anyway (e.g. to undo a rollback)",
          name, target, head == null ? "(none)" : head.snapshotId());
    }
    // A head whose metadata cannot be read (see RunCommit's readability check) is exactly what
    // a rollback repairs: its side of the comparison is then unknown, shown as empty.
    Map<String, Set<String>> filesBefore =
        head == null ? Map.of() : readableOrEmpty(() -> filesPerPartition(head.snapshotId()));
    Map<String, Set<String>> filesAfter = filesPerPartition(target);
    Set<String> changed = new TreeSet<>();
    Set<String> partitions = new TreeSet<>(filesBefore.keySet());
    partitions.addAll(filesAfter.keySet());
    for (String partition : partitions) {
      if (!Objects.equals(filesBefore.get(partition), filesAfter.get(partition))) {
        changed.add(partition);
      }
    }
    return new RollbackPlan(
        name,
        head == null ? null : head.snapshotId(),
        target,
        nextTag(),
        ancestor,
        head == null
            ? Map.of()
            : readableOrEmpty(() -> rowsPerPartition(head.snapshotId(), changed)),
        rowsPerPartition(target, changed),
        changed);
  }

  /**
   * Tags the current head and makes the target current, in one metadata commit. A rollback whose
   * target already is current (a rerun) changes nothing and adds no tag.
   */
  public RollbackPlan commit() {
    RollbackPlan plan = apply();
    if (plan.changesNothing()) {
      return plan;
    }
    return RunCommit.of(table, new RollbackCommit(plan)).failAt(failAt).commit();
  }

  /**
   * The rollback as the commit core sees it: it made no snapshot, so it has landed when the head is
   * the target and the tag keeps the old head.
   */
  private final class RollbackCommit implements CommitAction<RollbackPlan> {
    private final RollbackPlan plan;

    RollbackCommit(RollbackPlan plan) {
      this.plan = plan;
    }

    @Override
    public String subject() {
      return "the rollback of " + name + " to snapshot " + plan.toSnapshotId();
    }

    @Override
    public String target() {
      return name;
    }

    @Override
    public String runId() {
      return null;
    }

    @Override
    public Optional<Snapshot> findCommitted(Table refreshed) {
      SnapshotRef tag = refreshed.refs().get(plan.tag());
      Snapshot head = refreshed.currentSnapshot();
      boolean tagged =
          plan.fromSnapshotId() == null
              || (tag != null && tag.snapshotId() == plan.fromSnapshotId());
      return head != null && head.snapshotId() == plan.toSnapshotId() && tagged
          ? Optional.of(head)
          : Optional.empty();
    }

    /**
     * The tag and the move of main, committed against exactly the metadata the plan was checked on:
     * Iceberg's own {@code manageSnapshots()} would re-apply the move to whatever the head is by
     * then, and so drop a run that committed meanwhile from every branch.
     */
    @Override
    public Attempt<RollbackPlan> prepare(Table refreshed, int attempt) {
      TableOperations ops = ((HasTableOperations) refreshed).operations();
      TableMetadata base = ops.current();
      Snapshot head = base.currentSnapshot();
      Long headId = head == null ? null : head.snapshotId();
      if (!Objects.equals(headId, plan.fromSnapshotId())) {
        throw moved("its head moved to snapshot " + headId + " after the rollback was planned");
      }
      if (base.ref(plan.tag()) != null) {
        throw moved("another rollback tagged " + plan.tag() + " meanwhile");
      }
      TableMetadata.Builder update = TableMetadata.buildFrom(base);
      if (plan.fromSnapshotId() != null) {
        update.setRef(plan.tag(), SnapshotRef.tagBuilder(plan.fromSnapshotId()).build());
      }
      update.setBranchSnapshot(plan.toSnapshotId(), SnapshotRef.MAIN_BRANCH);
      TableMetadata updated = update.build();
      return Attempt.commit(
          () -> {
            try {
              ops.commit(base, updated);
            } catch (CommitFailedException changed) {
              // The catalog refused: the table changed since `base`. Nothing was committed.
              throw new ValidationException(changed, "%s", changed.getMessage());
            }
          });
    }

    private CommitConflictException moved(String why) {
      return new CommitConflictException(
          String.format(
              "Cannot roll %s back to snapshot %d: %s; nothing was changed; run the rollback"
                  + " again",
              name, plan.toSnapshotId(), why));
    }

    @Override
    public Optional<RollbackPlan> onConflict(
        Table refreshed, ValidationException conflict, int attempt) {
      throw moved("the table changed while rolling back (" + conflict.getMessage() + ")");
    }

    @Override
    public RollbackPlan committed(Table refreshed, Snapshot snapshot, int attempt) {
      return plan;
    }
  }

  /** A failure to inject in the commit (tests and rehearsals). */
  public Rollback failAt(FailurePoint point) {
    this.failAt = point;
    return this;
  }

  private long target() {
    int given =
        (toSnapshotId != null ? 1 : 0) + (toTime != null ? 1 : 0) + (beforeRun != null ? 1 : 0);
    if (given != 1) {
      throw InvalidInputException.of(
          "Cannot roll %s back: give exactly one of --to-snapshot, --to-time, --before-run (got %d)",
          name, given);
    }
    if (toSnapshotId != null) {
      if (table.snapshot(toSnapshotId) == null) {
        throw InvalidInputException.of(
            "Cannot roll %s back to snapshot %d: no such snapshot (expired, or of another table)",
            name, toSnapshotId);
      }
      return toSnapshotId;
    }
    if (toTime != null) {
      try {
        return SnapshotUtil.snapshotIdAsOfTime(table, toTime.toEpochMilli());
      } catch (IllegalArgumentException e) {
        throw InvalidInputException.of(
            "Cannot roll %s back to %s: no snapshot was current then (%s)",
            name, toTime, e.getMessage());
      }
    }
    for (Snapshot s : SnapshotUtil.currentAncestors(table)) {
      if (beforeRun.equals(s.summary().get(LineageKeys.RUN_ID))) {
        if (s.parentId() == null) {
          throw InvalidInputException.of(
              "Cannot roll %s back to before run %s: it made the table's first snapshot %d, and"
                  + " there is no snapshot before it to make current; `floe revert %s --run %s`"
                  + " undoes that run with a new snapshot",
              name, beforeRun, s.snapshotId(), ShellWord.of(name), ShellWord.of(beforeRun));
        }
        if (table.snapshot(s.parentId()) == null) {
          throw InvalidInputException.of(
              "Cannot roll %s back to before run %s: its parent snapshot %d was expired, so the"
                  + " table as it was before the run is no longer known; `floe snapshots %s` lists"
                  + " the snapshots kept",
              name, beforeRun, s.parentId(), ShellWord.of(name));
        }
        return s.parentId();
      }
    }
    Snapshot head = table.currentSnapshot();
    SnapshotRef audit = table.refs().get(AuditBranch.of(beforeRun));
    // Main's snapshot log proves that main held a snapshot, never that it did not: it is only
    // evidence while it reaches back to before the run (an expiry clears the entries before it).
    List<HistoryEntry> log = table.history();
    Set<Long> everCurrent = new HashSet<>();
    log.forEach(entry -> everCurrent.add(entry.snapshotId()));
    long logStart = log.isEmpty() ? Long.MAX_VALUE : log.get(0).timestampMillis();
    // Any snapshot of the run main held (its own, or its copy cherry-picked by a publish).
    boolean heldByMain = false;
    for (Snapshot s : table.snapshots()) {
      heldByMain |=
          beforeRun.equals(s.summary().get(LineageKeys.RUN_ID))
              && everCurrent.contains(s.snapshotId());
    }
    for (Snapshot s : table.snapshots()) {
      if (beforeRun.equals(s.summary().get(LineageKeys.RUN_ID))
          && head != null
          && s.parentId() != null
          && s.parentId() == head.snapshotId()) {
        if (logStart <= s.timestampMillis() && !heldByMain) {
          // The head is where the audit forked, not a rollback that already happened.
          throw InvalidInputException.of(
              audit != null && audit.isBranch()
                  ? "Cannot roll %s back to before run %s: the run is on its audit branch %s and"
                      + " main never held it; nothing to roll back (`floe discard %s --run %s`"
                      + " drops the branch)"
                  : "Cannot roll %s back to before run %s: main never held the run and its"
                      + " audit branch %s is gone (discarded, or dropped by a publish that found"
                      + " main already holding its content); nothing to roll back",
              name,
              beforeRun,
              AuditBranch.of(beforeRun),
              ShellWord.of(name),
              ShellWord.of(beforeRun));
        }
        return head.snapshotId(); // rolled back before the run already: a rerun changes nothing
      }
    }
    throw InvalidInputException.of(
        "Cannot roll %s back to before run %s: no snapshot of the current history has that run id"
            + " (see `floe snapshots %s`)",
        name, beforeRun, ShellWord.of(name));
  }

  private String nextTag() {
    int n = 1;
    while (table.refs().containsKey(TAG_PREFIX + n)) {
      n++;
    }
    return TAG_PREFIX + n;
  }

  private static <V> Map<String, V> readableOrEmpty(
      java.util.function.Supplier<Map<String, V>> read) {
    try {
      return read.get();
    } catch (RuntimeException unreadable) {
      return Map.of();
    }
  }

  /** Data file paths per partition path at a snapshot (no data read). */
  private Map<String, Set<String>> filesPerPartition(long snapshotId) {
    Map<String, Set<String>> files = new TreeMap<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(snapshotId).planFiles()) {
      for (FileScanTask task : tasks) {
        files.computeIfAbsent(partition(task), p -> new TreeSet<>()).add(task.file().location());
        task.deletes().forEach(d -> files.get(partition(task)).add(d.location()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the files of " + name, e);
    }
    return files;
  }

  private static String partition(FileScanTask task) {
    return task.spec().isPartitioned()
        ? PartitionPaths.of(task.spec(), task.file().partition())
        : "(table)";
  }

  /**
   * Rows per partition path at a snapshot: from data file metadata, except that in the {@code
   * exact} partitions a data file with delete files is read with them applied, so that the rows a
   * rollback brings back or removes there are counted as a reader sees them.
   */
  private Map<String, Long> rowsPerPartition(long snapshotId, Set<String> exact) {
    Map<String, Long> rows = new TreeMap<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(snapshotId).planFiles()) {
      for (FileScanTask task : tasks) {
        String partition = partition(task);
        rows.merge(
            partition,
            exact.contains(partition)
                ? StoredRows.liveRowCount(table, task.spec(), task.file(), task.deletes())
                : task.file().recordCount(),
            Long::sum);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the files of " + name, e);
    }
    return rows;
  }
}
