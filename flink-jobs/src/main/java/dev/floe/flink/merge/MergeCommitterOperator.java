package dev.floe.flink.merge;

import dev.floe.catalog.config.Catalogs;
import dev.floe.flink.commit.CommitMessages;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.commit.OutcomeLog;
import dev.floe.flink.commit.SliceCommitterOperator;
import dev.floe.flink.write.RowGuard;
import org.apache.flink.api.common.accumulators.ListAccumulator;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalSerializers;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.catalog.Catalog;

/**
 * The keyed modes' single committer (parallelism 1): guards every source row, reduces the source to
 * one row per key as rows arrive, and at end of input hands the batch to {@link KeyedCommitter},
 * which probes and rewrites the target's files on as many threads as the job's parallelism. Like
 * the overwrite committer, it commits inside the job, so detached {@code flink run} stays correct,
 * and reports its outcome as an accumulator.
 */
public final class MergeCommitterOperator extends AbstractStreamOperator<Void>
    implements OneInputStreamOperator<RowData, Void>, BoundedOneInput {

  private final MergePlan plan;
  private final RowType rowType;
  private final RowGuard guard;
  private final int threads;

  private transient SourceBatch batch;
  private transient TypeSerializer<RowData> serializer;
  private transient ListAccumulator<byte[]> outcome;

  /**
   * @param threads how many files the committer probes and rewrites at once: the job's parallelism,
   *     whose other tasks are done by the time the committer works
   */
  public MergeCommitterOperator(MergePlan plan, RowType rowType, RowGuard guard, int threads) {
    this.plan = plan;
    this.rowType = rowType;
    this.guard = guard;
    this.threads = threads;
  }

  @Override
  public void open() throws Exception {
    super.open();
    batch =
        new SourceBatch(
            plan.commit().target(), rowType, plan.key(), plan.ordering(), !plan.insertOnly());
    serializer = InternalSerializers.create(rowType);
    outcome = new ListAccumulator<>();
    getRuntimeContext().addAccumulator(SliceCommitterOperator.OUTCOME_ACCUMULATOR, outcome);
  }

  @Override
  public void processElement(StreamRecord<RowData> element) {
    RowData row = element.getValue();
    guard.check(row);
    // Object reuse is on: the batch keeps rows, so it keeps copies.
    batch.add(serializer.copy(row));
  }

  @Override
  public void endInput() {
    Catalog catalog = Catalogs.open(plan.commit().catalog());
    try {
      // All of them run in this TaskManager: never more threads than it has cores (the files it
      // commits do not depend on the count).
      int workers = Math.max(1, Math.min(threads, Runtime.getRuntime().availableProcessors()));
      CommitOutcome result = new KeyedCommitter(catalog, plan, rowType, workers).commit(batch);
      OutcomeLog.log(plan.commit(), result);
      outcome.add(CommitMessages.encode(result));
    } finally {
      Catalogs.close(catalog);
    }
  }
}
