package dev.floe.flink.maintain;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.commit.InjectedFailureException;
import dev.floe.catalog.commit.UncommittedFiles;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.flink.commit.CommitMessages;
import dev.floe.flink.job.Deadline;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.accumulators.ListAccumulator;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.catalog.Catalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The compaction job's single committer (parallelism 1): gathers every rewritten group and, at end
 * of input, commits slice after slice, one snapshot each, through {@link CompactionCommitter}. A
 * slice that cannot be committed is reported and the next one is tried. Outcomes go back to the
 * client as an accumulator, one entry per slice.
 */
final class CompactionCommitterOperator extends AbstractStreamOperator<Void>
    implements OneInputStreamOperator<byte[], Void>, BoundedOneInput {
  static final String OUTCOME_ACCUMULATOR = "floe-compaction-outcomes";
  private static final Logger LOG = LoggerFactory.getLogger(CompactionCommitterOperator.class);

  private final CompactionPlan plan;
  private final Deadline deadline;
  private final Clock clock = Clock.systemUTC();

  private transient Map<Integer, List<Rewritten>> bySlice;
  private transient ListAccumulator<byte[]> outcomes;

  /**
   * @param deadline no slice's commit starts after it (null: none)
   */
  CompactionCommitterOperator(CompactionPlan plan, Deadline deadline) {
    this.plan = plan;
    this.deadline = deadline;
  }

  @Override
  public void open() throws Exception {
    super.open();
    bySlice = new TreeMap<>();
    outcomes = new ListAccumulator<>();
    getRuntimeContext().addAccumulator(OUTCOME_ACCUMULATOR, outcomes);
  }

  @Override
  public void processElement(StreamRecord<byte[]> element) {
    Rewritten rewritten = CommitMessages.decode(element.getValue(), getUserCodeClassloader());
    bySlice.computeIfAbsent(rewritten.sliceIndex(), i -> new ArrayList<>()).add(rewritten);
  }

  @Override
  public void endInput() {
    plan.failAt()
        .failIf(FailurePoint.AFTER_ALL_FILES, "after all compacted files of " + plan.table());
    Catalog catalog = Catalogs.open(plan.catalog());
    try {
      CompactionCommitter committer = new CompactionCommitter(catalog, plan);
      for (PlannedSlice slice : plan.slices()) {
        if (slice.groups().isEmpty()) {
          continue; // nothing to compact: reported by the client, never committed
        }
        SliceCompaction outcome;
        List<Rewritten> rewritten = bySlice.getOrDefault(slice.index(), List.of());
        if (deadline != null && deadline.passed(clock)) {
          report(timedOut(catalog, slice, rewritten));
          continue;
        }
        try {
          outcome = committer.commit(slice, rewritten);
        } catch (InjectedFailureException crash) {
          throw crash; // stands for the process dying: the job fails, as it would
        } catch (RuntimeException e) {
          // One slice's unexpected failure (files already cleaned up where that was safe) must
          // not keep the other slices from being compacted.
          outcome = committer.unexpected(slice, e);
        }
        report(outcome);
      }
    } finally {
      Catalogs.close(catalog);
    }
  }

  /**
   * Returns one slice's outcome to the client and writes it into the job's log: a detached
   * submission ({@code flink run -d}) has no client reading the accumulator.
   */
  private void report(SliceCompaction outcome) {
    LOG.info(
        "Floe compaction {} of {} for {}: {}, snapshot {}, exit code {}: {}",
        outcome.runId(),
        plan.table(),
        outcome.label(),
        outcome.status().text(),
        outcome.snapshotId(),
        outcome.exitCode(),
        outcome.detail());
    outcomes.add(CommitMessages.encode(outcome));
  }

  /** A slice reached after the deadline: never committed, its new files deleted, exit 6. */
  private SliceCompaction timedOut(Catalog catalog, PlannedSlice slice, List<Rewritten> rewritten) {
    List<DataFile> outputs = new ArrayList<>();
    rewritten.forEach(r -> outputs.addAll(r.outputs()));
    UncommittedFiles.delete(Catalogs.loadTable(catalog, plan.table()), outputs);
    return SliceCompaction.uncommitted(
        slice,
        SliceCompaction.Status.FAILED,
        ExitCodes.TIMED_OUT,
        "Cannot compact slice "
            + slice.slice().label()
            + " of "
            + plan.table()
            + ": "
            + deadline.reason()
            + " before its commit started; its files were deleted and nothing was committed");
  }
}
