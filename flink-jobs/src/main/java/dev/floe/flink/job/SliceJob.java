package dev.floe.flink.job;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.commit.RunLookup;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.CommitStateUnknownException;
import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.error.TimedOutException;
import dev.floe.catalog.error.UnreachableException;
import dev.floe.catalog.job.CheckSpec;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.lineage.CodeVersion;
import dev.floe.catalog.lineage.ColumnDefaults;
import dev.floe.catalog.lineage.ExactTypes;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.RunKey;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.catalog.snapshot.CurrentCommit;
import dev.floe.catalog.snapshot.UnchangedRerun;
import dev.floe.catalog.spec.WritableProperties;
import dev.floe.flink.check.RowChecks;
import dev.floe.flink.commit.CommitMessages;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.commit.CommitPlan;
import dev.floe.flink.commit.DuplicateKeyFinder;
import dev.floe.flink.commit.SliceCommitterOperator;
import dev.floe.flink.merge.MergePipeline;
import dev.floe.flink.merge.MergePlan;
import dev.floe.flink.run.RunOptions;
import dev.floe.flink.session.FlinkSessions;
import dev.floe.flink.session.LocalCluster;
import dev.floe.flink.session.SourcePins;
import dev.floe.flink.write.RowGuard;
import dev.floe.flink.write.SliceWriterOperator;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.client.program.StreamContextEnvironment;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.SerializableTable;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.Types.NestedField;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one job manifest as a Flink batch job: bounded query (slice bound as typed literals) → row
 * guard → for overwrite and swap, parallel writers (checks, content hash, Parquet files) and one
 * committer that replaces exactly the slice (or the whole table) in one snapshot; for merge and
 * insert-if-absent, one keyed committer that rewrites only the files holding matched keys (see
 * {@link MergePipeline}). Every mode ends in one atomic commit. The same code runs in a local
 * MiniCluster and under {@code flink run}.
 */
public final class SliceJob {
  private static final TypeInformation<byte[]> BYTES =
      PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO;

  private static final Logger LOG = LoggerFactory.getLogger(SliceJob.class);

  /** Reads the clock for the run's deadline only (never to decide what to process). */
  private static final Clock CLOCK = Clock.systemUTC();

  private SliceJob() {}

