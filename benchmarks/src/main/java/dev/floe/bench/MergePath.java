package dev.floe.bench;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.RunResult;
import dev.floe.flink.job.SliceJob;
import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/**
 * One of the merge benchmark's two jobs, run with {@link SliceJob#run} exactly as {@code floe run}
 * calls it: the {@code mode: merge} job itself, or the baseline that rebuilds the merged table
 * whole ({@code mode: swap}).
 */
abstract class MergePath implements WritePath {
  final CatalogConfig catalog;
  final String target;
  private final RunRequest request;
  private RunResult last;

  MergePath(CatalogConfig catalog, RunRequest request) {
    this.catalog = catalog;
    this.target = request.job().target();
    this.request = request;
  }

  @Override
  public String entryMethod() {
    return SliceJob.class.getName() + ".run";
  }

  @Override
  public void execute() {
    last = SliceJob.run(request);
  }

  /** The last run's own wall time, as {@code floe run} reports it. */
  double elapsedSeconds() {
    return last.elapsedMillis() / 1e3;
  }

  /** Puts the target back as it was before the run, so the next run does the same work. */
  abstract void reset();

  RunResult last() {
    return last;
  }

  /** Checks what every committed Floe run leaves: its snapshot at the head, with its lineage. */
  Snapshot verifyCommitted(Table table, ContentHash content, long totalRecords) {
    CommitOutcome outcome = last.outcome();
    check(outcome != null, "no outcome (detached?)");
    check(
        outcome.status() == CommitOutcome.Status.COMMITTED,
        "status " + outcome.status() + ": " + outcome.detail());
    Snapshot head = table.currentSnapshot();
    check(Long.valueOf(head.snapshotId()).equals(outcome.snapshotId()), "head is another snapshot");
    Map<String, String> summary = head.summary();
    check(last.runId().equals(summary.get(LineageKeys.RUN_ID)), "head has another run id");
    check(
        content.encode().equals(summary.get(LineageKeys.CONTENT_HASH)),
        "content hash " + summary.get(LineageKeys.CONTENT_HASH) + " != " + content.encode());
    // Iceberg's own count, independent of Floe's lineage: nothing lost, nothing doubled.
    check(
        String.valueOf(totalRecords).equals(summary.get("total-records")),
        "total-records " + summary.get("total-records") + ", expected " + totalRecords);
    return head;
  }

  /** The target as it is now, to read its metadata (the catalog is closed again). */
  Table load() {
    Catalog c = Catalogs.open(catalog);
    try {
      return Catalogs.loadTable(c, target);
    } finally {
      Catalogs.close(c);
    }
  }

  void check(boolean ok, String what) {
    if (!ok) {
      throw new IllegalStateException("Wrong result of " + name() + ": " + what);
    }
  }

  /** The {@code mode: merge} job, rolled back to the prepared target after every run. */
  static final class Merge extends MergePath {
    private final DimRows rows;
    private final int updateKeys;
    private final int files;
    private final ContentHash batch;
    private final long base;
    private MergeDetail detail;

    /**
     * @param files data files of the prepared target (all in the merge's scope)
     * @param batch the staging rows' content hash (a merge's lineage records its batch)
     */
    Merge(
        CatalogConfig catalog,
        JobSpec job,
        int parallelism,
        DimRows rows,
        int updateKeys,
        int files,
        ContentHash batch) {
      // No --force-commit: a keyed mode refuses it, and every run here changes rows anyway.
      super(
          catalog, RunRequest.of(catalog, job, null).withOptions(o -> o.parallelism(parallelism)));
      this.rows = rows;
      this.updateKeys = updateKeys;
      this.files = files;
      this.batch = batch;
      this.base = load().currentSnapshot().snapshotId();
    }

    @Override
    public String name() {
      return "merge";
    }

    @Override
    public long rows() {
      return updateKeys + rows.newKeys();
    }

    @Override
    public void verify() {
      Table table = load();
      MergeDetail counts = MergeDetail.parse(last().outcome().detail());
      long keys = rows();
      check(counts.received() == keys && counts.keys() == keys, "batch " + counts);
      check(
          counts.inserted() == rows.newKeys() && counts.updated() == updateKeys,
          "inserted/updated " + counts);
      check(counts.unchanged() == 0 && counts.deleted() == 0, "unchanged/deleted " + counts);
      check(counts.filesInScope() == files, "files in scope " + counts);
      check(counts.filesRewritten() <= counts.filesRead(), "rewrote more than it read " + counts);
      check(detail == null || detail.equals(counts), "counts changed: " + detail + " -> " + counts);
      Snapshot head = verifyCommitted(table, batch, rows.rowsAfterMerge());
      check(Long.valueOf(base).equals(head.parentId()), "not committed on the prepared target");
      Map<String, String> summary = head.summary();
      check(
          String.valueOf(counts.filesRewritten()).equals(summary.get("deleted-data-files"))
              || (counts.filesRewritten() == 0 && summary.get("deleted-data-files") == null),
          "deleted-data-files " + summary.get("deleted-data-files") + " for " + counts);
      long added = Long.parseLong(summary.getOrDefault("added-records", "0"));
      long deleted = Long.parseLong(summary.getOrDefault("deleted-records", "0"));
      check(added - deleted == rows.newKeys(), "added " + added + " - deleted " + deleted);
      detail = counts;
    }

    /** Rolls the target back to the prepared snapshot (metadata only; the run's files stay). */
    @Override
    void reset() {
      Catalog c = Catalogs.open(catalog);
      try {
        Catalogs.loadTable(c, target).manageSnapshots().setCurrentSnapshot(base).commit();
      } finally {
        Catalogs.close(c);
      }
      check(load().currentSnapshot().snapshotId() == base, "rollback did not take");
    }

    MergeDetail detail() {
      return detail;
    }
  }

  /** The baseline: {@code mode: swap} of the merged result, computed in SQL, into a copy. */
  static final class Rebuild extends MergePath {
    private final long rows;
    private final ContentHash merged;

    /**
     * @param rows rows of the merged table
     * @param merged its expected content hash
     */
    Rebuild(CatalogConfig catalog, JobSpec job, int parallelism, long rows, ContentHash merged) {
      // Forced: every run rebuilds the same content, and the baseline must really write it.
      super(
          catalog,
          RunRequest.of(catalog, job, null)
              .withOptions(o -> o.parallelism(parallelism).forceCommit(true)));
      this.rows = rows;
      this.merged = merged;
    }

    @Override
    public String name() {
      return "full rewrite (swap)";
    }

    @Override
    public long rows() {
      return rows;
    }

    @Override
    public void verify() {
      verifyCommitted(load(), merged, rows);
    }

    @Override
    void reset() {
      // Nothing to undo: the next swap replaces the whole table again.
    }
  }
}
