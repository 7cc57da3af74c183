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

/** Floe's write path: {@link SliceJob#run} for one slice, exactly as {@code floe run} calls it. */
final class FloePath implements WritePath {
  /** How {@code SliceJob} begins the detail of a rerun it skipped before starting the job. */
  private static final String SKIPPED_DETAIL = "unchanged:";

  private final String name;
  private final CatalogConfig catalog;
  private final RunRequest request;
  private final long rows;
  private final ContentHash expected;
  private final long tableRows;
  private final Rerun rerun;
  private RunResult last;

  /**
   * @param rows rows the slice must hold after the run
   * @param expected the slice's expected content hash
   * @param tableRows rows the whole target must hold after the run (other slices included)
   */
  FloePath(
      String name,
      CatalogConfig catalog,
      JobSpec job,
      String day,
      int parallelism,
      long rows,
      ContentHash expected,
      long tableRows) {
    this(name, catalog, job, day, parallelism, rows, expected, tableRows, Rerun.NONE);
  }

  /**
   * @param rerun whether this is a no-op rerun, and of which kind: the slice already holds exactly
   *     these rows, so the run must end {@code NO_OP} without a commit; otherwise the commit is
   *     forced
   */
  FloePath(
      String name,
      CatalogConfig catalog,
      JobSpec job,
      String day,
      int parallelism,
      long rows,
      ContentHash expected,
      long tableRows,
      Rerun rerun) {
    this.name = name;
    this.catalog = catalog;
    // Force the commit: every run rewrites the same rows, and without it the second run would be
    // a no-op (written files deleted, no snapshot), which is not the path we want to time. The
    // rerun paths are that no-op, as a user's rerun gets it.
    this.request =
        RunRequest.of(catalog, job, day)
            .withOptions(o -> o.parallelism(parallelism).forceCommit(rerun == Rerun.NONE));
    this.rows = rows;
    this.expected = expected;
    this.tableRows = tableRows;
    this.rerun = rerun;
  }

  /** Which run of the job a path is. */
  enum Rerun {
    /** A load: the commit is forced. */
    NONE,
    /**
     * A rerun with the source untouched since the slice's commit: Floe skips it before any Flink
     * job starts ({@code UnchangedRerun}), from lineage alone.
     */
    SOURCE_UNTOUCHED,
    /**
     * A rerun after the source got a new snapshot with the same rows (an empty append, as a
     * re-seeded or compacted source gets one): the job runs, reads and hashes every row, and its
     * content comparison ends it as a no-op.
     */
    NEW_SOURCE_SNAPSHOT
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long rows() {
    return rows;
  }

  @Override
  public long rowsWritten() {
    return rerun == Rerun.NONE ? rows : 0;
  }

  /**
   * For {@link Rerun#NEW_SOURCE_SNAPSHOT}: commits an empty append to the staging table the query
   * reads, a new source snapshot with the same rows, so the rerun cannot be skipped from lineage.
   */
  @Override
  public void prepare() {
    if (rerun != Rerun.NEW_SOURCE_SNAPSHOT) {
      return;
    }
    Catalog c = Catalogs.open(catalog);
    try {
      Catalogs.loadTable(c, BenchTables.STAGING).newAppend().commit();
    } finally {
      Catalogs.close(c);
    }
  }

  @Override
  public String entryMethod() {
    return SliceJob.class.getName() + ".run";
  }

  @Override
  public void execute() {
    last = SliceJob.run(request);
  }

  @Override
  public void verify() {
    CommitOutcome outcome = last.outcome();
    check(outcome != null, "no outcome (detached?)");
    boolean noOp = rerun != Rerun.NONE;
    CommitOutcome.Status wanted =
        noOp ? CommitOutcome.Status.NO_OP : CommitOutcome.Status.COMMITTED;
    check(outcome.status() == wanted, "status " + outcome.status() + ", expected " + wanted);
    check(outcome.rows() == rows, "outcome rows " + outcome.rows());
    // Which no-op it was: the rerun of an untouched source is skipped before its job starts; after
    // a new source snapshot the job must run and its content comparison decide.
    boolean skipped = outcome.detail() != null && outcome.detail().startsWith(SKIPPED_DETAIL);
    check(
        skipped == (rerun == Rerun.SOURCE_UNTOUCHED),
        "no-op detail '" + outcome.detail() + "' for a " + rerun + " run");
    Catalog c = Catalogs.open(catalog);
    try {
      Table table = Catalogs.loadTable(c, request.job().target());
      Snapshot snapshot = table.currentSnapshot();
      check(
          Long.valueOf(snapshot.snapshotId()).equals(outcome.snapshotId()),
          "head is not the run's snapshot");
      Map<String, String> summary = snapshot.summary();
      // A no-op leaves the head, an earlier run's commit, in place.
      check(
          noOp != last.runId().equals(summary.get(LineageKeys.RUN_ID)),
          noOp ? "the no-op rerun committed" : "head has another run id");
      check(String.valueOf(rows).equals(summary.get(LineageKeys.ROWS)), "floe.rows " + summary);
      check(
          expected.encode().equals(summary.get(LineageKeys.CONTENT_HASH)),
          "content hash " + summary.get(LineageKeys.CONTENT_HASH) + " != " + expected.encode());
      // Iceberg's own count, independent of Floe's lineage: nothing lost or left behind.
      check(
          String.valueOf(tableRows).equals(summary.get("total-records")),
          "total-records " + summary.get("total-records") + ", expected " + tableRows);
    } finally {
      Catalogs.close(c);
    }
  }

  private void check(boolean ok, String what) {
    if (!ok) {
      throw new IllegalStateException("Wrong result of " + name + ": " + what);
    }
  }
}