  /**
   * Runs the request.
   *
   * @throws TimedOutException (exit 6) when the run outlived its {@link RunRequest#deadline}:
   *     before its job started, at the gate before its commit, or while its job ran (then the job
   *     is cancelled, and its run id looked up in the table: a commit that landed all the same is
   *     reported as committed)
   */
  public static RunResult run(RunRequest request) {
    long started = System.nanoTime(); // timing for the report only
    Deadline deadline = request.deadline(CLOCK);
    JobSpec spec = request.job();
    Catalog catalog;
    LocalCluster cluster = null;
    try {
      catalog = Catalogs.open(request.catalog());
    } catch (UnreachableException e) {
      throw e.during(
          "run "
              + spec.job()
              + (request.sliceValue() == null ? "" : " for " + request.sliceValue()));
    }
    try {
      org.apache.iceberg.Table target = Catalogs.loadTable(catalog, spec.target());
      Scope scope =
          spec.hasSlice()
              ? Scope.of(
                  SliceResolver.resolve(
                      spec.target(), target, spec.sliceColumn(), request.sliceValue()))
              : Scope.wholeTable();
      validateChecks(spec, target.schema());
      List<String> key = spec.mode().isKeyed() ? KeyColumns.resolve(spec, target) : List.of();
      // Values are exact or refused (DESIGN rule 10): the target's rows pass through Flink (the
      // writers, and the keyed modes' rewrite of untouched rows), so every column must.
      ExactTypes.require(
          "run " + spec.job(), spec.target(), target.schema(), ExactTypes.Path.FLINK);
      WritableProperties.require("run " + spec.job(), spec.target(), target.properties());
      Snapshot head = target.currentSnapshot();
      Long startSnapshotId = head == null ? null : head.snapshotId();
      String runKey =
          RunKey.of(spec.job(), spec.target(), scope.label(), spec.text(), CodeVersion.current());
      Optional<CurrentCommit.Found> skippable =
          mayBeSkipped(request.options(), spec)
              ? UnchangedRerun.candidate(target, scope, runKey)
              : Optional.empty();

      int parallelism =
          request.options().parallelism() > 0
              ? request.options().parallelism()
              : spec.parallelism();
      cluster = LocalCluster.forCommand(parallelism);
      if (cluster != null && skippable.isEmpty()) {
        // Lineage cannot skip this run (its options forbid the skip, or no commit holds what it
        // would reproduce): its job runs unless its query is refused, so the cluster starts now,
        // beside the planning, instead of after it.
        cluster.startInBackground();
      }
      StreamExecutionEnvironment env =
          FlinkSessions.batchEnvironment(parallelism, jobConfiguration(), cluster);
      SourcePins pins = new SourcePins();
      StreamTableEnvironment tableEnv =
          FlinkSessions.tableEnvironment(env, request.catalog(), pins);

      String boundQuery = QueryBinder.bind(spec.query(), scope.slice(), spec.source());
      Table query = plan(tableEnv, boundQuery, spec);
      QueryInspector.Inspection inspection = QueryInspector.inspect(query);
      requireRerunSafe(spec, request.catalog().name(), inspection, catalog, target);
      requireExactText(spec, boundQuery, inspection, query);
      RowType rowType = FlinkSchemaUtil.convert(target.schema());
      Table aligned = OutputSchema.align(query, rowType, spec.target(), spec.source());
      requireExactSources(catalog, request, inspection);
      SourceSplits.configure(
          tableEnv.getConfig(),
          env.getParallelism(),
          !spec.mode().isKeyed() && SourceSplits.rowWise(inspection.plan()));
      Map<String, Long> sources = sourceSnapshots(request, inspection, pins);

      String runId = UUID.randomUUID().toString();
      Optional<CurrentCommit.Found> unchanged =
          unchangedRerun(request, catalog, env, deadline, skippable, inspection, sources);
      if (unchanged.isPresent()) {
        return new RunResult(
            spec.job(),
            spec.target(),
            spec.mode(),
            scope,
            runKey,
            runId,
            sources,
            unchangedOutcome(startSnapshotId, unchanged.get()),
            (System.nanoTime() - started) / 1_000_000,
            null);
      }
      Lineage lineage =
          new Lineage(
              runKey,
              runId,
              spec.job(),
              spec.mode().text(),
              scope.label(),
              CodeVersion.current(),
              0,
              null,
              sources,
              request.options().backfillId());
      CommitPlan commitPlan =
          new CommitPlan(
              request.catalog(),
              spec.target(),
              scope,
              spec.mode(),
              spec.allowEmpty(),
              lineage,
              startSnapshotId,
              target.schema().schemaId(),
              spec.checks(),
              request.options());

      if (cluster != null) {
        cluster.startInBackground(); // if not yet: overlaps with translating and building the job
      }
      DataStream<RowData> rows = translate(tableEnv, aligned, spec);
      RowGuard guard = new RowGuard(spec.target(), scope, rowType, requiredColumns(target), key);
      String subject = subject(request);
      if (spec.mode().isKeyed()) {
        MergePipeline.build(
            deadline == null ? rows : DeadlineGate.beforeKeyedCommit(rows, deadline, subject),
            new MergePlan(commitPlan, key, spec.ordering(), spec.deleteMissing()),
            guard,
            rowType);
      } else {
        buildPipeline(
            rows,
            target,
            rowType,
            guard,
            spec,
            commitPlan,
            env.getParallelism(),
            deadline,
            subject);
      }
      request
          .options()
          .failAt()
          .failIf(FailurePoint.AFTER_PLANNING, "after planning " + spec.job());
      CommitOutcome outcome;
      try {
        outcome =
            deadline == null
                ? execute(env, spec, scope)
                : executeBy(deadline, env, request, scope, subject, runId, commitPlan.branch());
      } catch (CancelledFromOutside e) {
        outcome = afterOutsideCancel(request, subject, runId, commitPlan.branch(), e.getCause());
      }
      return new RunResult(
          spec.job(),
          spec.target(),
          spec.mode(),
          scope,
          runKey,
          runId,
          sources,
          outcome,
          (System.nanoTime() - started) / 1_000_000,
          // Only a commit creates the audit branch; a no-op or a dry run leaves none to publish.
          outcome == null || outcome.status() == CommitOutcome.Status.COMMITTED
              ? commitPlan.branch()
              : null);
    } finally {
      if (cluster != null) {
        cluster.close();
      }
      Catalogs.close(catalog);
    }
  }

