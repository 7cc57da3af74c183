package dev.floe.flink.commit;

import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.LineageKeys;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.util.SnapshotUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What every committer asks of a table's history and does with files it did not commit. */
public final class RunHistory {
  private static final Logger LOG = LoggerFactory.getLogger(RunHistory.class);

  private RunHistory() {}

  /** The snapshot on the current branch that run {@code runId} committed, or null. */
  public static Snapshot findRun(Table table, String runId) {
    return findRun(table, runId, null);
  }

  /**
   * The snapshot on {@code branch} (null: main) that run {@code runId} committed, or null; also
   * null when the branch does not exist.
   */
  public static Snapshot findRun(Table table, String runId, String branch) {
    Snapshot head = branch == null ? table.currentSnapshot() : table.snapshot(branch);
    if (head == null) {
      return null;
    }
    for (Snapshot s : SnapshotUtil.ancestorsOf(head.snapshotId(), table::snapshot)) {
      if (runId.equals(s.summary().get(LineageKeys.RUN_ID))) {
        return s;
      }
    }
    return null;
  }

  /** The current snapshot's id, or null for a table without snapshots. */
  public static Long headId(Table table) {
    Snapshot head = table.currentSnapshot();
    return head == null ? null : head.snapshotId();
  }

  /**
   * The snapshot ids were taken when the job was planned; Flink's Iceberg source picks its snapshot
   * a little later. A source that committed in between may have been read at any snapshot up to its
   * current one: record that upper bound, so no later run mistakes this one for a run on older
   * data.
   */
  public static Map<String, Long> sourcesMovedSincePlanning(Catalog catalog, Lineage lineage) {
    Map<String, Long> moved = new TreeMap<>();
    lineage
        .sourceSnapshots()
        .forEach(
            (source, planned) -> {
              Snapshot head = Catalogs.loadTable(catalog, source).currentSnapshot();
              if (head != null && head.snapshotId() != planned) {
                moved.put(source, head.snapshotId());
              }
            });
    return moved;
  }

  /** Deletes data files no snapshot references; a failure is logged, never thrown. */
  public static void deleteQuietly(Table table, List<DataFile> files) {
    try {
      for (DataFile file : files) {
        table.io().deleteFile(file.location());
      }
    } catch (RuntimeException e) {
      LOG.warn(
          "Cannot delete {} uncommitted data files of {}: {}",
          files.size(),
          table.name(),
          e.toString());
    }
  }
}
