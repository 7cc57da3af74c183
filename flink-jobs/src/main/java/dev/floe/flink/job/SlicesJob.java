package dev.floe.flink.job;

import dev.floe.catalog.commit.RunLookup;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.error.UnreachableException;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.Timeout;
import dev.floe.catalog.lineage.CodeVersion;
import dev.floe.catalog.lineage.ExactTypes;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.RunKey;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.catalog.spec.WritableProperties;
import dev.floe.flink.commit.CommitMessages;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.commit.CommitPlan;
import dev.floe.flink.commit.DuplicateKeyFinder;
import dev.floe.flink.commit.SliceCommitResult;
import dev.floe.flink.commit.SlicesCommitterOperator;
import dev.floe.flink.session.FlinkSessions;
import dev.floe.flink.session.LocalCluster;
import dev.floe.flink.session.SourcePins;
import dev.floe.flink.write.RowGuard;
import dev.floe.flink.write.SliceRouter;
import dev.floe.flink.write.SlicesWriterOperator;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.SerializableTable;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one overwrite job manifest for several consecutive slices as ONE Flink job: the query is
 * planned once, bound to the slices' union, its rows are routed to their slices by the slice column
 * ({@link SlicesWriterOperator}), and the committer commits every slice as its own snapshot, in
 * order, with its own checks, lineage and run id ({@link SlicesCommitterOperator}). The table ends
 * as after a run of each slice alone; what goes is the planning, scheduling and start-up of one
 * Flink job per slice.
 *
 * <p>Only for a query that {@link SplittableQuery} proves gives each slice the same rows read
 * together as read alone; otherwise {@link #run} returns why, and runs nothing.
 */
public final class SlicesJob {

  private static final Logger LOG = LoggerFactory.getLogger(SlicesJob.class);

  /** Reads the clock for the job's deadline only (never to decide what to process). */
  private static final Clock CLOCK = Clock.systemUTC();

  private SlicesJob() {}

  /**
   * How one slice of the job ended: committed or unchanged ({@code result}), failed ({@code error}
   * and {@code exitCode}), or not committed because an earlier slice failed (neither).
   */
  public record SliceRun(RunRequest request, RunResult result, String error, int exitCode) {}

  /**
   * @param slices one per slice, in order, when the job ran; null when it did not
   * @param notSplitBecause why the slices need a job each, or null when the job ran
   * @param failedAsAWhole the job failed on its own (not at its deadline): its slices that did not
   *     land failed with it, whatever their own rows, and a job of their own may load them
   */
  public record Result(List<SliceRun> slices, String notSplitBecause, boolean failedAsAWhole) {

    static Result notSplit(String because) {
      return new Result(null, because, false);
    }
  }

  /**
   * Runs the slices' requests as one job.
   *
   * @param requests one per slice, consecutive slices in order, all of the same manifest and
   *     catalog; their options may differ only in the failure they inject
   * @param stopAtFirstFailure commit no slice after one that failed
   * @param starting called once the query splits, right before the job is built and submitted
   * @throws FloeException when the job cannot be planned (every slice fails alike)
   */
  public static Result run(
      List<RunRequest> requests, boolean stopAtFirstFailure, Runnable starting) {
    long started = System.nanoTime(); // timing for the report only
    RunRequest first = requests.get(0);
    JobSpec spec = first.job();
    Catalog catalog;
    try {
      catalog = Catalogs.open(first.catalog());
    } catch (UnreachableException e) {
      throw e.during("run " + spec.job() + " for " + describe(requests));
    }
    LocalCluster cluster = null;
    try {
      org.apache.iceberg.Table target = Catalogs.loadTable(catalog, spec.target());
      List<Slice> slices = new ArrayList<>();
      for (RunRequest request : requests) {
        slices.add(
            SliceResolver.resolve(spec.target(), target, spec.sliceColumn(), request.sliceValue()));
      }
      for (int i = 1; i < slices.size(); i++) {
        if (!slices.get(i).start().equals(slices.get(i - 1).end())) {
          return Result.notSplit(
              "slices "
                  + slices.get(i - 1).value()
                  + " and "
                  + slices.get(i).value()
                  + " do not follow each other");
        }
      }
      Slice range =
          new Slice(
              spec.sliceColumn(),
              slices.get(0).kind(),
              slices.get(0).unit(),
              slices.get(0).start(),
              slices.get(slices.size() - 1).end());
      SliceJob.validateChecks(spec, target.schema());
      ExactTypes.require(
          "run " + spec.job(), spec.target(), target.schema(), ExactTypes.Path.FLINK);
      WritableProperties.require("run " + spec.job(), spec.target(), target.properties());
      Snapshot head = target.currentSnapshot();
      Long startSnapshotId = head == null ? null : head.snapshotId();

      int parallelism =
          first.options().parallelism() > 0 ? first.options().parallelism() : spec.parallelism();
      cluster = LocalCluster.forCommand(parallelism);
      StreamExecutionEnvironment env =
          FlinkSessions.batchEnvironment(parallelism, SliceJob.jobConfiguration(), cluster);
      SourcePins pins = new SourcePins();
      StreamTableEnvironment tableEnv = FlinkSessions.tableEnvironment(env, first.catalog(), pins);
      String boundQuery = QueryBinder.bind(spec.query(), range, spec.source());
      Table query = SliceJob.plan(tableEnv, boundQuery, spec);
      QueryInspector.Inspection inspection = QueryInspector.inspect(query);
      SliceJob.requireRerunSafe(spec, first.catalog().name(), inspection, catalog, target);
      SliceJob.requireExactText(spec, boundQuery, inspection, query);
      Optional<String> notSplit =
          SplittableQuery.whyNot(
              spec, inspection, query.getResolvedSchema().getColumnNames(), range);
      if (notSplit.isPresent()) {
        return Result.notSplit(notSplit.get());
      }
      starting.run();
      if (cluster != null) {
        cluster.startInBackground(); // overlaps with translating and building the job
      }
      RowType rowType = FlinkSchemaUtil.convert(target.schema());
      Table aligned = OutputSchema.align(query, rowType, spec.target(), spec.source());
      // The source reads the slices' files with at most the writers' parallelism, so that it
      // chains with them: read and write overlap instead of the whole read landing in a batch
      // shuffle before the first row is written.
      SliceJob.requireExactSources(catalog, first, inspection);
      SourceSplits.configure(
          tableEnv.getConfig(), env.getParallelism(), true); // SplittableQuery: row-wise
      Map<String, Long> sources = SliceJob.sourceSnapshots(first, inspection, pins);

      List<Scope> scopes = slices.stream().map(Scope::of).toList();
      List<CommitPlan> plans = new ArrayList<>();
      for (int i = 0; i < requests.size(); i++) {
        RunRequest request = requests.get(i);
        String runKey =
            RunKey.of(
                spec.job(),
                spec.target(),
                scopes.get(i).label(),
                spec.text(),
                CodeVersion.current());
        Lineage lineage =
            new Lineage(
                runKey,
                UUID.randomUUID().toString(),
                spec.job(),
                spec.mode().text(),
                scopes.get(i).label(),
                CodeVersion.current(),
                0,
                null,
                sources,
                request.options().backfillId());
        plans.add(
            new CommitPlan(
                request.catalog(),
                spec.target(),
                scopes.get(i),
                spec.mode(),
                spec.allowEmpty(),
                lineage,
                startSnapshotId,
                target.schema().schemaId(),
                spec.checks(),
                request.options()));
      }
      DataStream<RowData> rows = SliceJob.translate(tableEnv, aligned, spec);
      Deadline deadline = deadline(requests);
      buildPipeline(
          rows,
          target,
          rowType,
          new RowGuard(
              spec.target(), Scope.of(range), rowType, SliceJob.requiredColumns(target), List.of()),
          new SliceRouter(slices, rowType),
          slices,
          spec,
          plans,
          stopAtFirstFailure,
          env.getParallelism(),
          deadline,
          "run " + spec.job() + " for " + describe(requests));
      String name = "floe " + spec.job() + " " + describe(requests);
      JobExecutionResult result;
      try {
        result =
            deadline == null
                ? env.execute(name)
                : DeadlineExecution.execute(env, name, deadline, CLOCK);
      } catch (Exception e) {
        return new Result(
            afterFailure(requests, plans, sources, e, deadline),
            null,
            !(e instanceof DeadlineExecution.Cancelled) && exitCode(e) != ExitCodes.TIMED_OUT);
      }
      if (result == null || !result.isJobExecutionResult()) {
        throw new IllegalStateException(
            "Cannot read the outcome of " + name + ": its job ran detached");
      }
      List<byte[]> encoded =
          result.getAccumulatorResult(SlicesCommitterOperator.RESULTS_ACCUMULATOR);
      if (encoded == null || encoded.size() != requests.size()) {
        throw new IllegalStateException(
            "Cannot read the outcome of "
                + name
                + ": the committer reported "
                + (encoded == null ? 0 : encoded.size())
                + " of "
                + requests.size()
                + " slices");
      }
      long elapsed = (System.nanoTime() - started) / 1_000_000;
      List<SliceRun> runs = new ArrayList<>();
      for (byte[] bytes : encoded) {
        SliceCommitResult committed =
            CommitMessages.decode(bytes, SlicesJob.class.getClassLoader());
        int i = committed.slice();
        runs.add(
            committed.ended()
                ? new SliceRun(
                    requests.get(i),
                    runResult(spec, plans.get(i), sources, committed.outcome(), elapsed),
                    null,
                    ExitCodes.OK)
                : new SliceRun(requests.get(i), null, committed.error(), committed.exitCode()));
      }
      runs.sort(java.util.Comparator.comparingInt(run -> requests.indexOf(run.request())));
      return new Result(runs, null, false);
    } finally {
      if (cluster != null) {
        cluster.close();
      }
      Catalogs.close(catalog);
    }
  }

  private static void buildPipeline(
      DataStream<RowData> rows,
      org.apache.iceberg.Table target,
      RowType rowType,
      RowGuard guard,
      SliceRouter router,
      List<Slice> slices,
      JobSpec spec,
      List<CommitPlan> plans,
      boolean stopAtFirstFailure,
      int parallelism,
      Deadline deadline,
      String subject) {
    boolean[] onePartition = new boolean[slices.size()];
    for (int i = 0; i < onePartition.length; i++) {
      onePartition[i] = slices.get(i).fitsOnePartition(target.spec());
    }
    SingleOutputStreamOperator<byte[]> written =
        rows.transform(
                "floe-write " + spec.target(),
                PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO,
                new SlicesWriterOperator(
                    SerializableTable.copyOf(target),
                    rowType,
                    guard,
                    router,
                    spec.checks(),
                    onePartition))
            .setParallelism(parallelism);
    // One finder per slice and check in each bucket: the slices share the memory one run has.
    SliceJob.toCommitter(
        written,
        spec,
        parallelism,
        DuplicateKeyFinder.DEFAULT_MEMORY_BYTES / slices.size(),
        deadline,
        subject,
        target,
        new SlicesCommitterOperator(plans, stopAtFirstFailure));
  }

  /**
   * The job's deadline: each slice's timeout once per slice, counted from now, or the outside
   * deadline (a backfill's overall timeout) if earlier.
   */
  private static Deadline deadline(List<RunRequest> requests) {
    Timeout timeout = requests.get(0).timeout();
    Deadline own = timeout == null ? null : Deadline.afterEach(timeout, requests.size(), CLOCK);
    return Deadline.earlier(own, requests.get(0).notAfter());
  }

  /**
   * The job failed or was cancelled at its deadline. Slices the committer committed before that are
   * in the table: each one's run id is looked up, so the answer is what the table holds. When the
   * cancelled job has stopped, the files of the slices not committed are deleted; when it has not
   * stopped, whether those slices commit is unknown (exit 5).
   */
  private static List<SliceRun> afterFailure(
      List<RunRequest> requests,
      List<CommitPlan> plans,
      Map<String, Long> sources,
      Exception failure,
      Deadline deadline) {
    JobSpec spec = requests.get(0).job();
    DeadlineExecution.Cancelled cancelled =
        failure instanceof DeadlineExecution.Cancelled c ? c : null;
    List<SliceRun> runs = new ArrayList<>();
    Catalog catalog = Catalogs.open(requests.get(0).catalog());
    try {
      org.apache.iceberg.Table table = Catalogs.loadTable(catalog, spec.target());
      Set<Integer> notCommitted = new HashSet<>();
      for (int i = 0; i < requests.size(); i++) {
        CommitPlan plan = plans.get(i);
        String slice = requests.get(i).sliceValue();
        Optional<Snapshot> landed = RunLookup.find(table, plan.lineage().runId(), plan.branch());
        if (landed.isPresent()) {
          Lineage lineage = Lineage.of(landed.get()).orElse(plan.lineage());
          CommitOutcome outcome =
              new CommitOutcome(
                  CommitOutcome.Status.COMMITTED,
                  landed.get().snapshotId(),
                  lineage.rows(),
                  lineage.contentHash(),
                  1,
                  "committed before its job " + (cancelled != null ? "was cancelled" : "failed"));
          runs.add(
              new SliceRun(requests.get(i), runResult(spec, plan, sources, outcome, 0), null, 0));
        } else if (cancelled != null && !cancelled.stopped()) {
          runs.add(
              new SliceRun(
                  requests.get(i),
                  null,
                  String.format(
                      "Cannot tell whether %s for %s committed: it %s and its Flink job was"
                          + " cancelled, but had not stopped %d minutes later; look run %s up with"
                          + " `floe snapshots %s` before rerunning",
                      spec.job(),
                      slice,
                      deadline.reason(),
                      DeadlineExecution.STOP_WAIT.toMinutes(),
                      plan.lineage().runId(),
                      ShellWord.of(spec.target())),
                  ExitCodes.COMMIT_STATE_UNKNOWN));
        } else {
          notCommitted.add(i);
          runs.add(
              new SliceRun(
                  requests.get(i),
                  null,
                  cancelled != null
                      ? String.format(
                          "Cannot run %s for %s: %s; its Flink job was cancelled and nothing was"
                              + " committed for this slice",
                          spec.job(), slice, deadline.reason())
                      : String.format(
                          "Cannot run %s for %s: %s; nothing was committed for this slice",
                          spec.job(), slice, firstLine(failure)),
                  cancelled != null ? ExitCodes.TIMED_OUT : exitCode(failure)));
        }
      }
      if (cancelled != null && cancelled.stopped()) {
        // Commits run in slice order and stop at an unknown outcome: the first slice not in the
        // table after the last one that is may have been committing when the job was cancelled,
        // so its files stay; the slices after it had not started.
        int lastLanded = -1;
        for (int i = 0; i < requests.size(); i++) {
          if (!notCommitted.contains(i)) {
            lastLanded = i;
          }
        }
        int mayBeCommitting = lastLanded + 1;
        if (notCommitted.contains(mayBeCommitting)) {
          RunRequest request = requests.get(mayBeCommitting);
          runs.set(
              mayBeCommitting,
              new SliceRun(
                  request,
                  null,
                  String.format(
                      "Cannot run %s for %s: %s; its Flink job was cancelled and run %s is not in"
                          + " the table; its files are kept, since its commit may have been under"
                          + " way",
                      spec.job(),
                      request.sliceValue(),
                      deadline.reason(),
                      plans.get(mayBeCommitting).lineage().runId()),
                  ExitCodes.TIMED_OUT));
        }
        notCommitted.removeIf(i -> i <= mayBeCommitting);
        deleteFiles(table, cancelled, notCommitted);
      }
    } finally {
      Catalogs.close(catalog);
    }
    return runs;
  }

  /**
   * Deletes what the finished writers of a stopped job wrote for {@code slices}: none of it is in
   * the table (their run ids are not), and the job can no longer commit it.
   */
  private static void deleteFiles(
      org.apache.iceberg.Table table, DeadlineExecution.Cancelled cancelled, Set<Integer> slices) {
    if (!(cancelled.accumulators().get(SlicesWriterOperator.WRITTEN_SLICE_FILES)
        instanceof List<?> entries)) {
      return;
    }
    for (Object entry : entries) {
      SlicesWriterOperator.WrittenFile file =
          SlicesWriterOperator.WrittenFile.parse(entry.toString());
      if (slices.contains(file.slice())) {
        try {
          table.io().deleteFile(file.location());
        } catch (RuntimeException e) {
          LOG.warn("Cannot delete {} of a cancelled run: {}", file.location(), e.toString());
        }
      }
    }
  }

  private static RunResult runResult(
      JobSpec spec,
      CommitPlan plan,
      Map<String, Long> sources,
      CommitOutcome outcome,
      long elapsedMillis) {
    return new RunResult(
        spec.job(),
        spec.target(),
        spec.mode(),
        plan.scope(),
        plan.lineage().runKey(),
        plan.lineage().runId(),
        sources,
        outcome,
        elapsedMillis,
        null);
  }

  /** A query that failed while running is a bad query (exit 2), as for a run of one slice. */
  private static int exitCode(Exception failure) {
    FloeException floe = JobFailures.findFloeException(failure);
    if (floe != null) {
      return floe.exitCode();
    }
    return JobFailures.causedByTheQuery(failure).isPresent()
        ? ExitCodes.INVALID_INPUT
        : ExitCodes.UNEXPECTED;
  }

  private static String firstLine(Exception failure) {
    FloeException floe = JobFailures.findFloeException(failure);
    if (floe != null) {
      return JobFailures.firstLine(floe.getMessage());
    }
    Optional<String> queryError = JobFailures.causedByTheQuery(failure);
    return queryError.isPresent()
        ? "its query failed while running: " + queryError.get()
        : JobFailures.firstLine(JobFailures.rootMessageInContext(failure));
  }

  /** E.g. {@code 2026-01-05..2026-01-09 (5 slices)}. */
  private static String describe(List<RunRequest> requests) {
    return requests.get(0).sliceValue()
        + ".."
        + requests.get(requests.size() - 1).sliceValue()
        + " ("
        + requests.size()
        + " slices)";
  }
}