  static Configuration jobConfiguration() {
    Configuration conf = new Configuration();
    // Rows are declared with Flink's typed RowData serializer; a Kryo fallback anywhere in the
    // pipeline is a bug (it cost a quarter of a 10M-row load), so it fails the job instead.
    conf.set(PipelineOptions.GENERIC_TYPES, false);
    // The writers keep no reference to a row after writing it, so Flink need not copy rows.
    conf.set(PipelineOptions.OBJECT_REUSE, true);
    return conf;
  }

  static Table plan(StreamTableEnvironment tableEnv, String boundQuery, JobSpec spec) {
    try {
      return tableEnv.sqlQuery(boundQuery);
    } catch (org.apache.flink.table.api.SqlParserException
        | org.apache.flink.table.api.ValidationException e) {
      // A source Floe refused to create (SourcePins): Flink's wrapper only names the table.
      FloeException refused = JobFailures.findFloeException(e);
      throw new InvalidInputException(
          "Cannot plan the query of "
              + spec.source()
              + ": "
              + (refused instanceof InvalidInputException
                  ? refused.getMessage()
                  : PlanErrors.describe(boundQuery, JobFailures.firstLine(e.getMessage()))),
          e);
    }
  }

  /**
   * The query as a stream of rows. Flink's optimizer folds constant expressions here, and Iceberg's
   * source plans its splits, so an expression that cannot be computed (`1 / 0`) or a read option
   * naming a snapshot or ref the table does not have fails here: a bad query, exit 2.
   */
  static DataStream<RowData> translate(
      StreamTableEnvironment tableEnv, Table aligned, JobSpec spec) {
    try {
      return tableEnv.toDataStream(
          aligned, aligned.getResolvedSchema().toPhysicalRowDataType().bridgedTo(RowData.class));
    } catch (RuntimeException e) {
      String error = JobFailures.causedByTheQuery(e).orElseThrow(() -> e);
      throw new InvalidInputException(
          "Cannot plan the query of " + spec.source() + ": " + error, e);
    }
  }

  static List<String> requiredColumns(org.apache.iceberg.Table target) {
    return target.schema().columns().stream()
        .filter(NestedField::isRequired)
        .map(NestedField::name)
        .toList();
  }

  /** Overwrite and swap: parallel writers, then the single committer. */
  private static void buildPipeline(
      DataStream<RowData> rows,
      org.apache.iceberg.Table target,
      RowType rowType,
      RowGuard guard,
      JobSpec spec,
      CommitPlan commitPlan,
      int parallelism,
      Deadline deadline,
      String subject) {
    Slice slice = commitPlan.scope().slice();
    SingleOutputStreamOperator<byte[]> written =
        rows.transform(
                "floe-write " + spec.target(),
                BYTES,
                new SliceWriterOperator(
                    SerializableTable.copyOf(target),
                    rowType,
                    guard,
                    spec.checks(),
                    commitPlan.failAt(),
                    slice != null && slice.fitsOnePartition(target.spec())))
            .setParallelism(parallelism);
    toCommitter(
        written,
        spec,
        parallelism,
        DuplicateKeyFinder.DEFAULT_MEMORY_BYTES,
        deadline,
        subject,
        target,
        new SliceCommitterOperator(commitPlan));
  }

  /**
   * What follows the writers of an overwrite or swap: the unique check's finders (when the manifest
   * has one), the deadline gate (when the run has a deadline), and the single committer.
   *
   * @param finderMemory memory of each finder's hashes before it spills
   */
  static void toCommitter(
      SingleOutputStreamOperator<byte[]> written,
      JobSpec spec,
      int parallelism,
      long finderMemory,
      Deadline deadline,
      String subject,
      org.apache.iceberg.Table target,
      OneInputStreamOperator<byte[], Void> committer) {
    DataStream<byte[]> toCommit = written;
    if (spec.checks().stream().anyMatch(c -> c instanceof CheckSpec.Unique)) {
      DataStream<byte[]> duplicates =
          DuplicateKeyFinder.attach(
              written.getSideOutput(SliceWriterOperator.UNIQUE_KEYS), parallelism, finderMemory);
      toCommit = written.union(duplicates);
    }
    if (deadline != null) {
      toCommit =
          DeadlineGate.beforeCommit(toCommit, deadline, subject, SerializableTable.copyOf(target));
    }
    toCommit
        .transform("floe-commit " + spec.target(), Types.VOID, committer)
        .setParallelism(1)
        .setMaxParallelism(1)
        .sinkTo(new DiscardingSink<>())
        .setParallelism(1);
  }

