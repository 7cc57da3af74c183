package dev.floe.flink.cli;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.snapshot.RefEntry;
import dev.floe.catalog.snapshot.Tags;
import dev.floe.flink.sql.ResultTable;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** `floe tags <table>`: a table's tags and branches. Metadata only; no Flink job. */
@Command(
    name = "tags",
    header = "List a table's tags and branches.",
    mixinStandardHelpOptions = true,
    description = {
      "List a table's tags and branches: where each points, how long it is kept, and the Floe run",
      "that made its snapshot. Marks rollback tags (floe-before-rollback-<n>), audit branches",
      "(audit-<run-id>) and scratch branches (scratch-<run-id>)."
    })
public final class TagsCommand implements Callable<Integer> {
  @Mixin CommonOptions common;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "TABLE", description = "namespace.table")
  String table;

  @Override
  public Integer call() {
    List<RefEntry> refs = common.withTable(table, Tags::list);
    PrintWriter out = spec.commandLine().getOut();
    List<Map<String, Object>> rows = refs.stream().map(TagsCommand::toMap).toList();
    if (common.json) {
      out.println(Json.write(rows));
      return ExitCodes.OK;
    }
    if (rows.isEmpty()) {
      out.println(table + " has no tags or branches yet (no snapshots).");
      return ExitCodes.OK;
    }
    List<String> columns =
        List.of(
            "name",
            "kind",
            "snapshot_id",
            "committed_at",
            "max_ref_age",
            "run_id",
            "job",
            "slice",
            "note");
    List<List<Object>> cells = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      List<Object> line = new ArrayList<>();
      columns.forEach(column -> line.add(row.get(column)));
      cells.add(line);
    }
    out.println(ResultTable.render(columns, cells));
    return ExitCodes.OK;
  }

  static Map<String, Object> toMap(RefEntry ref) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("name", ref.name());
    map.put("kind", ref.kind().name().toLowerCase(Locale.ROOT));
    map.put("role", ref.role().name().toLowerCase(Locale.ROOT));
    map.put("snapshot_id", ref.snapshotId());
    map.put("committed_at", Instant.ofEpochMilli(ref.snapshotTimestampMillis()).toString());
    map.put("max_ref_age", iso(ref.maxRefAge()));
    map.put("expires_at", ref.expiresAt() == null ? null : ref.expiresAt().toString());
    if (ref.kind() == RefEntry.Kind.BRANCH) {
      map.put("min_snapshots_to_keep", ref.minSnapshotsToKeep());
      map.put(
          "max_snapshot_age",
          ref.maxSnapshotAge() == null ? null : ref.maxSnapshotAge().toString());
    }
    Lineage lineage = ref.lineage().orElse(null);
    map.put("run_id", lineage == null ? null : lineage.runId());
    map.put("job", lineage == null ? null : lineage.job());
    map.put("slice", lineage == null ? null : lineage.slice());
    map.put("note", note(ref));
    return map;
  }

  /** {@code P30D} as the operator typed it, rather than Java's {@code PT720H}. */
  static String iso(Duration duration) {
    if (duration == null) {
      return null;
    }
    boolean wholeDays = !duration.isZero() && duration.equals(Duration.ofDays(duration.toDays()));
    return wholeDays ? "P" + duration.toDays() + "D" : duration.toString();
  }

  private static String note(RefEntry ref) {
    return switch (ref.role()) {
      case MAIN -> "current";
      case AUDIT -> "audit branch: floe publish or floe discard";
      case SCRATCH -> "scratch branch of floe verify: dropped when it ends";
      case ROLLBACK -> "rollback tag: roll back to it to undo";
      case USER -> null;
    };
  }
}
