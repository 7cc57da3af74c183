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
 * bounds could hold a key of the batch.
 */
public final class MergePipeline {

  private MergePipeline() {}

  public static void build(
      DataStream<RowData> rows, MergePlan plan, RowGuard guard, RowType rowType) {
    rows.transform(
            "floe-" + plan.commit().mode().text() + " " + plan.commit().target(),
            Types.VOID,
            new MergeCommitterOperator(plan, rowType, guard))
        .setParallelism(1)
        .setMaxParallelism(1)
        .sinkTo(new DiscardingSink<>())
        .setParallelism(1);
  }
}