  /** E.g. {@code run fact_orders_daily for 2026-10-03}, as messages say "Cannot ...". */
  private static String subject(RunRequest request) {
    return "run "
        + request.job().job()
        + (request.sliceValue() == null ? "" : " for " + request.sliceValue());
  }

  private static CommitOutcome execute(StreamExecutionEnvironment env, JobSpec spec, Scope scope) {
    return outcome(spec, scope, () -> env.execute(jobName(spec, scope)));
  }

  /**
   * Runs the job until {@code deadline}: refused before it starts when the deadline has passed
   * already; past it, cancelled, and its run looked up by id ({@link #afterCancel}).
   */
  private static CommitOutcome executeBy(
      Deadline deadline,
      StreamExecutionEnvironment env,
      RunRequest request,
      Scope scope,
      String subject,
      String runId,
      String branch) {
    if (deadline.passed(CLOCK)) {
      throw new TimedOutException(
          String.format(
              "Cannot %s: %s before its Flink job started; nothing was committed",
              subject, deadline.reason()));
    }
    try {
      return outcome(
          request.job(),
          scope,
          () -> DeadlineExecution.execute(env, jobName(request.job(), scope), deadline, CLOCK));
    } catch (CancelledAtDeadline e) {
      return afterCancel(request, deadline, subject, runId, branch, e.cancelled);
    }
  }

  private static String jobName(JobSpec spec, Scope scope) {
    return "floe " + spec.job() + " " + scope.value();
  }

  /**
   * The job was cancelled at its deadline. The committer may have been committing: the run's
   * snapshot is looked up by run id on the branch it commits to, so the answer is what the table
   * holds, never a guess.
   */
  private static CommitOutcome afterCancel(
      RunRequest request,
      Deadline deadline,
      String subject,
      String runId,
      String branch,
      DeadlineExecution.Cancelled cancelled) {
    Optional<Snapshot> landed =
        lookUpAfterCancel(
            request,
            subject,
            runId,
            branch,
            "it " + deadline.reason() + ", its Flink job was cancelled",
            cancelled,
            table -> {
              if (cancelled.stopped()) {
                deleteFinishedWritersFiles(table, cancelled);
              }
            });
    if (landed.isPresent()) {
      return landedOutcome(
          landed.get(),
          "committed although the run "
              + deadline.reason()
              + ": its commit was already under way and landed");
    }
    if (!cancelled.stopped()) {
      throw new CommitStateUnknownException(
          String.format(
              "Cannot tell whether the %s committed: it %s and its Flink job was cancelled, but"
                  + " had not stopped %d minutes later; look run %s up with `floe snapshots %s`"
                  + " before rerunning",
              subject,
              deadline.reason(),
              DeadlineExecution.STOP_WAIT.toMinutes(),
              runId,
              ShellWord.of(request.job().target())),
          cancelled);
    }
    throw new TimedOutException(
        String.format(
            "Cannot %s: %s; its Flink job was cancelled and nothing was committed",
            subject, deadline.reason()),
        cancelled);
  }

  /**
   * A writer still writing when the job was cancelled deleted its own files; one that had finished
   * sent them towards the committer, which never ran, and named them in an accumulator. The run is
   * not in the table and its job has stopped, so none of them can be live.
   */
  private static void deleteFinishedWritersFiles(
      org.apache.iceberg.Table table, DeadlineExecution.Cancelled cancelled) {
    if (!(cancelled.accumulators().get(SliceWriterOperator.WRITTEN_FILES)
        instanceof List<?> files)) {
      return;
    }
    for (Object location : files) {
      try {
        table.io().deleteFile(location.toString());
      } catch (RuntimeException e) {
        LOG.warn("Cannot delete {} of a cancelled run: {}", location, e.toString());
      }
    }
  }

  /** Submits the job and waits for its result (null when detached). */
  private interface JobRun {
    JobExecutionResult execute() throws Exception;
  }

