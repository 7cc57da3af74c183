package dev.floe.catalog.snapshot;

import dev.floe.catalog.commit.RunLookup;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.LineageKeys;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;

/** Reads a table's snapshots with their lineage, newest first. Metadata only; no Flink. */
public final class SnapshotHistory {

  private SnapshotHistory() {}

  public static List<SnapshotEntry> list(Table table) {
    Snapshot current = table.currentSnapshot();
    Set<Long> mainLine = new HashSet<>();
    for (Snapshot s : SnapshotUtil.currentAncestors(table)) {
      mainLine.add(s.snapshotId());
    }
    Optional<Snapshot> cut = RunLookup.mainHistoryCut(table);
    List<SnapshotEntry> entries = new ArrayList<>();
    for (Snapshot snapshot : table.snapshots()) {
      Map<String, String> summary = snapshot.summary();
      String problem = Lineage.problem(summary).orElse(null);
      entries.add(
          new SnapshotEntry(
              snapshot.snapshotId(),
              snapshot.parentId(),
              snapshot.timestampMillis(),
              snapshot.operation(),
              current != null && current.snapshotId() == snapshot.snapshotId(),
              mainLine.contains(snapshot.snapshotId())
                  ? Boolean.TRUE
                  : RunLookup.olderThanCut(table, snapshot, cut) ? null : Boolean.FALSE,
              count(summary, SnapshotSummary.ADDED_RECORDS_PROP),
              count(summary, SnapshotSummary.DELETED_RECORDS_PROP),
              summary == null || !summary.containsKey(LineageKeys.ROWS) || problem != null
                  ? null
                  : count(summary, LineageKeys.ROWS),
              Lineage.readable(summary),
              problem));
    }
    entries.sort(
        Comparator.comparingLong(SnapshotEntry::timestampMillis)
            .thenComparingLong(e -> table.snapshot(e.snapshotId()).sequenceNumber())
            .reversed());
    return entries;
  }

  private static long count(Map<String, String> summary, String key) {
    String value = summary == null ? null : summary.get(key);
    return value == null ? 0 : Long.parseLong(value);
  }
}
