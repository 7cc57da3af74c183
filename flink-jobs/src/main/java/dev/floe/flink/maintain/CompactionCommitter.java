package dev.floe.flink.maintain;

import dev.floe.catalog.commit.Attempt;
import dev.floe.catalog.commit.CommitAction;
import dev.floe.catalog.commit.ManifestScans;
import dev.floe.catalog.commit.RunCommit;
import dev.floe.catalog.commit.UncommittedFiles;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.CommitConflictException;
import dev.floe.catalog.error.CommitStateUnknownException;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.CodeVersion;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.lineage.RunKey;
import dev.floe.catalog.lineage.SliceFootprint;
import dev.floe.catalog.slice.Scope;
import dev.floe.flink.job.JobFailures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.util.SnapshotUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits one slice's compaction: checks that every planned group arrived and that the rows read
 * and the rows written hash equal, refuses when a commit after the base snapshot touched the slice,
 * then replaces the small files with the new ones in ONE {@code RewriteFiles} snapshot validated
 * from the base snapshot, through the commit core ({@link RunCommit}). A slice that is not
 * committed has its new files deleted (kept when the outcome is unknown), and the others carry on.
 * Plain Iceberg API and no Flink.
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
    String refusal = contentRefusal(slice, rewritten);
    if (refusal != null) {
      UncommittedFiles.delete(table, outputs);
      return failed(slice, ExitCodes.CHECK_FAILED, refusal(slice, refusal));
    }
    ContentHash content = sum(rewritten, true);
    try {
      return RunCommit.of(table, new Rewrite(slice, outputs, content))
          .files(outputs)
          .failAt(plan.failAt())
          .commit();
    } catch (CommitConflictException | CommitStateUnknownException e) {
      return failed(slice, e.exitCode(), e.getMessage());
    }
  }

  /** One slice's rewrite, as the commit core sees it: never retried, refused when touched. */
  private final class Rewrite implements CommitAction<SliceCompaction> {
    private final PlannedSlice slice;
    private final List<DataFile> outputs;
    private final ContentHash content;

    Rewrite(PlannedSlice slice, List<DataFile> outputs, ContentHash content) {
      this.slice = slice;
      this.outputs = outputs;
      this.content = content;
    }

    @Override
    public String subject() {
      return "the compaction of slice " + slice.slice().label() + " of " + plan.table();
    }

    @Override
    public String target() {
      return plan.table();
    }

    @Override
    public String runId() {
      return slice.runId();
    }

    @Override
    public Attempt<SliceCompaction> prepare(Table table, int attempt) {
      Snapshot touching = newestTouching(table, slice);
      if (touching != null) {
        throw new CommitConflictException(refusal(slice, changedBy(table, touching)));
      }
      RewriteFiles rewrite = table.newRewrite().validateFromSnapshot(plan.baseSnapshotId());
      ManifestScans.onCommittingThreadIfLocal(table, rewrite);
      slice.groups().forEach(g -> g.inputs().forEach(rewrite::deleteFile));
      // Delete files all of whose data files were rewritten (with them applied) go too.
      slice.obsoleteDeletes().forEach(rewrite::deleteFile);
      outputs.forEach(rewrite::addFile);
      // The new files keep the base snapshot's data sequence number (as Spark's rewrite does):
      // an equality delete committed after the base still applies to them, and none committed
      // at or before it does (its rows are already gone).
      Snapshot base = table.snapshot(plan.baseSnapshotId());
      if (base != null) {
        rewrite.dataSequenceNumber(base.sequenceNumber());
      }
      summary(slice, content).forEach(rewrite::set);
      return Attempt.commit(rewrite::commit);
    }

    @Override
    public Optional<SliceCompaction> onConflict(
        Table table, ValidationException conflict, int attempt) {
      Snapshot newest = newestTouching(table, slice);
      throw new CommitConflictException(
          refusal(
              slice,
              newest != null
                  ? changedBy(table, newest)
                  : "Iceberg refused the commit: " + JobFailures.firstLine(conflict.getMessage())),
          conflict);
    }

    @Override
    public SliceCompaction committed(Table table, Snapshot snapshot, int attempt) {
      return compacted(slice, outputs, content, snapshot.snapshotId());
    }
  }

  /** The slice's report once its run id is in the history: this run's commit happened. */
  private static SliceCompaction compacted(
      PlannedSlice slice, List<DataFile> outputs, ContentHash content, long snapshotId) {
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
        slice.obsoleteDeletes().size(),
        slice.removedByManifest(),
        snapshotId,
        slice.runId(),
        ExitCodes.OK,
        "replaced "
            + slice.rewritten().files()
            + " file(s) with "
            + written.files()
            + " in one snapshot; "
            + content.rows()
            + " rows, content hash unchanged"
            + deletesApplied(slice, false));
  }

  /**
   * "; applied N delete file(s), removed M that no longer apply" (dry run: "; would apply ...,
   * dropping R deleted rows"), or nothing when no delete file applies.
   */
  static String deletesApplied(PlannedSlice slice, boolean dryRun) {
    long applied = slice.appliedDeletes();
    if (applied == 0) {
      return "";
    }
    if (dryRun) {
      return "; would apply "
          + applied
          + " delete file(s), dropping "
          + slice.positionDeletedRows()
          + (slice.deletedRowsKnown() ? "" : " or more (equality deletes are counted by reading)")
          + " deleted rows, and remove "
          + slice.obsoleteDeletes().size()
          + " that would no longer apply";
    }
    return "; applied "
        + applied
        + " delete file(s), removed "
        + slice.obsoleteDeletes().size()
        + " that no longer apply";
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
    for (Rewritten group : rewritten) {
      if (group.refusal() != null) {
        return group.refusal();
      }
    }
    ContentHash read = sum(rewritten, false);
    ContentHash written = sum(rewritten, true);
    long expectedRows = slice.rewritten().rows();
    long found = rewritten.stream().mapToLong(Rewritten::rowsInInputs).sum();
    if (found != expectedRows) {
      return "read " + found + " rows from files whose metadata counts " + expectedRows;
    }
    if (!read.equals(written)) {
      return "the rows written (content hash "
          + written.encode()
          + ") differ from the rows read ("
          + read.encode()
          + ")";
    }
    ContentHash lineageRead = ContentHash.empty();
    ContentHash lineageWritten = ContentHash.empty();
    rewritten.forEach(
        r -> {
          lineageRead.merge(r.lineageRead());
          lineageWritten.merge(r.lineageWritten());
        });
    if (!lineageRead.equals(lineageWritten)) {
      return "the rows written keep their values but not their row lineage (_row_id,"
          + " _last_updated_sequence_number: hash "
          + lineageWritten.encode()
          + " written, "
          + lineageRead.encode()
          + " read)";
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

  private String changedBy(Table table, Snapshot snapshot) {
    if (snapshot.snapshotId() != plan.baseSnapshotId()
        && !SnapshotUtil.isAncestorOf(table, snapshot.snapshotId(), plan.baseSnapshotId())) {
      // The head itself (newestTouching): naming it blamed the older load a rollback went back to.
      return "main no longer descends from snapshot "
          + plan.baseSnapshotId()
          + " the compaction read (it is at snapshot "
          + snapshot.snapshotId()
          + ": the table was rolled back, or that snapshot expired, while the compaction was in"
          + " flight); nothing was committed for this slice; run the compaction again to compact"
          + " the current files";
    }
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

  /** "Cannot compact slice X of T: reason". */
  private String refusal(PlannedSlice slice, String reason) {
    return "Cannot compact slice " + slice.slice().label() + " of " + plan.table() + ": " + reason;
  }

  private static SliceCompaction failed(PlannedSlice slice, int exitCode, String detail) {
    // The report shows the detail; a WARN would print it again on stderr in the log's format.
    LOG.info(detail);
    return SliceCompaction.uncommitted(slice, SliceCompaction.Status.FAILED, exitCode, detail);
  }

  /** The outcome of a slice whose commit failed unexpectedly (exit 1). */
  SliceCompaction unexpected(PlannedSlice slice, RuntimeException e) {
    LOG.info("Compaction of {} of {} failed", slice.slice().label(), plan.table(), e);
    return failed(slice, ExitCodes.UNEXPECTED, refusal(slice, e.toString()));
  }
}
