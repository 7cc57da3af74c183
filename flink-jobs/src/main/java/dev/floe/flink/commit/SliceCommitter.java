package dev.floe.flink.commit;

import dev.floe.catalog.commit.Attempt;
import dev.floe.catalog.commit.CommitAction;
import dev.floe.catalog.commit.CommitUpdates;
import dev.floe.catalog.commit.RunCommit;
import dev.floe.catalog.commit.RunLookup;
import dev.floe.catalog.commit.ScopeConflicts;
import dev.floe.catalog.commit.SourceDrift;
import dev.floe.catalog.commit.WriteSchema;
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
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expression;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits one slice (or, for a swap, the whole table) through the commit core ({@link RunCommit}):
 * the target's schema unchanged since the writers started ({@link WriteSchema}), checks, then no-op
 * detection, then ONE snapshot that replaces exactly the scope ({@code overwriteByRowFilter}) with
 * Iceberg's validations; a conflict is resolved by {@link ScopeConflicts} (DESIGN.md rule 7). The
 * core deletes the written files whenever they cannot be live and keeps them when the outcome is
 * unknown.
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
   *     content for the slice, or a source was rewritten during the run (files deleted, nothing
   *     committed)
   * @throws dev.floe.catalog.error.CommitStateUnknownException when the catalog did not say whether
   *     the commit happened and the run id is not in the history (files kept)
   */
  public CommitOutcome commit(
      List<DataFile> files, ContentHash content, CheckStats stats, DuplicateKeys duplicateKeys) {
    Table table;
    try {
      table = Catalogs.loadTable(catalog, plan.target());
    } catch (RuntimeException e) {
      LOG.warn("Cannot load {} to delete its uncommitted files: {}", plan.target(), e.toString());
      throw e;
    }
    return commit(table, files, content, stats, duplicateKeys);
  }

  /** As {@link #commit(List, ContentHash, CheckStats, DuplicateKeys)}, on the target as loaded. */
  CommitOutcome commit(
      Table table,
      List<DataFile> files,
      ContentHash content,
      CheckStats stats,
      DuplicateKeys duplicateKeys) {
    return RunCommit.of(table, new Overwrite(files, content, stats, duplicateKeys))
        .files(files)
        .failAt(plan.failAt())
        .maxAttempts(plan.maxConflictRetries() + 1)
        .commit();
  }

  /** The overwrite of the scope, as the commit core sees it. */
  private final class Overwrite implements CommitAction<CommitOutcome> {
    private final List<DataFile> files;
    private final ContentHash content;
    private final CheckStats stats;
    private final DuplicateKeys duplicateKeys;
    private Lineage lineage;
    private Long base = plan.startSnapshotId();

    /** Why the last conflict allowed a re-commit on top of the newer snapshot, for the outcome. */
    private String recommitReason;

    Overwrite(
        List<DataFile> files, ContentHash content, CheckStats stats, DuplicateKeys duplicateKeys) {
      this.files = files;
      this.content = content;
      this.stats = stats;
      this.duplicateKeys = duplicateKeys;
    }

    @Override
    public String subject() {
      return SliceCommitter.this.subject();
    }

    @Override
    public String target() {
      return plan.target();
    }

    @Override
    public String runId() {
      return plan.lineage().runId();
    }

    @Override
    public String branch() {
      return plan.branch();
    }

    @Override
    public Attempt<CommitOutcome> prepare(Table table, int attempt) {
      // Re-checked on every attempt, first: the files hold rows of the planned schema only.
      WriteSchema.requireCurrent(table, plan.schemaId(), subject());
      if (attempt == 1) {
        Optional<CommitOutcome> done = checkAndCompare(table);
        if (done.isPresent()) {
          return Attempt.done(done.get());
        }
      }
      // Re-checked on every attempt: a source rewritten meanwhile makes this result stale.
      SourceDrift.requireNoRewrite(catalog, plan.lineage(), plan.scope(), subject());
      lineage = plan.lineage().withContent(content);
      OverwriteFiles overwrite = newOverwrite(table, base);
      return Attempt.commit(overwrite::commit);
    }

    /** Checks, the empty swap, the no-op and the dry run: a result when nothing is committed. */
    private Optional<CommitOutcome> checkAndCompare(Table table) {
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
        SliceContent.Comparison comparison = SliceContent.compare(table, plan.scope(), content);
        if (comparison.same()) {
          return Optional.of(
              noOp(
                  table,
                  0,
                  "the slice already holds exactly this content ("
                      + (comparison.method().equals("empty")
                          ? "both are empty"
                          : "found by " + comparison.method())
                      + ")"));
        }
      }
      if (plan.dryRun()) {
        return Optional.of(
            new CommitOutcome(
                CommitOutcome.Status.DRY_RUN,
                RunLookup.headId(table),
                content.rows(),
                content.encode(),
                0,
                "dry run: checks passed; a real run would replace "
                    + subject()
                    + " with "
                    + content.rows()
                    + " rows in one snapshot on "
                    + plan.destination()
                    + (plan.forceCommit() ? " (forced)" : "")));
      }
      return Optional.empty();
    }

    private OverwriteFiles newOverwrite(Table table, Long from) {
      Expression slice = plan.scope().toExpression();
      OverwriteFiles overwrite =
          CommitUpdates.newOverwrite(table)
              .overwriteByRowFilter(slice)
              .conflictDetectionFilter(slice)
              .validateNoConflictingData()
              .validateNoConflictingDeletes();
      if (!files.isEmpty()) {
        // Iceberg cannot run this validation without an added file ("Cannot determine partition
        // specs"); an empty slice adds none and must still commit, clearing the slice.
        overwrite.validateAddedFilesMatchOverwriteFilter();
      }
      if (from != null) {
        overwrite.validateFromSnapshot(from);
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

    @Override
    public Optional<CommitOutcome> onConflict(
        Table table, ValidationException conflict, int attempt) {
      ScopeConflicts.Resolution resolution =
          ScopeConflicts.resolve(catalog, table, base, plan.scope(), lineage, content);
      if (resolution == null) {
        if (!plan.scope().isWholeTable()) {
          OutsideSliceRefusal.explain(table, plan.scope().slice(), subject(), files, conflict);
        }
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
          return Optional.of(noOp(table, attempt, resolution.reason()));
        }
        case STALE ->
            throw new CommitConflictException(
                String.format(
                    "Cannot commit %s: %s; nothing was committed, rerun to load"
                        + " the current source data",
                    subject(), resolution.reason()),
                conflict);
        case RETRY -> {
          base = RunLookup.headId(table);
          recommitReason = resolution.reason();
        }
      }
      return Optional.empty();
    }

    @Override
    public CommitOutcome committed(Table table, Snapshot snapshot, int attempt) {
      return new CommitOutcome(
          CommitOutcome.Status.COMMITTED,
          snapshot.snapshotId(),
          content.rows(),
          content.encode(),
          Math.max(attempt, 1),
          attempt <= 1 || recommitReason == null
              ? "committed"
              : "committed on top of the newer snapshot: " + recommitReason);
    }

    /** Nothing to commit: the core deletes the written files, the head stays. */
    private CommitOutcome noOp(Table table, int attempts, String detail) {
      return new CommitOutcome(
          CommitOutcome.Status.NO_OP,
          RunLookup.headId(table),
          content.rows(),
          content.encode(),
          attempts,
          detail);
    }
  }

  /** What this run replaces, for messages: "slice order_date=[...) of t" or "the whole t". */
  private String subject() {
    return plan.scope().isWholeTable()
        ? "the whole table " + plan.target()
        : "slice " + plan.scope().label() + " of " + plan.target();
  }
}
