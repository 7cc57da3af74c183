package dev.floe.catalog.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.CommitConflictException;
import dev.floe.catalog.error.CommitStateUnknownException;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.RESTException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The commit core's rules, each driven by the failure a catalog really raises, on a real embedded
 * catalog: what is committed is read from the table's history, what is deleted from the disk.
 */
class RunCommitTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;

  @BeforeEach
  void createTable() {
    table = catalog.create("t.events", SCHEMA, PartitionSpec.unpartitioned());
  }

  @Test
  void aCommitWhoseAnswerWasLostIsFoundByItsRunIdAndReportedCommittedOnce() {
    DataFile file = file(1);
    AppendRun run =
        new AppendRun(
            "run-1",
            List.of(file),
            append -> {
              append.commit();
              throw new RESTException("Error occurred while processing POST request");
            });

    String outcome = RunCommit.of(table, run).files(List.of(file)).commit();

    table.refresh();
    assertThat(outcome).isEqualTo("committed run-1 at attempt 1");
    assertThat(snapshotsOf("run-1")).isEqualTo(1);
    assertThat(exists(file)).isTrue();
  }

  @Test
  void anUnknownOutcomeThatDidNotLandKeepsTheFilesAndExitsFive() {
    DataFile file = file(1);
    AppendRun run =
        new AppendRun(
            "run-1",
            List.of(file),
            append -> {
              throw new org.apache.iceberg.exceptions.CommitStateUnknownException(
                  new RuntimeException("connection reset"));
            });

    assertThatThrownBy(() -> RunCommit.of(table, run).files(List.of(file)).commit())
        .isInstanceOf(CommitStateUnknownException.class)
        .hasMessageContaining("Cannot tell whether the append of run-1 to t.events was committed")
        .hasMessageContaining("run run-1 is not in the history yet")
        .satisfies(e -> assertThat(((CommitStateUnknownException) e).exitCode()).isEqualTo(5));
    assertThat(exists(file)).as("a file that may be live is never deleted").isTrue();
  }

  @Test
  void aDroppedConnectionWithoutACommitIsUnknownNotAFailureThatDeletesFiles() {
    DataFile file = file(1);
    AppendRun run =
        new AppendRun(
            "run-1",
            List.of(file),
            append -> {
              throw new RESTException("Error occurred while processing POST request");
            });

    assertThatThrownBy(() -> RunCommit.of(table, run).files(List.of(file)).commit())
        .isInstanceOf(CommitStateUnknownException.class);
    assertThat(exists(file)).isTrue();
  }

  @Test
  void aCommitTheCatalogKeptRejectingIsAConflictThatDeletesTheFiles() {
    DataFile file = file(1);
    AppendRun run =
        new AppendRun(
            "run-1",
            List.of(file),
            append -> {
              throw new CommitFailedException("Commit failed: requirement failed");
            });

    assertThatThrownBy(() -> RunCommit.of(table, run).files(List.of(file)).commit())
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("the catalog kept rejecting the commit")
        .hasMessageContaining("nothing was committed");
    assertThat(exists(file)).isFalse();
  }

  @Test
  void aRejectedCommitThatLandedOnAnEarlierAttemptIsCommittedNotDeleted() {
    DataFile file = file(1);
    AppendRun run =
        new AppendRun(
            "run-1",
            List.of(file),
            append -> {
              append.commit();
              throw new CommitFailedException("Commit failed: a retry after a lost answer");
            });

    assertThat(RunCommit.of(table, run).files(List.of(file)).commit())
        .isEqualTo("committed run-1 at attempt 1");
    assertThat(exists(file)).isTrue();
  }

  @Test
  void aValidationFailureGoesToTheOperationsConflictRuleWhichMayRetryOnTheNewHead() {
    DataFile file = file(1);
    List<Integer> conflicts = new ArrayList<>();
    AppendRun run =
        new AppendRun(
            "run-1",
            List.of(file),
            append -> {
              if (conflicts.isEmpty()) {
                conflicts.add(1);
                throw new ValidationException("Found conflicting files");
              }
              append.commit();
            });
    run.onConflict = attempt -> Optional.empty();

    String outcome = RunCommit.of(table, run).maxAttempts(3).commit();

    assertThat(outcome).isEqualTo("committed run-1 at attempt 2");
    assertThat(snapshotsOf("run-1")).isEqualTo(1);
  }

  @Test
  void attemptFilesOfAConflictedAttemptAreDeletedAndTheRunsFilesKeptForTheRetry() {
    DataFile runFile = file(1);
    DataFile firstAttempt = file(2);
    DataFile secondAttempt = file(3);
    List<DataFile> perAttempt = new ArrayList<>(List.of(firstAttempt, secondAttempt));
    List<Integer> conflicts = new ArrayList<>();
    AppendRun run =
        new AppendRun(
            "run-1",
            List.of(runFile),
            append -> {
              if (conflicts.isEmpty()) {
                conflicts.add(1);
                throw new ValidationException("Found conflicting files");
              }
              append.commit();
            });
    run.attemptFiles = perAttempt;
    run.onConflict = attempt -> Optional.empty();

    RunCommit.of(table, run).files(List.of(runFile)).maxAttempts(2).commit();

    assertThat(exists(firstAttempt)).isFalse();
    assertThat(exists(runFile)).isTrue();
    assertThat(exists(secondAttempt)).isTrue();
  }

  @Test
  void aRunAlreadyInTheHistoryIsReportedWithoutCommittingOrDeletingAgain() {
    DataFile file = file(1);
    RunCommit.of(table, new AppendRun("run-1", List.of(file), AppendFiles::commit)).commit();
    long head = table.currentSnapshot().snapshotId();
    DataFile again = file(1);

    String outcome =
        RunCommit.of(table, new AppendRun("run-1", List.of(again), AppendFiles::commit))
            .files(List.of(again))
            .commit();

    table.refresh();
    assertThat(outcome).isEqualTo("committed run-1 at attempt 0");
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
  }

  @Test
  void aFailureInjectedBeforeTheCommitDeletesTheFilesAndCommitsNothing() {
    DataFile file = file(1);
    AppendRun run = new AppendRun("run-1", List.of(file), AppendFiles::commit);

    assertThatThrownBy(() -> commitFailingAt(run, file, FailurePoint.BEFORE_COMMIT))
        .isInstanceOf(InjectedFailureException.class);
    table.refresh();
    assertThat(table.currentSnapshot()).isNull();
    assertThat(exists(file)).isFalse();
  }

  @Test
  void aLostAnswerInjectedAfterTheCatalogCommittedEndsCommittedWithOneSnapshot() {
    DataFile file = file(1);
    AppendRun run = new AppendRun("run-1", List.of(file), AppendFiles::commit);

    String outcome = commitFailingAt(run, file, FailurePoint.LOST_RESPONSE);

    assertThat(outcome).isEqualTo("committed run-1 at attempt 1");
    assertThat(snapshotsOf("run-1")).isEqualTo(1);
  }

  @Test
  void aRequestLostBeforeTheCatalogIsAnUnknownOutcomeThatCommitsNothingAndKeepsTheFiles() {
    DataFile file = file(1);
    AppendRun run = new AppendRun("run-1", List.of(file), AppendFiles::commit);

    assertThatThrownBy(() -> commitFailingAt(run, file, FailurePoint.LOST_REQUEST))
        .isInstanceOf(CommitStateUnknownException.class)
        .hasMessageContaining("Cannot tell whether")
        .hasMessageContaining("run run-1 is not in the history yet; the files were kept");
    assertThat(snapshotsOf("run-1")).isZero();
    assertThat(exists(file)).isTrue();

    // The rerun of the same run commits it once.
    assertThat(RunCommit.of(table, run).files(List.of(file)).commit())
        .isEqualTo("committed run-1 at attempt 1");
    assertThat(snapshotsOf("run-1")).isEqualTo(1);
  }

  @Test
  void aCrashInjectedAfterTheCommitKeepsTheCommitAndItsFiles() {
    DataFile file = file(1);
    AppendRun run = new AppendRun("run-1", List.of(file), AppendFiles::commit);

    assertThatThrownBy(() -> commitFailingAt(run, file, FailurePoint.AFTER_COMMIT))
        .isInstanceOf(InjectedFailureException.class);
    assertThat(snapshotsOf("run-1")).isEqualTo(1);
    assertThat(exists(file)).isTrue();
  }

  @Test
  void aCommitFoundAfterAFailureWhoseMetadataIsGoneIsUnknownNeverCommitted() {
    RunCommit.of(table, new AppendRun("run-0", List.of(file(0)), AppendFiles::commit)).commit();
    long parent = table.currentSnapshot().snapshotId();
    DataFile file = file(1);
    // What Iceberg's client does after a resent commit: the catalog holds the snapshot, but the
    // client's cleanup deleted its manifest list.
    AppendRun run =
        new AppendRun(
            "run-1",
            List.of(file),
            append -> {
              append.commit();
              table.refresh();
              table.io().deleteFile(table.currentSnapshot().manifestListLocation());
              throw new CommitFailedException(
                  "Commit failed: branch main was created concurrently");
            });

    assertThatThrownBy(() -> RunCommit.of(table, run).files(List.of(file)).commit())
        .isInstanceOf(CommitStateUnknownException.class)
        .hasMessageContaining("Cannot confirm the append of run-1 to t.events")
        .hasMessageContaining("floe rollback t.events --to-snapshot " + parent);
    assertThat(exists(file)).isTrue();
  }

  private int snapshotsOf(String runId) {
    table.refresh();
    int n = 0;
    for (Snapshot s : table.snapshots()) {
      if (runId.equals(s.summary().get(LineageKeys.RUN_ID))) {
        n++;
      }
    }
    return n;
  }

  private DataFile file(long id) {
    return TableRows.write(table, TableRows.row(table, Map.of("id", id)));
  }

  private static boolean exists(DataFile file) {
    return new File(file.location().replace("file:", "")).exists();
  }

  /** The smallest committing operation: append the run's files, recording its run id. */
  private final class AppendRun implements CommitAction<String> {
    private final String runId;
    private final List<DataFile> files;
    private final Consumer<AppendFiles> commit;
    private List<DataFile> attemptFiles = List.of();
    private java.util.function.IntFunction<Optional<String>> onConflict =
        attempt -> {
          throw new CommitConflictException("conflict");
        };

    AppendRun(String runId, List<DataFile> files, Consumer<AppendFiles> commit) {
      this.runId = runId;
      this.files = files;
      this.commit = commit;
    }

    @Override
    public String subject() {
      return "the append of " + runId + " to t.events";
    }

    @Override
    public String target() {
      return "t.events";
    }

    @Override
    public String runId() {
      return runId;
    }

    @Override
    public Attempt<String> prepare(Table refreshed, int attempt) {
      AppendFiles append = refreshed.newAppend().set(LineageKeys.RUN_ID, runId);
      files.forEach(append::appendFile);
      if (attemptFiles.isEmpty()) {
        return Attempt.commit(() -> commit.accept(append));
      }
      DataFile mine = attemptFiles.get(attempt - 1);
      append.appendFile(mine);
      return Attempt.commit(() -> commit.accept(append), List.of(mine));
    }

    @Override
    public Optional<String> onConflict(Table refreshed, ValidationException e, int attempt) {
      return onConflict.apply(attempt);
    }

    @Override
    public String committed(Table refreshed, Snapshot snapshot, int attempt) {
      return "committed " + runId + " at attempt " + attempt;
    }
  }

  private String commitFailingAt(AppendRun run, DataFile file, FailurePoint point) {
    return RunCommit.of(table, run).files(List.of(file)).failAt(point).commit();
  }
}
