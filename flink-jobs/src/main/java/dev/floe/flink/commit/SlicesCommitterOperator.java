package dev.floe.flink.commit;

import dev.floe.catalog.commit.UncommittedFiles;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.flink.check.CheckStats;
import dev.floe.flink.check.DuplicateKeys;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.accumulators.ListAccumulator;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/**
 * The single committer (parallelism 1) of a job that loads several consecutive slices at once.
 * Gathers every writer's result per slice and, at end of input, commits the slices one after the
 * other, in order, each through {@link SliceCommitter} with its own plan: its own checks, no-op
 * detection, lineage and snapshot, exactly as a run of that slice alone would. A slice whose commit
 * fails does not stop the next ones, unless {@code stopAtFirstFailure} or its outcome is unknown;
 * then the slices after it are not committed and their files are deleted. Each slice's result goes
 * back to the client in the {@link #RESULTS_ACCUMULATOR}, in slice order.
 */
public final class SlicesCommitterOperator extends AbstractStreamOperator<Void>
    implements OneInputStreamOperator<byte[], Void>, BoundedOneInput {
  public static final String RESULTS_ACCUMULATOR = "floe-slice-commit-results";

  private final List<CommitPlan> plans;
  private final boolean stopAtFirstFailure;

  private transient List<List<DataFile>> files;
  private transient List<ContentHash> hashes;
  private transient List<CheckStats> stats;
  private transient List<DuplicateKeys> duplicates;
  private transient ListAccumulator<byte[]> results;

  /** Slices from this index on have not started committing; all of them once the loop ended. */
  private transient int notStarted;

  /**
   * @param plans every slice's commit plan, in slice order; all for the same target
   * @param stopAtFirstFailure leave the slices after a failed one uncommitted
   */
  public SlicesCommitterOperator(List<CommitPlan> plans, boolean stopAtFirstFailure) {
    this.plans = List.copyOf(plans);
    this.stopAtFirstFailure = stopAtFirstFailure;
  }

  @Override
  public void open() throws Exception {
    super.open();
    files = new ArrayList<>();
    hashes = new ArrayList<>();
    stats = new ArrayList<>();
    duplicates = new ArrayList<>();
    for (int i = 0; i < plans.size(); i++) {
      files.add(new ArrayList<>());
      hashes.add(ContentHash.empty());
      stats.add(new CheckStats());
      duplicates.add(new DuplicateKeys());
    }
    results = new ListAccumulator<>();
    getRuntimeContext().addAccumulator(RESULTS_ACCUMULATOR, results);
    notStarted = 0;
  }

  @Override
  public void processElement(StreamRecord<byte[]> element) {
    CommitMessage message = CommitMessages.decode(element.getValue(), getUserCodeClassloader());
    if (message instanceof CommitMessage.SliceWritten sliceWritten) {
      int slice = sliceWritten.slice();
      CommitMessage.Written written = sliceWritten.written();
      files.get(slice).addAll(written.files());
      hashes.get(slice).merge(written.hash());
      stats.get(slice).merge(written.stats());
    } else if (message instanceof CommitMessage.DuplicateKeyHashes duplicate) {
      int checks = plans.get(0).checks().size();
      int slice = duplicate.checkIndex() / checks;
      duplicates.get(slice).add(duplicate.checkIndex() % checks, duplicate.hashes());
    } else {
      throw new IllegalStateException(
          "Cannot commit several slices: unexpected message " + message.getClass().getName());
    }
  }

  @Override
  public void endInput() {
    Catalog catalog = Catalogs.open(plans.get(0).catalog());
    try {
      boolean stopped = false;
      Set<Long> own = new HashSet<>();
      Table table = null;
      for (int i = 0; i < plans.size(); i++) {
        notStarted = i + 1;
        CommitPlan plan = plans.get(i);
        if (stopped) {
          table = deleteFiles(catalog, table, plan, files.get(i));
          results.add(encode(new SliceCommitResult(i, null, null, ExitCodes.OK)));
          continue;
        }
        SliceCommitResult result;
        try {
          // Refreshed once per slice: the validation base and the commit read the same state. One
          // table for all slices: the metadata a commit wrote and read back is not parsed again.
          table = current(catalog, table, plan.target());
          CommitOutcome outcome =
              new SliceCommitter(catalog, validatingFrom(table, plan, own))
                  .commit(table, files.get(i), hashes.get(i), stats.get(i), duplicates.get(i));
          OutcomeLog.log(plan, outcome);
          if (outcome.status() == CommitOutcome.Status.COMMITTED) {
            own.add(outcome.snapshotId());
          }
          result = new SliceCommitResult(i, outcome, null, ExitCodes.OK);
        } catch (RuntimeException e) {
          if (getContainingTask().isCanceled()
              || Thread.currentThread().isInterrupted()
              || interrupted(e)) {
            // The job is being cancelled: commit nothing more. close() keeps this slice's files
            // (its commit may have been under way) and deletes those of the slices after it.
            throw e;
          }
          LOG.warn("Cannot commit slice {} of {}", plan.scope().label(), plan.target(), e);
          result = new SliceCommitResult(i, null, firstLine(e), exitCode(e));
          // After an unknown outcome nothing more is committed: the slices after it end as not
          // run, and only that slice's files are kept, as for a run of its own.
          stopped = stopAtFirstFailure || exitCode(e) == ExitCodes.COMMIT_STATE_UNKNOWN;
        }
        results.add(encode(result));
      }
    } finally {
      Catalogs.close(catalog);
    }
  }

  /**
   * The target as the catalog has it now: {@code table} refreshed, or loaded as each slice's commit
   * once loaded it, when there is no table yet or its refresh fails or leaves it without metadata.
   * A dropped table's refresh fails (a JDBC, REST or Hadoop catalog) or finds nothing (a Hadoop
   * catalog's table that was never committed to); the load then reports the table as missing, exit
   * 2, as a run does. Any other failure of the refresh fails the load too, or the load follows a
   * table re-created under the name, as a fresh load did.
   */
  static Table current(Catalog catalog, Table table, String target) {
    if (table != null) {
      try {
        table.refresh();
        if (!(table instanceof HasTableOperations operations)
            || operations.operations().current() != null) {
          return table;
        }
      } catch (RuntimeException refreshFailed) {
        LOG.debug("Cannot refresh {}; loading it again", target, refreshFailed);
      }
    }
    return Catalogs.loadTable(catalog, target);
  }

  /**
   * Deletes the files of a slice that is not committed after a stop, with the table the commits
   * used, or loaded now when no commit got as far as loading it.
   *
   * @return the table used, for the next stopped slice; null when it could not be loaded
   */
  static Table deleteFiles(
      Catalog catalog, Table table, CommitPlan plan, List<DataFile> sliceFiles) {
    try {
      Table used = table != null ? table : Catalogs.loadTable(catalog, plan.target());
      UncommittedFiles.delete(used, sliceFiles);
      return used;
    } catch (RuntimeException e) {
      LOG.warn(
          "Cannot delete the files of {}'s uncommitted slice {}: {}",
          plan.target(),
          plan.scope().label(),
          e.toString());
      return null;
    }
  }

  /**
   * When the job is cancelled or fails before every slice's commit was tried, deletes the files of
   * the slices whose commit had not started: nothing can make them live any more. The slice whose
   * commit was under way keeps its files (its outcome is unknown); the client looks its run id up.
   */
  @Override
  public void close() throws Exception {
    try {
      if (files != null && notStarted < plans.size()) {
        Catalog catalog = Catalogs.open(plans.get(0).catalog());
        try {
          Table table = Catalogs.loadTable(catalog, plans.get(0).target());
          for (int i = notStarted; i < plans.size(); i++) {
            UncommittedFiles.delete(table, files.get(i));
          }
        } catch (RuntimeException e) {
          LOG.warn(
              "Cannot delete the files of {}'s uncommitted slices: {}",
              plans.get(0).target(),
              e.toString());
        } finally {
          Catalogs.close(catalog);
        }
      }
    } finally {
      super.close();
    }
  }

  /**
   * The plan of the next slice, validating from {@link #validationBase}. Only for commits to main,
   * whose history that reads.
   */
  private static CommitPlan validatingFrom(Table table, CommitPlan plan, Set<Long> own) {
    if (own.isEmpty() || plan.branch() != null) {
      return plan;
    }
    return plan.validatingFrom(validationBase(table, plan.startSnapshotId(), own));
  }

  /**
   * The snapshot the next slice's commit validates from: the table's head when every snapshot on
   * main since {@code start} is one of {@code own}, this committer's commits of other slices, which
   * replace those slices only, so that Iceberg's validation of them could find no conflict; this
   * keeps each commit's cost from growing with the slices committed before it. Otherwise (anyone
   * else's snapshot in between, a snapshot in between expired, or {@code start} no longer an
   * ancestor of the head) {@code start}: the whole window is validated.
   *
   * @param start the table's head when the job started, or null when it was empty
   */
  static Long validationBase(Table table, Long start, Set<Long> own) {
    Snapshot head = table.currentSnapshot();
    for (Snapshot s = head; s != null && !Long.valueOf(s.snapshotId()).equals(start); ) {
      if (!own.contains(s.snapshotId())) {
        return start;
      }
      if (s.parentId() == null) {
        return start == null ? head.snapshotId() : start; // reached the first snapshot
      }
      s = table.snapshot(s.parentId());
      if (s == null) {
        return start; // expired
      }
    }
    return head == null ? start : head.snapshotId();
  }

  /** Whether the failure comes from the task thread being interrupted (a cancel). */
  private static boolean interrupted(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof InterruptedException
          || t instanceof java.io.InterruptedIOException
          || t instanceof java.nio.channels.ClosedByInterruptException) {
        return true;
      }
    }
    return false;
  }

  private static byte[] encode(SliceCommitResult result) {
    return CommitMessages.encode(result);
  }

  private static int exitCode(RuntimeException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof FloeException floe) {
        return floe.exitCode();
      }
    }
    return ExitCodes.UNEXPECTED;
  }

  private static String firstLine(RuntimeException e) {
    String message = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
