package dev.floe.flink.merge;

import dev.floe.flink.write.RowGuard;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The Flink side of merge and insert-if-absent: the query runs in parallel, and its rows flow into
 * one {@link MergeCommitterOperator}. The batch is the source's changes, held in memory by key; the
 * work that grows with the target (reading and rewriting files) is limited to the files whose key
 * bounds could hold a key of the batch, and spread over the job's parallelism in threads of the
 * committer.
 */
public final class MergePipeline {

  private MergePipeline() {}

  public static void build(
      DataStream<RowData> rows, MergePlan plan, RowGuard guard, RowType rowType) {
    rows.transform(
            "floe-" + plan.commit().mode().text() + " " + plan.commit().target(),
            Types.VOID,
            new MergeCommitterOperator(plan, rowType, guard, threads(rows)))
        .setParallelism(1)
        .setMaxParallelism(1)
        .sinkTo(new DiscardingSink<>())
        .setParallelism(1);
  }

  /**
   * The committer's threads: the job's parallelism. By the time it probes and rewrites, the query's
   * tasks have finished, so the slots the job holds are free for its file work.
   */
  private static int threads(DataStream<RowData> rows) {
    int job = rows.getExecutionEnvironment().getParallelism();
    return Math.max(1, job > 0 ? job : rows.getParallelism());
  }
}
