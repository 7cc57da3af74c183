package dev.floe.flink.maintain;

import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.CodeVersion;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.lineage.RunKey;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.snapshot.SliceFootprint;
import dev.floe.flink.commit.RunHistory;
import dev.floe.flink.job.JobFailures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.util.SnapshotUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits one slice's compaction: checks that every planned group arrived and that the rows read
 * and the rows written hash equal, refuses when a commit after the base snapshot touched the slice,
 * then replaces the small files with the new ones in ONE {@code RewriteFiles} snapshot validated
 * from the base snapshot. A slice that is not committed has its new files deleted, and the others
 * carry on. Plain Iceberg API and no Flink.
 */
final class CompactionCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(CompactionCommitter.class);

  /** How lineage names the compaction "job" ({@code floe.job}). */
  static final String JOB = "floe-maintain-compact";

  private final Catalog catalog;
  private final CompactionPlan plan;

  CompactionCommitter(Catalog catalog, CompactionPlan plan) {
    this.catalog = catalog;
    this.plan = plan;
  }

  /**
   * @param slice the planned slice (with at least one group)
   * @param rewritten what the rewriters returned for its groups
   */
  SliceCompaction commit(PlannedSlice slice, List<Rewritten> rewritten) {
    Table table = Catalogs.loadTable(catalog, plan.table());
    List<DataFile> outputs = new ArrayList<>();
    rewritten.forEach(r -> outputs.addAll(r.outputs()));
    boolean filesMayBeLive = false;
    try {
      if (RunHistory.findRun(table, slice.runId()) != null) {
        // A re-executed committer: the first attempt committed, so the outputs are live.
        return compacted(table, slice, outputs, sum(rewritten, true));
      }
      String refusal = contentRefusal(slice, rewritten);
      if (refusal != null) {
        return failed(slice, outputs, ExitCodes.CHECK_FAILED, refusal);
      }
      Snapshot touching = newestTouching(table, slice);
      if (touching != null) {
        return failed(slice, outputs, ExitCodes.COMMIT_CONFLICT, changedBy(touching));
      }
      ContentHash content = sum(rewritten, true);
      RewriteFiles rewrite = table.newRewrite().validateFromSnapshot(plan.baseSnapshotId());
      slice.groups().forEach(g -> g.inputs().forEach(rewrite::deleteFile));
      outputs.forEach(rewrite::addFile);
      summary(slice, content).forEach(rewrite::set);
      try {
        filesMayBeLive = true;
        rewrite.commit();
      } catch (ValidationException | CommitFailedException conflict) {
        table.refresh();
        if (RunHistory.findRun(table, slice.runId()) != null) {
          // Iceberg retried and our commit went through before it gave up.
          return compacted(table, slice, outputs, content);
        }
        filesMayBeLive = false;
        Snapshot newest = newestTouching(table, slice);
        String reason =
            newest != null
                ? changedBy(newest)
                : "Iceberg refused the commit: " + JobFailures.firstLine(conflict.getMessage());
        return failed(slice, outputs, ExitCodes.COMMIT_CONFLICT, reason);
      } catch (CommitStateUnknownException unknown) {
        table.refresh();
        Snapshot own = RunHistory.findRun(table, slice.runId());
        if (own == null) {
          return failed(
              slice,
              List.of(), // they may be live: never deleted blindly
              ExitCodes.COMMIT_STATE_UNKNOWN,
              "the catalog did not say whether the commit happened and run "
                  + slice.runId()
                  + " is not in the history yet; its files were kept; check `floe snapshots "
                  + plan.table()
                  + "` before compacting again");
        }
      }
      return compacted(table, slice, outputs, sum(rewritten, true));
    } catch (RuntimeException e) {
      if (!filesMayBeLive) {
        RunHistory.deleteQuietly(table, outputs);
      }
      throw e;
    }
  }

  /** The slice's report once its run id is in the history: this run's commit happened. */
  private SliceCompaction compacted(
      Table table, PlannedSlice slice, List<DataFile> outputs, ContentHash content) {
    table.refresh();
    Snapshot own = RunHistory.findRun(table, slice.runId());
    FileStats written = FileStats.of(outputs);
    FileStats after = slice.before().minus(slice.rewritten()).plus(written);
    return new SliceCompaction(
        slice.value(),
        slice.slice().label(),
        SliceCompaction.Status.COMPACTED,
        slice.before(),
        slice.rewritten(),
        written,
        slice.expectedOutputs(),
        after,
        own == null ? RunHistory.headId(table) : own.snapshotId(),
        slice.runId(),
        ExitCodes.OK,
        "replaced "
            + slice.rewritten().files()
            + " small file(s) with "
            + written.files()
            + " in one snapshot; "
            + content.rows()
            + " rows, content hash unchanged");
  }

  /** Why the rewritten content must not be committed, or null when it may. */
  private static String contentRefusal(PlannedSlice slice, List<Rewritten> rewritten) {
    Set<Integer> planned = new TreeSet<>();
    slice.groups().forEach(g -> planned.add(g.index()));
    Set<Integer> arrived = new TreeSet<>();
    rewritten.forEach(r -> arrived.add(r.groupIndex()));
    if (!planned.equals(arrived)) {
      return "the rewriters returned groups " + arrived + " but " + planned + " were planned";
    }
    ContentHash read = sum(rewritten, false);
    ContentHash written = sum(rewritten, true);
    long expectedRows = slice.rewritten().rows();
    if (read.rows() != expectedRows) {
      return "read " + read.rows() + " rows from files whose metadata counts " + expectedRows;
    }
    if (!read.equals(written)) {
      return "the rows written (content hash "
          + written.encode()
          + ") differ from the rows read ("
          + read.encode()
          + ")";
    }
    return null;
  }

  private static ContentHash sum(List<Rewritten> rewritten, boolean written) {
    ContentHash total = ContentHash.empty();
    rewritten.forEach(r -> total.merge(written ? r.written() : r.read()));
    return total;
  }

  /** The newest commit after the base snapshot that may have changed the slice's files, or null. */
  private Snapshot newestTouching(Table table, PlannedSlice slice) {
    Snapshot head = table.currentSnapshot();
    if (head == null) {
      return null;
    }
    if (head.snapshotId() != plan.baseSnapshotId()
        && !SnapshotUtil.isAncestorOf(table, head.snapshotId(), plan.baseSnapshotId())) {
      return head; // a rollback moved the head off the base: the files read may not be live
    }
    SliceFootprint footprint = new SliceFootprint(table, Scope.of(slice.slice()));
    for (Snapshot s :
        SnapshotUtil.ancestorsBetween(table, head.snapshotId(), plan.baseSnapshotId())) {
      if (footprint.touchedBy(s)) {
        return s;
      }
    }
    return null;
  }

  private static String changedBy(Snapshot snapshot) {
    String runId = snapshot.summary().get(LineageKeys.RUN_ID);
    return "snapshot "
        + snapshot.snapshotId()
        + " (operation "
        + snapshot.operation()
        + (runId == null ? "" : ", run " + runId)
        + ") changed the slice after compaction read it; nothing was committed for this slice;"
        + " run the compaction again to compact the current files";
  }

  /** Compaction lineage: the rewritten rows under their own keys, never as the slice's content. */
  private Map<String, String> summary(PlannedSlice slice, ContentHash content) {
    Map<String, String> summary = new java.util.LinkedHashMap<>(lineage(slice).toSummary());
    summary.remove(LineageKeys.ROWS);
    summary.remove(LineageKeys.CONTENT_HASH);
    summary.put(LineageKeys.COMPACTED_ROWS, Long.toString(content.rows()));
    summary.put(LineageKeys.COMPACTED_CONTENT_HASH, content.encode());
    return summary;
  }

  private Lineage lineage(PlannedSlice slice) {
    String label = slice.slice().label();
    return new Lineage(
        RunKey.of(JOB, plan.table(), label, "", CodeVersion.current()),
        slice.runId(),
        JOB,
        WriteMode.COMPACT_LINEAGE_MODE,
        label,
        CodeVersion.current(),
        0,
        null,
        Map.of(),
        null);
  }

  private SliceCompaction failed(
      PlannedSlice slice, List<DataFile> toDelete, int exitCode, String reason) {
    if (!toDelete.isEmpty()) {
      RunHistory.deleteQuietly(Catalogs.loadTable(catalog, plan.table()), toDelete);
    }
    String detail =
        "Cannot compact slice " + slice.slice().label() + " of " + plan.table() + ": " + reason;
    LOG.warn(detail);
    return new SliceCompaction(
        slice.value(),
        slice.slice().label(),
        SliceCompaction.Status.FAILED,
        slice.before(),
        slice.rewritten(),
        FileStats.NONE,
        slice.expectedOutputs(),
        slice.before(),
        null,
        slice.runId(),
        exitCode,
        detail);
  }

  /** The outcome of a slice whose commit failed unexpectedly (exit 1). */
  SliceCompaction unexpected(PlannedSlice slice, RuntimeException e) {
    LOG.warn("Compaction of {} of {} failed", slice.slice().label(), plan.table(), e);
    return failed(slice, List.of(), ExitCodes.UNEXPECTED, e.toString());
  }
}
