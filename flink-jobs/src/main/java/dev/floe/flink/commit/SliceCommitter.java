package dev.floe.flink.commit;

import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.CheckFailedException;
import dev.floe.catalog.error.CommitConflictException;
import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.snapshot.SliceContent;
import dev.floe.flink.check.CheckEvaluator;
import dev.floe.flink.check.CheckStats;
import dev.floe.flink.check.DuplicateKeys;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expression;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits one slice: checks, then no-op detection, then ONE snapshot that replaces exactly the
 * slice ({@code overwriteByRowFilter}) with Iceberg's validations, then conflict resolution. Until
 * a commit is attempted the written files belong to nobody and are deleted on every exit path;
 * after an attempt whose outcome is unknown they are kept, because they may be live.
 *
 * <p>Plain Iceberg API and no Flink, so it is tested directly against a real catalog.
 */
public final class SliceCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(SliceCommitter.class);

  private final Catalog catalog;
  private final CommitPlan plan;

  public SliceCommitter(Catalog catalog, CommitPlan plan) {
    this.catalog = catalog;
    this.plan = plan;
  }

  /**
   * @param files the data files the writers wrote (not yet part of any snapshot)
   * @param content the content hash of all rows written
   * @param stats per-row check violations
   * @param duplicateKeys duplicated key hashes per unique check
   * @throws CheckFailedException when a check failed (files deleted, nothing committed)
   * @throws CommitConflictException when a run with the same or newer sources committed other
   *     content for the slice (files deleted, nothing committed)
   * @throws dev.floe.catalog.error.CommitStateUnknownException when the catalog did not say whether
   *     the commit happened and the run id is not in the history (files kept)
   */
  public CommitOutcome commit(
      List<DataFile> files, ContentHash content, CheckStats stats, DuplicateKeys duplicateKeys) {
    boolean filesMayBeLive = false;
    try {
      Table table = Catalogs.loadTable(catalog, plan.target());
      CheckStats duplicates =
          DuplicateKeySamples.describe(table, files, plan.checks(), duplicateKeys);
      List<String> failures =
          CheckEvaluator.failures(plan.checks(), stats, duplicates, content.rows());
      if (!failures.isEmpty()) {
        throw new CheckFailedException(
            String.format(
                "Cannot commit %s: %d check(s) failed: %s",
                subject(), failures.size(), String.join(" | ", failures)));
      }
      if (plan.mode() == WriteMode.SWAP && content.rows() == 0 && !plan.allowEmpty()) {
        throw new CheckFailedException(
            String.format(
                "Cannot swap the content of %s: the query returned no rows; set allow_empty: true"
                    + " in the job manifest if an empty table is right",
                plan.target()));
      }
      if (!plan.forceCommit()) {
        SliceContent.Current current = SliceContent.current(table, plan.scope());
        if (current.hash().equals(content)) {
          return noOp(
              table,
              files,
              content,
              0,
              "the slice already holds exactly this content (found by " + current.method() + ")");
        }
      }
      if (plan.dryRun()) {
        deleteQuietly(table, files);
        return new CommitOutcome(
            CommitOutcome.Status.DRY_RUN,
            RunHistory.headId(table),
            content.rows(),
            content.encode(),
            0,
            "dry run: checks passed; a real run would replace "
                + subject()
                + " with "
                + content.rows()
                + " rows in one snapshot on "
                + plan.destination()
                + (plan.forceCommit() ? " (forced)" : ""));
      }
      Lineage lineage =
          plan.lineage()
              .withContent(content)
              .withSourcesUntil(RunHistory.sourcesMovedSincePlanning(catalog, plan.lineage()));
      Long base = plan.startSnapshotId();
      for (int attempt = 1; attempt <= plan.maxConflictRetries() + 1; attempt++) {
        OverwriteFiles overwrite = newOverwrite(table, files, base, lineage);
        if (plan.failAt() == FailurePoint.BEFORE_COMMIT) {
          throw new IllegalStateException("Injected failure before the commit of " + subject());
        }
        try {
          filesMayBeLive = true;
          overwrite.commit();
          return committed(table, lineage, content, attempt);
        } catch (ValidationException conflict) {
          filesMayBeLive = false;
          table.refresh();
          ConflictResolver.Resolution resolution =
              ConflictResolver.resolve(catalog, table, base, plan.scope(), lineage, content);
          if (resolution == null) {
            // Iceberg refused the commit for a reason of its own, e.g. live files written under
            // an older, coarser partition spec that the slice would only partly delete.
            throw new IllegalStateException(
                String.format(
                    "Cannot commit %s: Iceberg refused it: %s", subject(), conflict.getMessage()),
                conflict);
          }
          LOG.info(
              "Commit of {} hit a conflict: {} ({})",
              subject(),
              resolution.action(),
              resolution.reason());
          switch (resolution.action()) {
            case NO_OP -> {
              return noOp(table, files, content, attempt, resolution.reason());
            }
            case STALE ->
                throw new CommitConflictException(
                    String.format(
                        "Cannot commit %s: %s; nothing was committed, rerun to load"
                            + " the current source data",
                        subject(), resolution.reason()),
                    conflict);
            case RETRY -> base = RunHistory.headId(table);
          }
        } catch (CommitFailedException retriesExhausted) {
          // Iceberg retried its metadata race and gave up: the commit certainly did not happen.
          filesMayBeLive = false;
          throw new CommitConflictException(
              String.format(
                  "Cannot commit %s: the catalog kept rejecting the commit (%s);"
                      + " nothing was committed",
                  subject(), retriesExhausted.getMessage()),
              retriesExhausted);
        } catch (CommitStateUnknownException unknown) {
          return resolveUnknown(table, lineage, content, attempt, unknown);
        }
      }
      throw new CommitConflictException(
          String.format(
              "Cannot commit %s: still conflicting after %d attempts",
              subject(), plan.maxConflictRetries() + 1));
    } catch (RuntimeException e) {
      if (!filesMayBeLive) {
        deleteQuietly(null, files);
      }
      throw e;
    }
  }

  private OverwriteFiles newOverwrite(
      Table table, List<DataFile> files, Long base, Lineage lineage) {
    Expression slice = plan.scope().toExpression();
    OverwriteFiles overwrite =
        table
            .newOverwrite()
            .overwriteByRowFilter(slice)
            .conflictDetectionFilter(slice)
            .validateNoConflictingData()
            .validateNoConflictingDeletes();
    if (!files.isEmpty()) {
      // Iceberg cannot run this validation without an added file ("Cannot determine partition
      // specs"); an empty slice adds none and must still commit, clearing the slice.
      overwrite.validateAddedFilesMatchOverwriteFilter();
    }
    if (base != null) {
      overwrite.validateFromSnapshot(base);
    }
    if (plan.branch() != null) {
      // A new branch forks from main's head at commit time, so the validations above still
      // compare against everything main committed since the run started.
      overwrite.toBranch(plan.branch());
    }
    files.forEach(overwrite::addFile);
    lineage.toSummary().forEach(overwrite::set);
    return overwrite;
  }

  /** Nothing to commit: the written files are deleted, the head stays. */
  private CommitOutcome noOp(
      Table table, List<DataFile> files, ContentHash content, int attempts, String detail) {
    Snapshot own = RunHistory.findRun(table, plan.lineage().runId(), plan.branch());
    if (own != null) {
      // This very run already committed (a re-executed committer): its files are live.
      return new CommitOutcome(
          CommitOutcome.Status.COMMITTED,
          own.snapshotId(),
          content.rows(),
          content.encode(),
          attempts,
          "committed");
    }
    deleteQuietly(table, files);
    return new CommitOutcome(
        CommitOutcome.Status.NO_OP,
        RunHistory.headId(table),
        content.rows(),
        content.encode(),
        attempts,
        detail);
  }

  private CommitOutcome committed(Table table, Lineage lineage, ContentHash content, int attempt) {
    table.refresh();
    Snapshot snapshot = RunHistory.findRun(table, lineage.runId(), plan.branch());
    return new CommitOutcome(
        CommitOutcome.Status.COMMITTED,
        snapshot == null ? RunHistory.headId(table) : snapshot.snapshotId(),
        content.rows(),
        content.encode(),
        attempt,
        attempt == 1 ? "committed" : "committed after re-committing over a run with older sources");
  }

  /** The catalog did not answer: look the run up by id before saying anything. */
  private CommitOutcome resolveUnknown(
      Table table,
      Lineage lineage,
      ContentHash content,
      int attempt,
      CommitStateUnknownException e) {
    try {
      table.refresh();
      if (RunHistory.findRun(table, lineage.runId(), plan.branch()) != null) {
        return committed(table, lineage, content, attempt);
      }
    } catch (RuntimeException lookupFailed) {
      e.addSuppressed(lookupFailed);
    }
    throw new dev.floe.catalog.error.CommitStateUnknownException(
        String.format(
            "Cannot tell whether %s was committed: run %s is not in the history yet;"
                + " the data files were kept; check `floe snapshots %s` before rerunning",
            subject(), lineage.runId(), plan.target()),
        e);
  }

  /** What this run replaces, for messages: "slice order_date=[...) of t" or "the whole t". */
  private String subject() {
    return plan.scope().isWholeTable()
        ? "the whole table " + plan.target()
        : "slice " + plan.scope().label() + " of " + plan.target();
  }

  private void deleteQuietly(Table table, List<DataFile> files) {
    try {
      RunHistory.deleteQuietly(
          table == null ? Catalogs.loadTable(catalog, plan.target()) : table, files);
    } catch (RuntimeException e) {
      LOG.warn("Cannot load {} to delete uncommitted files: {}", plan.target(), e.toString());
    }
  }
}
