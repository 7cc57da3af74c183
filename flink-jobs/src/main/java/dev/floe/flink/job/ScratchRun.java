package dev.floe.flink.job;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.catalog.snapshot.DropScratch;
import dev.floe.catalog.snapshot.DropScratchPlan;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.run.PublishMode;
import java.util.Optional;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/**
 * Runs a job for one slice into a scratch branch {@code scratch-<run-id>} instead of main, and
 * reads back what the run left: the primitive behind {@code floe verify} and a backfill's sample
 * check. Main is never moved. Call {@link #drop} when done: it removes the branch, its snapshot and
 * the files only that snapshot references.
 *
 * <p>Overwrite and swap commit with force, so a run whose result equals main's still leaves a
 * branch to read. Merge and insert-if-absent commit only rows that change; a run that changes
 * nothing is a no-op, and then its result is main's content.
 */
public final class ScratchRun {

  private ScratchRun() {}

  /**
   * Runs {@code request} into a scratch branch. Its publish mode and force flag are set here;
   * everything else (catalog, job, slice, parallelism, an injected failure) is the request's.
   *
   * @throws InvalidInputException for a dry run (it would leave nothing to read) and everything
   *     {@link SliceJob#run} throws
   */
  public static ScratchResult run(RunRequest request) {
    InvalidInputException.check(
        !request.options().dryRun(),
        "Cannot run %s into a scratch branch as a dry run: a dry run commits nothing to read back",
        request.job().source());
    RunRequest scratch =
        request.withOptions(
            o -> o.publish(PublishMode.SCRATCH).forceCommit(!request.job().mode().isKeyed()));
    RunResult result = SliceJob.run(scratch);
    CommitOutcome outcome = result.outcome();
    if (outcome == null) {
      throw new IllegalStateException(
          "Cannot read the scratch run of " + result.job() + ": the job ran detached");
    }
    boolean onBranch = outcome.status() == CommitOutcome.Status.COMMITTED;
    String branch = PublishMode.SCRATCH.branch(result.runId());
    Catalog catalog = Catalogs.open(request.catalog());
    try {
      Table table = Catalogs.loadTable(catalog, result.target());
      Long snapshotId = onBranch ? table.refs().get(branch).snapshotId() : outcome.snapshotId();
      ContentHash content =
          snapshotId == null
              ? ContentHash.empty()
              : TableContent.hash(table, snapshotId, scope(table, request).toExpression());
      return new ScratchResult(result, branch, onBranch, snapshotId, content);
    } catch (RuntimeException e) {
      if (onBranch) {
        dropQuietly(request.catalog(), result.target(), branch, e);
      }
      throw e;
    } finally {
      Catalogs.close(catalog);
    }
  }

  /**
   * Removes the run's scratch branch, its snapshot and the files only it references; nothing when
   * the run left no branch.
   *
   * @return what was dropped, or empty when there was no branch
   */
  public static Optional<DropScratchPlan> drop(CatalogConfig config, ScratchResult result) {
    if (!result.onBranch()) {
      return Optional.empty();
    }
    Catalog catalog = Catalogs.open(config);
    try {
      Table table = Catalogs.loadTable(catalog, result.run().target());
      return Optional.of(
          DropScratch.of(table, result.run().target()).branch(result.branch()).commit());
    } finally {
      Catalogs.close(catalog);
    }
  }

  /** The rows the run owned, resolved as {@link SliceJob} resolves them. */
  static Scope scope(Table table, RunRequest request) {
    JobSpec spec = request.job();
    return spec.hasSlice()
        ? Scope.of(
            SliceResolver.resolve(spec.target(), table, spec.sliceColumn(), request.sliceValue()))
        : Scope.wholeTable();
  }

  private static void dropQuietly(
      CatalogConfig config, String target, String branch, RuntimeException failure) {
    Catalog catalog = Catalogs.open(config);
    try {
      DropScratch.of(Catalogs.loadTable(catalog, target), target).branch(branch).commit();
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    } finally {
      Catalogs.close(catalog);
    }
  }
}