  /**
   * The job was cancelled by someone other than Floe (an operator, the web UI, the cluster) and
   * ended CANCELED, so none of its tasks runs any more. Its committer may have committed before the
   * cancel reached it: the run is looked up by id on the branch it commits to, and the answer is
   * what the table holds.
   */
  static CommitOutcome afterOutsideCancel(
      RunRequest request, String subject, String runId, String branch, Throwable cancel) {
    Optional<Snapshot> landed =
        lookUpAfterCancel(
            request,
            subject,
            runId,
            branch,
            "its Flink job was cancelled from outside Floe",
            cancel,
            table -> {});
    if (landed.isEmpty()) {
      throw new IllegalStateException(
          String.format(
              "Cannot %s: its Flink job was cancelled from outside Floe (an operator, the web UI"
                  + " or the cluster) before it committed; nothing was committed, and rerunning"
                  + " is safe",
              subject),
          cancel);
    }
    return landedOutcome(
        landed.get(),
        "committed; its Flink job was then cancelled from outside Floe, after the commit had"
            + " landed");
  }

  /**
   * The run's snapshot on the branch it commits to, looked up after its job was cancelled; {@code
   * ifAbsent} gets the table when there is none. A lookup that fails leaves the outcome unknown.
   *
   * @param cancelledHow what happened, for the message: "its Flink job was cancelled ..."
   * @throws CommitStateUnknownException when the run cannot be looked up
   */
  private static Optional<Snapshot> lookUpAfterCancel(
      RunRequest request,
      String subject,
      String runId,
      String branch,
      String cancelledHow,
      Throwable cancel,
      java.util.function.Consumer<org.apache.iceberg.Table> ifAbsent) {
    Catalog catalog = null;
    try {
      catalog = Catalogs.open(request.catalog());
      org.apache.iceberg.Table table = Catalogs.loadTable(catalog, request.job().target());
      Optional<Snapshot> landed = RunLookup.find(table, runId, branch);
      if (landed.isEmpty()) {
        ifAbsent.accept(table);
      }
      return landed;
    } catch (RuntimeException lookupFailed) {
      lookupFailed.addSuppressed(cancel);
      throw new CommitStateUnknownException(
          String.format(
              "Cannot tell whether the %s committed: %s, and run %s could not be looked up (%s);"
                  + " check `floe snapshots %s` before rerunning",
              subject,
              cancelledHow,
              runId,
              JobFailures.firstLine(lookupFailed.getMessage()),
              ShellWord.of(request.job().target())),
          lookupFailed);
    } finally {
      if (catalog != null) {
        Catalogs.close(catalog);
      }
    }
  }

  /** The outcome of a run whose commit the table holds, found after its job was cancelled. */
  private static CommitOutcome landedOutcome(Snapshot snapshot, String detail) {
    Optional<Lineage> lineage = Lineage.of(snapshot);
    return new CommitOutcome(
        CommitOutcome.Status.COMMITTED,
        snapshot.snapshotId(),
        lineage.map(Lineage::rows).orElse(-1L),
        lineage.map(Lineage::contentHash).orElse(null),
        1,
        detail);
  }

  /** A job cancelled by someone other than Floe, through {@link #outcome}. */
  private static final class CancelledFromOutside extends RuntimeException {
    CancelledFromOutside(Exception cause) {
      super(cause);
    }
  }

  /** Signals a cancelled job through {@link #outcome}, which maps every other failure. */
  private static final class CancelledAtDeadline extends RuntimeException {
    private final DeadlineExecution.Cancelled cancelled;

    CancelledAtDeadline(DeadlineExecution.Cancelled cancelled) {
      super(cancelled);
      this.cancelled = cancelled;
    }
  }

