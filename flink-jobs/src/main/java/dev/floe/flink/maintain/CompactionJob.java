package dev.floe.flink.maintain;

import dev.floe.catalog.commit.RunLookup;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.CommitStateUnknownException;
import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.error.TimedOutException;
import dev.floe.flink.commit.CommitMessages;
import dev.floe.flink.job.Deadline;
import dev.floe.flink.job.DeadlineExecution;
import dev.floe.flink.job.JobFailures;
import dev.floe.flink.session.FlinkSessions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.iceberg.SerializableTable;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The compaction as a Flink batch job: the planned groups → parallel {@link GroupRewriter}s → one
 * {@link CompactionCommitterOperator}. When the job fails, no slice of it was committed unless its
 * run id is in the history; the files of every other slice are found by their deterministic names
 * and deleted.
 */
final class CompactionJob {
  private static final Logger LOG = LoggerFactory.getLogger(CompactionJob.class);
  private static final TypeInformation<byte[]> BYTES =
      PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO;

  /** Reads the clock for the deadline only. */
  private static final Clock CLOCK = Clock.systemUTC();

  private CompactionJob() {}

  /**
   * @param deadline when the compaction must be done by, or null
   * @return the outcome of every slice that had groups, by slice index
   * @throws FloeException or IllegalStateException when the job failed (after the cleanup); {@link
   *     TimedOutException} when it ran past {@code deadline} and was cancelled
   */
  static Map<Integer, SliceCompaction> run(
      CompactionPlan plan, Table table, int parallelism, Deadline deadline) {
    if (deadline != null && deadline.passed(CLOCK)) {
      throw new TimedOutException(
          String.format(
              "Cannot compact %s: %s before its Flink job started; nothing was committed",
              plan.table(), deadline.reason()));
    }
    List<RewriteGroup> groups = plan.groups();
    StreamExecutionEnvironment env =
        FlinkSessions.batchEnvironment(parallelism, jobConfiguration());
    int rewriters = Math.max(1, Math.min(groups.size(), env.getParallelism()));
    List<byte[]> encoded = new ArrayList<>();
    groups.forEach(g -> encoded.add(CommitMessages.encode(g)));
    env.fromData(encoded, BYTES)
        .name("floe-compact-plan " + plan.table())
        .rebalance()
        .transform(
            "floe-compact-rewrite " + plan.table(),
            BYTES,
            new GroupRewriter(
                SerializableTable.copyOf(table),
                plan.targetFileSizeBytes(),
                plan.failAt(),
                plan.layout()))
        .setParallelism(rewriters)
        .transform(
            "floe-compact-commit " + plan.table(),
            Types.VOID,
            new CompactionCommitterOperator(plan, deadline))
        .setParallelism(1)
        .setMaxParallelism(1)
        .sinkTo(new DiscardingSink<>())
        .setParallelism(1);
    JobExecutionResult result;
    String name = "floe maintain --compact " + plan.table();
    try {
      result =
          deadline == null
              ? env.execute(name)
              : DeadlineExecution.execute(env, name, deadline, CLOCK);
    } catch (DeadlineExecution.Cancelled cancelled) {
      throw timedOut(plan, deadline, cancelled);
    } catch (Exception e) {
      List<String> committed = deleteUncommitted(plan);
      FloeException floe = JobFailures.findFloeException(e);
      if (floe != null) {
        throw floe;
      }
      throw new IllegalStateException(
          "Cannot compact "
              + plan.table()
              + ": "
              + JobFailures.rootMessage(e)
              + (committed.isEmpty()
                  ? "; nothing was committed"
                  : "; committed before the failure: " + String.join(", ", committed)),
          e);
    }
    Map<Integer, SliceCompaction> outcomes = new TreeMap<>();
    if (result == null || !result.isJobExecutionResult()) {
      return outcomes; // `flink run -d`: the committer reports in the job's log
    }
    List<byte[]> reported =
        result.getAccumulatorResult(CompactionCommitterOperator.OUTCOME_ACCUMULATOR);
    int next = 0;
    for (PlannedSlice slice : plan.slices()) {
      if (!slice.groups().isEmpty()) {
        outcomes.put(
            slice.index(),
            CommitMessages.decode(reported.get(next++), CompactionJob.class.getClassLoader()));
      }
    }
    return outcomes;
  }

  private static Configuration jobConfiguration() {
    Configuration conf = new Configuration();
    // Only byte[] crosses operators; a Kryo fallback would be a bug, so it fails the job instead.
    conf.set(PipelineOptions.GENERIC_TYPES, false);
    return conf;
  }

  /**
   * The job was cancelled at its deadline: the slices whose commits are in the history stay
   * compacted, the files of the others are deleted. A job that has not stopped keeps its files: its
   * committer may still be at work.
   */
  private static FloeException timedOut(
      CompactionPlan plan, Deadline deadline, DeadlineExecution.Cancelled cancelled) {
    if (!cancelled.stopped()) {
      return new CommitStateUnknownException(
          String.format(
              "Cannot tell what the compaction of %s committed: it %s and its Flink job was"
                  + " cancelled, but had not stopped %d minutes later; its files were kept;"
                  + " check `floe snapshots %s`",
              plan.table(),
              deadline.reason(),
              DeadlineExecution.STOP_WAIT.toMinutes(),
              ShellWord.of(plan.table())),
          cancelled);
    }
    List<String> committed = deleteUncommitted(plan);
    return new TimedOutException(
        String.format(
            "Cannot compact %s: %s; its Flink job was cancelled and %s",
            plan.table(),
            deadline.reason(),
            committed.isEmpty()
                ? "nothing was committed"
                : "only "
                    + String.join(", ", committed)
                    + " had been committed (their rows unchanged); the other slices' files were"
                    + " deleted"),
        cancelled);
  }

  /**
   * Deletes the output files of every slice whose commit is not in the history. A slice the
   * committer did commit before the job failed keeps its (live) files; its label is returned.
   */
  private static List<String> deleteUncommitted(CompactionPlan plan) {
    List<String> committed = new ArrayList<>();
    Catalog catalog = Catalogs.open(plan.catalog());
    try {
      Table table = Catalogs.loadTable(catalog, plan.table());
      List<RewriteGroup> uncommitted = new ArrayList<>();
      for (PlannedSlice slice : plan.slices()) {
        if (RunLookup.onMain(table, slice.runId()).isEmpty()) {
          uncommitted.addAll(slice.groups());
        } else {
          committed.add(slice.slice().label());
        }
      }
      int deleted = OutputFiles.deleteLeftovers(table, uncommitted);
      LOG.info("Compaction of {} failed; deleted {} uncommitted file(s)", plan.table(), deleted);
    } catch (RuntimeException cleanupFailed) {
      LOG.warn(
          "Cannot delete the files of the failed compaction of {}: {}",
          plan.table(),
          cleanupFailed.toString());
    } finally {
      Catalogs.close(catalog);
    }
    return committed;
  }
}
