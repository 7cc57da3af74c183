package dev.floe.flink.cli;

import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.snapshot.SnapshotEntry;
import dev.floe.catalog.snapshot.SnapshotHistory;
import dev.floe.flink.sql.ResultTable;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `floe snapshots <table>`: the history with Floe's lineage. Metadata only; no Flink job. */
@Command(
    name = "snapshots",
    header = "List a table's snapshots with Floe's lineage.",
    mixinStandardHelpOptions = true,
    description = {
      "List a table's snapshots, newest first, with the lineage of Floe's commits.",
      "",
      "on_main (--json) is true for the current snapshot and its ancestors, false for a",
      "snapshot main does not hold (rolled back, on a branch), and null for one older than",
      "where a snapshot expiry cut main's history (a tag keeps it): whether main held it",
      "cannot be told."
    })
public final class SnapshotsCommand implements Callable<Integer> {
  @Mixin CommonOptions common;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "TABLE", description = "namespace.table")
  String table;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "Show at most N snapshots, N >= 1 (default: all).")
  Integer limit;

  @Option(
      names = "--backfill",
      paramLabel = "ID",
      description =
          "Only the snapshots a backfill committed (their floe.backfill-id), e.g. to see which"
              + " slices it rebuilt.")
  String backfill;

  @Override
  public Integer call() {
    InvalidInputException.check(
        limit == null || limit >= 1,
        "Cannot list the snapshots of %s with --limit %s: give a number of at least 1, or leave"
            + " --limit out for all",
        table,
        limit);
    Catalog catalog = Catalogs.open(common.catalog());
    List<SnapshotEntry> entries;
    Map<Long, String> reverts;
    try {
      Table loaded = Catalogs.loadTable(catalog, table);
      entries = SnapshotHistory.list(loaded);
      reverts = revertedRuns(loaded);
    } finally {
      Catalogs.close(catalog);
    }
    if (backfill != null) {
      entries =
          entries.stream()
              .filter(e -> e.lineage().map(l -> backfill.equals(l.backfillId())).orElse(false))
              .toList();
    }
    if (limit != null && entries.size() > limit) {
      entries = entries.subList(0, limit);
    }
    print(entries, reverts, spec.commandLine().getOut());
    for (SnapshotEntry entry : entries) {
      if (entry.lineageProblem() != null) {
        spec.commandLine()
            .getErr()
            .printf(
                "floe: warning: snapshot %d holds Floe lineage keys Floe cannot read (%s); it is"
                    + " listed without job, slice or run%n",
                entry.snapshotId(), entry.lineageProblem());
      }
    }
    return ExitCodes.OK;
  }

  /** Snapshot id to the run a `floe revert` commit reverted ({@code floe.reverts}). */
  static Map<Long, String> revertedRuns(Table table) {
    Map<Long, String> reverts = new HashMap<>();
    for (Snapshot snapshot : table.snapshots()) {
      String run = snapshot.summary() == null ? null : snapshot.summary().get(LineageKeys.REVERTS);
      if (run != null) {
        reverts.put(snapshot.snapshotId(), run);
      }
    }
    return reverts;
  }

  private void print(List<SnapshotEntry> entries, Map<Long, String> reverts, PrintWriter out) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (SnapshotEntry entry : entries) {
      rows.add(toMap(entry, reverts.get(entry.snapshotId())));
    }
    if (common.json) {
      out.println(Json.write(rows));
      return;
    }
    if (rows.isEmpty()) {
      out.println(
          backfill == null
              ? table + " has no snapshots yet."
              : table + " has no snapshot of backfill " + backfill + ".");
      return;
    }
    printTable(entries, reverts, out, "");
  }

  /** The text table of `floe snapshots`, each line prefixed with {@code indent}. */
  static void printTable(List<SnapshotEntry> entries, PrintWriter out, String indent) {
    printTable(entries, Map.of(), out, indent);
  }

  /** The same, marking revert commits with the run they reverted. */
  static void printTable(
      List<SnapshotEntry> entries, Map<Long, String> reverts, PrintWriter out, String indent) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (SnapshotEntry entry : entries) {
      rows.add(toMap(entry, reverts.get(entry.snapshotId())));
    }
    List<String> columns =
        List.of(
            "snapshot_id",
            "committed_at",
            "operation",
            "job",
            "slice",
            "rows",
            "added",
            "deleted",
            "run_id");
    List<List<Object>> cells = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      List<Object> line = new ArrayList<>();
      for (String column : columns) {
        Object value = row.get(column);
        if (column.equals("snapshot_id") && Boolean.TRUE.equals(row.get("current"))) {
          value = value + " *";
        } else if (column.equals("snapshot_id") && Boolean.FALSE.equals(row.get("on_main"))) {
          value = value + " ~";
        } else if (column.equals("snapshot_id") && row.get("on_main") == null) {
          value = value + " ?";
        }
        if (column.equals("job") && row.get("reverts") != null) {
          value = value + " (reverts " + row.get("reverts") + ")";
        }
        line.add(value);
      }
      cells.add(line);
    }
    boolean offMain = rows.stream().anyMatch(row -> Boolean.FALSE.equals(row.get("on_main")));
    boolean unknown = rows.stream().anyMatch(row -> row.get("on_main") == null);
    String table =
        ResultTable.render(columns, cells)
            + "\n* = current snapshot"
            + (offMain ? "; ~ = not in main's history (rolled back, or on a branch)" : "")
            + (unknown
                ? "; ? = older than where an expiry cut main's history: whether main held it is"
                    + " unknown"
                : "");
    out.println(indent + table.replace("\n", "\n" + indent));
  }

  /**
   * @param reverts for a `floe revert` commit, the run it reverted; else null
   */
  static Map<String, Object> toMap(SnapshotEntry entry, String reverts) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("snapshot_id", entry.snapshotId());
    map.put("parent_id", entry.parentId());
    map.put("committed_at", Instant.ofEpochMilli(entry.timestampMillis()).toString());
    map.put("operation", entry.operation());
    map.put("current", entry.current());
    map.put("on_main", entry.onMain());
    map.put("added", entry.addedRows());
    map.put("deleted", entry.deletedRows());
    Lineage lineage = entry.lineage().orElse(null);
    map.put("job", lineage == null ? null : lineage.job());
    map.put("mode", lineage == null ? null : lineage.mode());
    map.put("slice", lineage == null ? null : lineage.slice());
    map.put("rows", entry.rows());
    map.put("run_id", lineage == null ? null : lineage.runId());
    map.put("run_key", lineage == null ? null : lineage.runKey());
    map.put("code_version", lineage == null ? null : lineage.codeVersion());
    map.put("content_hash", lineage == null ? null : lineage.contentHash());
    map.put("source_snapshots", lineage == null ? null : lineage.sourceSnapshots());
    map.put("backfill_id", lineage == null ? null : lineage.backfillId());
    map.put("reverts", reverts);
    map.put("lineage_problem", entry.lineageProblem());
    return map;
  }
}