  private static CommitOutcome outcome(JobSpec spec, Scope scope, JobRun run) {
    JobExecutionResult result;
    try {
      result = run.execute();
    } catch (DeadlineExecution.Cancelled cancelled) {
      throw new CancelledAtDeadline(cancelled);
    } catch (Exception e) {
      FloeException floe = JobFailures.findFloeException(e);
      if (floe != null) {
        throw floe;
      }
      if (JobFailures.wasCancelled(e)) {
        throw new CancelledFromOutside(e);
      }
      java.util.Optional<String> queryError = JobFailures.causedByTheQuery(e);
      if (queryError.isPresent()) {
        throw new InvalidInputException(
            String.format(
                "Cannot run %s for %s: its query failed while running: %s; nothing was committed",
                spec.job(), scope.value(), queryError.get()),
            e);
      }
      throw new IllegalStateException(
          "Cannot run "
              + spec.job()
              + " for "
              + scope.value()
              + ": "
              + JobFailures.rootMessageInContext(e),
          e);
    }
    if (result == null || !result.isJobExecutionResult()) {
      return null; // `flink run -d`: the committer reports in the job's log, not here
    }
    List<byte[]> outcomes = result.getAccumulatorResult(SliceCommitterOperator.OUTCOME_ACCUMULATOR);
    if (outcomes == null || outcomes.isEmpty()) {
      throw new IllegalStateException(
          "Cannot read the outcome of " + spec.job() + ": the committer reported nothing");
    }
    return CommitMessages.decode(outcomes.get(0), SliceJob.class.getClassLoader());
  }

  /**
   * Whether the run's options and mode let lineage skip its job (DESIGN rule 5: a decision from
   * lineage is an optimisation; with {@code --recompute} the job runs and ends as the same no-op):
   * a mode that replaces its scope, no forced commit and no injected failure.
   */
  private static boolean mayBeSkipped(RunOptions options, JobSpec spec) {
    return !options.recompute()
        && !options.forceCommit()
        && options.failAt() == FailurePoint.NONE
        && spec.mode().replacesScope();
  }

  /**
   * The commit this run would only reproduce, found before its job starts: the {@code skippable}
   * candidate found from lineage before planning, confirmed now that the query's sources are
   * pinned. Only for a run whose rows are fixed by its run key and its pinned sources: a query free
   * of calls that depend on when it runs, every table it reads in our catalog and pinned. Never
   * when the run is a program a Flink cluster runs ({@code flink run}, application mode, a session
   * job): the cluster fails a program that submits no job. Never past the deadline: the full run
   * times out there.
   */
  private static Optional<CurrentCommit.Found> unchangedRerun(
      RunRequest request,
      Catalog catalog,
      StreamExecutionEnvironment env,
      Deadline deadline,
      Optional<CurrentCommit.Found> skippable,
      QueryInspector.Inspection inspection,
      Map<String, Long> sources) {
    String prefix = request.catalog().name() + ".";
    boolean qualifies =
        skippable.isPresent()
            && inspection.nondeterministicCalls().isEmpty()
            && inspection.scannedTables().stream().allMatch(t -> t.startsWith(prefix))
            && sources.size() == inspection.scannedTables().size()
            && !(env instanceof StreamContextEnvironment)
            && (deadline == null || !deadline.passed(CLOCK));
    return qualifies
            && UnchangedRerun.readSameSources(
                skippable.get(), sources, name -> Catalogs.loadTable(catalog, name))
        ? skippable
        : Optional.empty();
  }

  private static CommitOutcome unchangedOutcome(Long head, CurrentCommit.Found found) {
    return new CommitOutcome(
        CommitOutcome.Status.NO_OP,
        head,
        found.lineage().rows(),
        found.lineage().contentHash(),
        0,
        String.format(
            "unchanged: snapshot %d holds this run's result (same run key, same source"
                + " snapshots), so the job was not started; --recompute runs it",
            found.snapshotId()));
  }

  /** The snapshot each Iceberg table of our catalog that the query scans is pinned to. */
  static Map<String, Long> sourceSnapshots(
      RunRequest request, QueryInspector.Inspection inspection, SourcePins pins) {
    String prefix = request.catalog().name() + ".";
    return pins.snapshotsOf(
        inspection.scannedTables().stream()
            .filter(scanned -> scanned.startsWith(prefix))
            .map(scanned -> scanned.substring(prefix.length()))
            .toList());
  }

