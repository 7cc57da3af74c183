package dev.floe.flink.maintain;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.Timeout;
import dev.floe.catalog.lineage.ExactTypes;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.spec.WritableProperties;
import dev.floe.flink.job.Deadline;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Compacts the small data files of given slices of a table ({@code floe maintain --compact --slice
 * ...}), with one Flink batch job and ONE commit per slice. Like Iceberg's pending updates, {@link
 * #apply()} says what would happen ({@code --dry-run}: files per slice, expected outputs; nothing
 * runs) and {@link #commit()} does it.
 *
 * <p>Safe by construction: only data files wholly inside a slice are read, so no row of another
 * slice is touched; a slice is committed only when the rows written hash equal to the rows read;
 * each commit is an Iceberg {@code RewriteFiles} validated from the snapshot the job read, so a
 * slice changed meanwhile is reported (exit 4) and the others go on; files that are not committed
 * are deleted. The commit carries {@code floe.mode=compact} lineage, which no-op detection looks
 * through: a rerun of the slice's job after compaction is still a no-op.
 *
 * <pre>{@code
 * CompactionResult result =
 *     Compaction.of(catalog, "sales.fact_orders").slices(List.of("2026-10-03")).commit();
 * }</pre>
 */
public final class Compaction {
  private final CatalogConfig catalog;
  private final String table;
  private List<String> slices = List.of();
  private Long targetFileSizeBytes;
  private Integer deleteFileThreshold;
  private Double deleteRatioThreshold;
  private int parallelism;
  private FailurePoint failAt = FailurePoint.NONE;
  private Timeout timeout;
  private Runnable afterPlanning = () -> {};

  private Compaction(CatalogConfig catalog, String table) {
    this.catalog = catalog;
    this.table = table;
  }

  /**
   * @param catalog the catalog holding the table
   * @param table {@code namespace.table}
   */
  public static Compaction of(CatalogConfig catalog, String table) {
    return new Compaction(catalog, table);
  }

  /**
   * The slices to compact, as an operator types {@code --slice}: {@code 2026-10-03}, {@code
   * 2026-10}, {@code 2026-10-03T05}, or {@code column=value} on a table with several time partition
   * columns. Resolved like {@code floe run --slice} (see {@link CompactionSlices}).
   */
  public Compaction slices(List<String> values) {
    this.slices = List.copyOf(values);
    return this;
  }

  /**
   * Outputs are closed at this size, and files below 3/4 of it are small. Default: the table's
   * {@value TableProperties#WRITE_TARGET_FILE_SIZE_BYTES} (Iceberg's default 512 MiB when unset).
   */
  public Compaction targetFileSizeBytes(long bytes) {
    InvalidInputException.check(
        bytes > 0,
        "Cannot compact %s: the target file size must be positive, got %d",
        table,
        bytes);
    this.targetFileSizeBytes = bytes;
    return this;
  }

  /**
   * Rewrite a data file of any size once this many delete files apply to it. Default: the table's
   * {@code floe.maintain.delete-file-threshold} (the table's maintenance policy), else 10.
   */
  public Compaction deleteFileThreshold(int files) {
    this.deleteFileThreshold = files;
    return this;
  }

  /**
   * Rewrite a data file of any size once this share of its rows (0 to 1) is deleted by position
   * deletes or a deletion vector. Default: the table's {@code floe.maintain.deleted-row-ratio} (the
   * table's maintenance policy), else 0.3.
   */
  public Compaction deleteRatioThreshold(double ratio) {
    this.deleteRatioThreshold = ratio;
    return this;
  }

  /** Rewriter parallelism; 0 (default) keeps Flink's default. Never more than the groups. */
  public Compaction parallelism(int value) {
    InvalidInputException.check(
        value >= 0,
        "Cannot compact %s: parallelism must be 0 (default) or more, got %d",
        table,
        value);
    this.parallelism = value;
    return this;
  }

  /**
   * How long the compaction may take, from {@link #commit()} on; null (default) for no limit. Past
   * it the job is cancelled and no further slice is committed; the files of every uncommitted slice
   * are deleted, and {@link #commit()} throws {@link dev.floe.catalog.error.TimedOutException}
   * (exit 6) naming the slices committed before, if any. A deadline that passes while the committer
   * is at work leaves the remaining slices FAILED with exit code 6.
   */
  public Compaction timeout(Timeout value) {
    this.timeout = value;
    return this;
  }

  /** Test seam: fail on purpose after files were written, before any commit. */
  public Compaction failAt(FailurePoint value) {
    this.failAt = value;
    return this;
  }

  /** Test seam: runs after the files were planned from the base snapshot, before the job. */
  Compaction afterPlanning(Runnable hook) {
    this.afterPlanning = hook;
    return this;
  }

  /**
   * What compaction would do: per slice, the small files it would replace and the number of files
   * it would write. Reads metadata only; runs no job and commits nothing.
   *
   * @throws InvalidInputException (exit 2) for an unknown table or a bad slice
   */
  public CompactionResult apply() {
    return execute(true);
  }

  /**
   * Compacts every slice that has something to compact, one commit each. A slice that fails is
   * reported in the result (its files deleted) and the others are still committed; see {@link
   * CompactionResult#exitCode()}.
   *
   * @throws InvalidInputException (exit 2) for an unknown table or a bad slice
   * @throws IllegalStateException when the job itself failed; nothing was committed unless the
   *     message names the slices committed before the failure, and the files written for the other
   *     slices were deleted
   */
  public CompactionResult commit() {
    return execute(false);
  }

  /**
   * Refuses bad input without reading data files, so that {@code floe maintain} can check every
   * action before the first one changes anything.
   *
   * @return the resolved slices, in the given order
   * @throws InvalidInputException (exit 2) for an unknown table, a bad or overlapping slice, or a
   *     table compaction cannot rewrite
   */
  public List<Slice> check() {
    Catalog opened = Catalogs.open(catalog);
    try {
      return check(Catalogs.loadTable(opened, table));
    } finally {
      Catalogs.close(opened);
    }
  }

  private List<Slice> check(Table loaded) {
    List<Slice> resolved = CompactionSlices.resolve(table, loaded, slices);
    // Rows are read and written with Iceberg's generic reader and writer, never as Flink rows:
    // the Iceberg rule applies (a time column keeps its microseconds).
    ExactTypes.require("compact " + table, table, loaded.schema(), ExactTypes.Path.ICEBERG);
    WritableProperties.require("compact " + table, table, loaded.properties());
    thresholds(loaded);
    RowLayout.of(loaded, table); // refuses sort without a sort order, bad z-order columns
    return resolved;
  }

  private DeleteThresholds thresholds(Table loaded) {
    DeleteThresholds fromTable = CompactionOptions.thresholds(table, loaded.properties());
    return DeleteThresholds.of(
        table,
        deleteFileThreshold != null ? deleteFileThreshold : fromTable.deleteFiles(),
        deleteRatioThreshold != null ? deleteRatioThreshold : fromTable.deletedRatio());
  }

  private CompactionResult execute(boolean dryRun) {
    long started = System.nanoTime(); // timing for the report only
    Deadline deadline = timeout == null ? null : Deadline.after(timeout, Clock.systemUTC());
    Catalog opened = Catalogs.open(catalog);
    try {
      Table loaded = Catalogs.loadTable(opened, table);
      List<Slice> resolved = check(loaded);
      long target = targetFileSizeBytes != null ? targetFileSizeBytes : tableTarget(loaded);
      Snapshot base = loaded.currentSnapshot();
      if (base == null) {
        List<SliceCompaction> outcomes = new ArrayList<>();
        for (int i = 0; i < resolved.size(); i++) {
          PlannedSlice empty =
              new PlannedSlice(
                  i,
                  slices.get(i),
                  resolved.get(i),
                  null,
                  FileStats.NONE,
                  List.of(),
                  "the table is empty");
          outcomes.add(nothingToCompact(empty));
        }
        return new CompactionResult(table, dryRun, null, target, outcomes, elapsed(started));
      }
      RowLayout layout = RowLayout.of(loaded, table);
      List<PlannedSlice> planned =
          CompactionPlanner.plan(
              loaded, base.snapshotId(), slices, resolved, target, thresholds(loaded), layout);
      CompactionPlan plan =
          new CompactionPlan(catalog, table, base.snapshotId(), target, planned, failAt, layout);
      Map<Integer, SliceCompaction> committed = Map.of();
      if (!dryRun && !plan.groups().isEmpty()) {
        afterPlanning.run();
        failAt.failIf(FailurePoint.AFTER_PLANNING, "after planning the compaction of " + table);
        committed = CompactionJob.run(plan, loaded, parallelism, deadline);
      }
      List<SliceCompaction> outcomes = new ArrayList<>();
      for (PlannedSlice slice : planned) {
        if (slice.groups().isEmpty()) {
          outcomes.add(nothingToCompact(slice));
        } else if (dryRun) {
          outcomes.add(wouldCompact(slice));
        } else {
          outcomes.add(committed.getOrDefault(slice.index(), submitted(slice)));
        }
      }
      return new CompactionResult(
          table, dryRun, base.snapshotId(), target, outcomes, elapsed(started));
    } finally {
      Catalogs.close(opened);
    }
  }

  private static long tableTarget(Table table) {
    return PropertyUtil.propertyAsLong(
        table.properties(),
        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
  }

  private static SliceCompaction nothingToCompact(PlannedSlice slice) {
    return new SliceCompaction(
        slice.value(),
        slice.slice().label(),
        SliceCompaction.Status.NOTHING_TO_COMPACT,
        slice.before(),
        FileStats.NONE,
        FileStats.NONE,
        0,
        slice.before(),
        0,
        Map.of(),
        null,
        null,
        ExitCodes.OK,
        "nothing to compact: " + slice.nothingToDo());
  }

  private static SliceCompaction wouldCompact(PlannedSlice slice) {
    FileStats rewritten = slice.rewritten();
    // The rewrite applies the delete files: rows that position deletes name are not written.
    FileStats expected =
        new FileStats(
            slice.expectedOutputs(),
            slice.expectedOutputBytes(),
            rewritten.rows() - slice.positionDeletedRows());
    return new SliceCompaction(
        slice.value(),
        slice.slice().label(),
        SliceCompaction.Status.WOULD_COMPACT,
        slice.before(),
        rewritten,
        FileStats.NONE,
        slice.expectedOutputs(),
        slice.before().minus(rewritten).plus(expected),
        slice.obsoleteDeletes().size(),
        slice.removedByManifest(),
        null,
        null,
        ExitCodes.OK,
        "dry run: would replace "
            + rewritten.files()
            + " file(s) ("
            + rewritten.bytes()
            + " bytes) with about "
            + slice.expectedOutputs()
            + " file(s), in one snapshot"
            + CompactionCommitter.deletesApplied(slice, true));
  }

  private static SliceCompaction submitted(PlannedSlice slice) {
    return SliceCompaction.uncommitted(
        slice,
        SliceCompaction.Status.SUBMITTED,
        ExitCodes.OK,
        "submitted (detached: the TaskManager logs the outcome in a line starting 'Floe"
            + " compaction')");
  }

  private static long elapsed(long started) {
    return (System.nanoTime() - started) / 1_000_000;
  }
}
