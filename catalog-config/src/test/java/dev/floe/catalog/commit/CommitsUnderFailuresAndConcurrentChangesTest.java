package dev.floe.catalog.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.floe.catalog.error.CommitConflictException;
import dev.floe.catalog.error.CommitStateUnknownException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.lineage.RecordHasher;
import dev.floe.catalog.report.LineageCommits;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.snapshot.Publish;
import dev.floe.catalog.snapshot.Revert;
import dev.floe.catalog.snapshot.RevertPlan;
import dev.floe.catalog.snapshot.Rollback;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import dev.floe.catalog.window.AsOf;
import dev.floe.catalog.window.LatePlan;
import dev.floe.catalog.window.LatePlanner;
import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.LocalDate;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.RESTException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.SnapshotUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The commit core and the operations on it under what catalogs and operators really do meanwhile:
 * lookups that fail, a rollback or a commit landing mid-operation, sources dropped, expired or
 * appended to while a run is in flight. Each test is a scenario that once lost data or misreported.
 */
class CommitsUnderFailuresAndConcurrentChangesTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  // ---------------------------------------------------------------- RunCommit: lookup failures

  /**
   * A re-executed committer (its first execution committed, then the task died) starts with the
   * initial lookup; a transient catalog error there (refresh fails) must not delete the run's
   * files, which are live in its earlier commit.
   */
  @Test
  void aFailedInitialLookupNeverDeletesTheFilesOfTheRunsEarlierCommit() {
    Table table = dayTable("s.t");
    DataFile file = TableRows.write(table, row(table, 1, "2026-10-01"));
    RunCommit.of(table, new AppendRun("run-1", List.of(file))).files(List.of(file)).commit();
    assertThat(exists(file)).isTrue();

    AtomicInteger refreshes = new AtomicInteger();
    Table flaky =
        proxy(
            catalog.load("s.t"),
            "refresh",
            () -> {
              if (refreshes.getAndIncrement() == 0) {
                throw new RESTException("Error occurred while processing GET request");
              }
            });
    Throwable failure =
        catchThrowable(
            () ->
                RunCommit.of(flaky, new AppendRun("run-1", List.of(file)))
                    .files(List.of(file))
                    .commit());

    assertThat(failure).isInstanceOf(RESTException.class);
    table.refresh();
    assertThat(RunLookup.onMain(table, "run-1")).isPresent();
    assertThat(exists(file)).as("the file is live in run-1's snapshot, the head").isTrue();
  }

  /**
   * The core knows a CommitFailedException can follow a commit that landed (resend after a lost
   * answer). When the lookup after it fails too, the history proves nothing: it must be exit 5 with
   * the files kept, not "nothing was committed" (exit 4) with the head's files deleted.
   */
  @Test
  void aRejectedCommitWhoseLookupFailedIsUnknownNotNothingCommitted() {
    Table table = dayTable("s.t");
    DataFile file = TableRows.write(table, row(table, 1, "2026-10-01"));
    AppendRun run = new AppendRun("run-1", List.of(file));
    run.afterCommit = () -> new CommitFailedException("Commit failed: resent request");
    run.failLookupsFrom = 2; // initial lookup works, the one after the failure does not

    Throwable failure =
        catchThrowable(() -> RunCommit.of(table, run).files(List.of(file)).commit());

    table.refresh();
    assertThat(RunLookup.onMain(table, "run-1")).as("the commit landed").isPresent();
    assertThat(exists(file)).as("live in the head").isTrue();
    assertThat(failure).isInstanceOf(CommitStateUnknownException.class);
  }

  /** Same with the ValidationException Iceberg raises when its own retry re-validates. */
  @Test
  void aValidationFailureWhoseLookupFailedIsNotResolvedAsAConflict() {
    Table table = dayTable("s.t");
    DataFile file = TableRows.write(table, row(table, 1, "2026-10-01"));
    AppendRun run = new AppendRun("run-1", List.of(file));
    run.afterCommit = () -> new ValidationException("Found conflicting files");
    run.failLookupsFrom = 2;
    run.onConflict = Optional.of("no-op: another run holds this content");

    Throwable failure =
        catchThrowable(() -> RunCommit.of(table, run).files(List.of(file)).commit());

    table.refresh();
    assertThat(RunLookup.onMain(table, "run-1")).isPresent();
    assertThat(exists(file)).as("live in the head").isTrue();
    assertThat(failure).isInstanceOf(CommitStateUnknownException.class);
  }

  // ---------------------------------------------------------------- Rollback / Publish races

  /**
   * Rollback checks the head in prepare(), but Iceberg's transaction retry re-applies rollbackTo on
   * whatever head the catalog has: a run committed between the check and the commit is silently
   * discarded (no tag keeps it; expiry will delete it).
   */
  @Test
  void aRollbackNeverDiscardsARunThatCommittedWhileItWasCommitting() {
    Table table = dayTable("s.t");
    TableRows.append(table, row(table, 1, "2026-10-01"));
    long first = table.currentSnapshot().snapshotId();
    TableRows.append(table, row(table, 2, "2026-10-02"));
    long[] concurrent = new long[1];
    // The concurrent commit lands after the rollback was checked, right before it commits.
    Table racing =
        proxy(
            table,
            "operations",
            () -> {
              Table other = catalog.load("s.t");
              TableRows.append(other, row(other, 3, "2026-10-03"));
              concurrent[0] = other.currentSnapshot().snapshotId();
            });

    Throwable failure = catchThrowable(() -> Rollback.of(racing, "s.t").toSnapshot(first).commit());

    Table now = catalog.load("s.t");
    boolean reachable = reachableFromSomeRef(now, concurrent[0]);
    assertThat(failure == null ? "rollback reported success" : failure.toString())
        .as("the concurrent commit %d must stay reachable or the rollback must fail", concurrent[0])
        .matches(s -> reachable || failure instanceof CommitConflictException);
  }

  /** Two operators roll back at once: the loser must get exit 4, not "answer lost" exit 5. */
  @Test
  void aRollbackLosingARaceToAnotherRollbackIsAConflictNotUnknown() {
    Table table = dayTable("s.t");
    TableRows.append(table, row(table, 1, "2026-10-01"));
    long first = table.currentSnapshot().snapshotId();
    TableRows.append(table, row(table, 2, "2026-10-02"));
    long second = table.currentSnapshot().snapshotId();
    TableRows.append(table, row(table, 3, "2026-10-03"));
    Table racing =
        proxy(
            table,
            "operations",
            () -> Rollback.of(catalog.load("s.t"), "s.t").toSnapshot(second).commit());

    Throwable failure = catchThrowable(() -> Rollback.of(racing, "s.t").toSnapshot(first).commit());

    assertThat(failure).isInstanceOf(CommitConflictException.class);
  }

  /**
   * apply() fast-forwards only onto the exact fork snapshot, so a main rolled back behind the fork
   * is not moved forward again. The commit does not re-check it: a rollback between planning and
   * committing brings the rolled-back run back on main.
   */
  @Test
  void aPublishNeverResurrectsARunRolledBackOffMainWhileItWasPublishing() {
    Table table = dayTable("s.t");
    commitRun(table, "r1", "2026-10-01", null, row(table, 1, "2026-10-01"));
    commitRun(table, "r3", "2026-10-03", null, row(table, 3, "2026-10-03"));
    commitRun(table, "r2", "2026-10-02", "audit-r2", row(table, 2, "2026-10-02"));
    AtomicInteger refreshes = new AtomicInteger();
    Table racing =
        proxy(
            table,
            "refresh",
            () -> {
              if (refreshes.getAndIncrement() == 0) {
                Rollback.of(catalog.load("s.t"), "s.t").beforeRun("r3").commit();
              }
            });

    Throwable failure = catchThrowable(() -> Publish.of(racing, "s.t").run("r2").commit());

    Table now = catalog.load("s.t");
    boolean r3OnMain = RunLookup.onMain(now, "r3").isPresent();
    assertThat(r3OnMain)
        .as("r3 was rolled back by an operator; publish result: %s", failure)
        .isFalse();
    assertThat(failure).isInstanceOf(CommitConflictException.class);
  }

  // ---------------------------------------------------------------- SourceDrift

  /**
   * The snapshot the run read was expired while it ran (only appends since): that is neither a
   * rollback nor a rewrite. SourceChanges uses isParentAncestorOf for exactly this.
   */
  @Test
  void anExpiredReadSnapshotWithOnlyAppendsSinceIsNotARollback() {
    Table source = dayTable("s.src");
    TableRows.append(source, row(source, 1, "2026-10-01"));
    long read = source.currentSnapshot().snapshotId();
    TableRows.append(source, row(source, 2, "2026-10-05"));
    TableRows.append(source, row(source, 3, "2026-10-06"));
    source.expireSnapshots().expireSnapshotId(read).commit();

    assertThatCode(
            () ->
                SourceDrift.requireNoRewrite(
                    catalog.catalog(),
                    lineage("run-1", Map.of("s.src", read)),
                    Scope.of(LineageCommits.day("2026-10-01")),
                    "slice d=[2026-10-01,2026-10-02) of s.t"))
        .doesNotThrowAnyException();
  }

  /** A source dropped during the run: the message should say so, not "create it". */
  @Test
  void aSourceDroppedWhileTheRunWasInFlightIsNamedAsSuch() {
    Table source = dayTable("s.src");
    TableRows.append(source, row(source, 1, "2026-10-01"));
    long read = source.currentSnapshot().snapshotId();
    catalog.catalog().dropTable(TableIdentifier.parse("s.src"), false);

    assertThatThrownBy(
            () ->
                SourceDrift.requireNoRewrite(
                    catalog.catalog(),
                    lineage("run-1", Map.of("s.src", read)),
                    Scope.of(LineageCommits.day("2026-10-01")),
                    "slice d=[2026-10-01,2026-10-02) of s.t"))
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("s.src");
  }

  /**
   * Rows appended to the slice after the run planned (and pinned) its source, before the commit:
   * the run did not read them, so late detection must count them, or they would be missing forever.
   */
  @Test
  void rowsAppendedMidRunThatTheRunDidNotReadAreStillFoundLate() {
    Table fact =
        LineageCommits.create(
            catalog.catalog(),
            "s.fact",
            Map.of("floe.late-data.window", "P3D", "floe.late-data.after-window", "report"));
    Table staging = LineageCommits.create(catalog.catalog(), "s.staging", Map.of());
    LineageCommits.append(staging, "2026-10-01", 2);
    long read = staging.currentSnapshot().snapshotId(); // the run reads these 2 rows
    LineageCommits.append(staging, "2026-10-01", 1); // lands mid-run, not read
    Slice day = LineageCommits.day("2026-10-01");
    Lineage planned = lineage("r1", Map.of("s.staging", read));
    SourceDrift.requireNoRewrite(catalog.catalog(), planned, Scope.of(day), "slice of s.fact");
    Lineage lineage = planned;
    OverwriteFiles overwrite =
        fact.newOverwrite()
            .overwriteByRowFilter(day.toExpression())
            .addFile(
                TableRows.write(fact, row(fact, 100, "2026-10-01"), row(fact, 101, "2026-10-01")));
    lineage.toSummary().forEach(overwrite::set);
    overwrite.commit();

    LatePlan plan =
        LatePlanner.of(catalog.catalog(), "s.fact", "d")
            .job("job")
            .asOf(AsOf.parse("--as-of", "2026-10-02T00:00:00Z"))
            .plan();

    assertThat(plan.slices().get(0).knownLateRows())
        .as("the row appended mid-run was never loaded")
        .isEqualTo(1);
  }

  // ---------------------------------------------------------------- Revert

  /**
   * r2 reverted, then that revert reverted (r2 applied again): reverting r2 now is refused with
   * "already reverted by ...; to apply the run again, revert that revert" although it is applied.
   */
  @Test
  void aRunAppliedAgainByRevertingItsRevertIsNotCalledAlreadyReverted() {
    Table fact = LineageCommits.create(catalog.catalog(), "s.fact", Map.of());
    LineageCommits.load(fact, "2026-10-01", "r1", "job", null, 2);
    LineageCommits.load(fact, "2026-10-01", "r2", "job", null, 3);
    RevertPlan revert = Revert.of(fact, "s.fact").run("r2").commit();
    Revert.of(fact, "s.fact").run(revert.revertRunId()).commit();
    fact.refresh();

    Throwable failure = catchThrowable(() -> Revert.of(fact, "s.fact").run("r2").commit());

    assertThat(failure == null ? "" : failure.getMessage()).doesNotContain("already reverted");
  }

  // ---------------------------------------------------------------- helpers

  private Table dayTable(String name) {
    return catalog.create(name, SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
  }

  private static Record row(Table table, long id, String date) {
    return TableRows.row(table, Map.of("id", id, "d", LocalDate.parse(date)));
  }

  private static Lineage lineage(String runId, Map<String, Long> sources) {
    return new Lineage(
        "key",
        runId,
        "job",
        "overwrite",
        "d=[2026-10-01,2026-10-02)",
        "test",
        2,
        ContentHash.empty().encode(),
        sources,
        null);
  }

  private static boolean exists(DataFile file) {
    return new File(file.location().replace("file:", "")).exists();
  }

  private static boolean reachableFromSomeRef(Table table, long snapshotId) {
    Set<Long> reachable = new HashSet<>();
    for (SnapshotRef ref : table.refs().values()) {
      for (Snapshot s : SnapshotUtil.ancestorsOf(ref.snapshotId(), table::snapshot)) {
        reachable.add(s.snapshotId());
      }
    }
    return reachable.contains(snapshotId);
  }

  private static void commitRun(
      Table table, String runId, String date, String branch, Record... rows) {
    ContentHash hash = ContentHash.empty();
    RecordHasher hasher = new RecordHasher(table.schema());
    for (Record r : rows) {
      hasher.add(r, hash);
    }
    OverwriteFiles overwrite =
        table
            .newOverwrite()
            .overwriteByRowFilter(Expressions.equal("d", (int) LocalDate.parse(date).toEpochDay()))
            .addFile(TableRows.write(table, rows))
            .set(LineageKeys.RUN_ID, runId)
            .set(LineageKeys.JOB, "job-" + runId)
            .set(LineageKeys.MODE, "overwrite")
            .set(LineageKeys.CONTENT_HASH, hash.encode())
            .set(LineageKeys.SLICE, "d=[" + date + "," + LocalDate.parse(date).plusDays(1) + ")");
    if (branch != null) {
      overwrite.toBranch(branch);
    }
    overwrite.commit();
    table.refresh();
  }

  /** {@code table}, running {@code hook} before each call of {@code method}. */
  private static Table proxy(Table table, String method, Runnable hook) {
    return (Table)
        Proxy.newProxyInstance(
            Table.class.getClassLoader(),
            new Class<?>[] {Table.class, HasTableOperations.class},
            (p, m, args) -> {
              if (m.getName().equals(method)) {
                hook.run();
              }
              try {
                return m.invoke(table, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  /** An append recording its run id; hooks for a failure after the commit and failed lookups. */
  private static final class AppendRun implements CommitAction<String> {
    private final String runId;
    private final List<DataFile> files;
    private java.util.function.Supplier<RuntimeException> afterCommit = () -> null;
    private int failLookupsFrom = Integer.MAX_VALUE;
    private int lookups;
    private Optional<String> onConflict = Optional.empty();

    AppendRun(String runId, List<DataFile> files) {
      this.runId = runId;
      this.files = files;
    }

    @Override
    public String subject() {
      return "the append of " + runId;
    }

    @Override
    public String target() {
      return "s.t";
    }

    @Override
    public String runId() {
      return runId;
    }

    @Override
    public Optional<Snapshot> findCommitted(Table table) {
      if (++lookups >= failLookupsFrom) {
        throw new RESTException("Error occurred while processing GET request");
      }
      return RunLookup.find(table, runId, null);
    }

    @Override
    public Attempt<String> prepare(Table table, int attempt) {
      AppendFiles append = table.newAppend().set(LineageKeys.RUN_ID, runId);
      files.forEach(append::appendFile);
      return Attempt.commit(
          () -> {
            append.commit();
            RuntimeException e = afterCommit.get();
            if (e != null) {
              throw e;
            }
          });
    }

    @Override
    public Optional<String> onConflict(Table table, ValidationException e, int attempt) {
      if (onConflict.isPresent()) {
        return onConflict;
      }
      throw new CommitConflictException("conflict");
    }

    @Override
    public String committed(Table table, Snapshot snapshot, int attempt) {
      return "committed";
    }
  }
}