  /**
   * Refuses a query whose result depends on more than its sources' snapshots: one that calls a
   * nondeterministic function (unless the manifest allows it), or one that reads its own target,
   * whose rerun reads what the last run wrote (`floe lint` reports the same as query-reads-target).
   *
   * @throws InvalidInputException for either
   */
  static void requireRerunSafe(
      JobSpec spec,
      String catalogName,
      QueryInspector.Inspection inspection,
      Catalog catalog,
      org.apache.iceberg.Table target) {
    if (!spec.allowNondeterministic() && !inspection.nondeterministicCalls().isEmpty()) {
      throw InvalidInputException.of(
          "Cannot run %s: its query calls %s, whose result depends on when the job runs; pass"
              + " the slice as :slice_start/:slice_end instead, or set allow_nondeterministic:"
              + " true if the result is still rerun-safe",
          spec.source(), String.join(", ", inspection.nondeterministicCalls()));
    }
    String prefix = catalogName + ".";
    String qualified = prefix + spec.target();
    boolean readsTarget =
        inspection.scannedTables().stream()
            .filter(qualified::equalsIgnoreCase)
            // A catalog that folds case (Glue) reads s.Fact as s.fact; one that does not holds
            // two tables, and reading the other one is no rerun hazard.
            .anyMatch(
                scanned ->
                    scanned.equals(qualified)
                        || sameTable(catalog, target, scanned.substring(prefix.length())));
    if (readsTarget) {
      throw InvalidInputException.of(
          "Cannot run %s: its query reads its own target %s, so a rerun reads what the last run"
              + " wrote and two runs of one slice can differ; read the sources only",
          spec.source(), spec.target());
    }
  }

  /** Whether {@code name} loads {@code target} itself (its uuid); true when it cannot be loaded. */
  private static boolean sameTable(Catalog catalog, org.apache.iceberg.Table target, String name) {
    try {
      return Catalogs.loadTable(catalog, name).uuid().equals(target.uuid());
    } catch (RuntimeException e) {
      return true; // fail closed: refused as the target
    }
  }

  /**
   * Refuses a query whose plan holds a text constant the planner decoded lossily ({@link
   * FoldedText}): committed, its bytes would be changed silently.
   *
   * @throws InvalidInputException naming the constant
   */
  static void requireExactText(
      JobSpec spec, String boundQuery, QueryInspector.Inspection inspection, Table query) {
    Optional<String> lossy =
        FoldedText.lossyConstant(boundQuery, inspection.plan(), query::explain);
    if (lossy.isPresent()) {
      throw InvalidInputException.of(
          "Cannot run %s: %s", spec.source(), FoldedText.reason(lossy.get()));
    }
  }

  /**
   * Every table the query reads passes through Flink's reader: a column Flink cannot carry exactly
   * (a {@code time}), or whose initial default it would read as NULL ({@link ColumnDefaults}), is
   * refused even when the query seems not to use it, since the rule cannot see through every
   * expression that might.
   */
  static void requireExactSources(
      Catalog catalog, RunRequest request, QueryInspector.Inspection inspection) {
    String prefix = request.catalog().name() + ".";
    for (String scanned : inspection.scannedTables()) {
      if (scanned.startsWith(prefix)) {
        String name = scanned.substring(prefix.length());
        org.apache.iceberg.Table table = Catalogs.loadTable(catalog, name);
        ExactTypes.require(
            "run " + request.job().job(), name, table.schema(), ExactTypes.Path.FLINK);
        ColumnDefaults.requireReadable("run " + request.job().job(), name, table);
      }
    }
  }

  static void validateChecks(JobSpec spec, org.apache.iceberg.Schema schema) {
    for (int i = 0; i < spec.checks().size(); i++) {
      CheckSpec check = spec.checks().get(i);
      for (String column : check.columns()) {
        if (schema.findField(column) != null && schema.asStruct().field(column) == null) {
          throw InvalidInputException.of(
              "Cannot read %s at 'checks[%d]': %s names '%s', a field inside a column of %s;"
                  + " checks read top-level columns",
              spec.source(), i, check.describe(), column, spec.target());
        }
        if (schema.findField(column) == null) {
          // checks[i]: the manifest's path to the check, as its parser names it.
          throw InvalidInputException.of(
              "Cannot read %s at 'checks[%d]': %s names column '%s', which %s does not have",
              spec.source(), i, check.describe(), column, spec.target());
        }
      }
      if (check instanceof CheckSpec.AcceptedValues accepted) {
        try {
          RowChecks.validate(accepted, FlinkSchemaUtil.convert(schema));
        } catch (IllegalArgumentException e) {
          throw InvalidInputException.of(
              "Cannot read %s at 'checks[%d]': %s: %s",
              spec.source(), i, check.describe(), e.getMessage());
        }
      }
    }
  }
}
