package dev.floe.flink.cli;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.snapshot.Rollback;
import dev.floe.catalog.snapshot.RollbackPlan;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `floe rollback <table> --to-snapshot ID`: move the current snapshot back, reversibly. */
@Command(
    name = "rollback",
    header = "Make an older snapshot of a table current again.",
    mixinStandardHelpOptions = true,
    description = {
      "Move a table's current snapshot back to an older one. The current head is tagged",
      "floe-before-rollback-<n> in the same commit, so `floe rollback TABLE --to-snapshot <tagged",
      "id> --allow-non-ancestor` undoes it. Metadata only; no data is read or written."
    })
public final class RollbackCommand implements Callable<Integer> {
  @Mixin CommonOptions common;
  @Mixin FailureInjectionOption failure;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "TABLE", description = "namespace.table")
  String table;

  @Option(names = "--to-snapshot", paramLabel = "ID", description = "The snapshot to make current.")
  Long toSnapshot;

  @Option(
      names = "--to-time",
      paramLabel = "ISO-8601",
      description = "The snapshot that was current at this instant, e.g. 2026-10-04T02:00:00Z.")
  String toTime;

  @Option(
      names = "--before-run",
      paramLabel = "RUN_ID",
      description = "The parent of the snapshot this Floe run committed (see `floe snapshots`).")
  String beforeRun;

  @Option(
      names = "--allow-non-ancestor",
      description =
          "Allow a target that is not an ancestor of the current snapshot (undoing a rollback).")
  boolean allowNonAncestor;

  @Option(
      names = "--dry-run",
      description =
          "Print what would change (rows of each partition that changes, before and after); change"
              + " nothing.")
  boolean dryRun;

  @Override
  public Integer call() {
    RollbackPlan plan =
        common.withTable(
            table,
            loaded -> {
              Rollback rollback =
                  Rollback.of(loaded, table)
                      .allowNonAncestor(allowNonAncestor)
                      .failAt(failure.point());
              if (toSnapshot != null) {
                rollback.toSnapshot(toSnapshot);
              }
              if (toTime != null) {
                rollback.toTime(parseTime(toTime));
              }
              if (beforeRun != null) {
                rollback.beforeRun(beforeRun);
              }
              return dryRun ? rollback.apply() : rollback.commit();
            });
    print(plan, spec.commandLine().getOut());
    return ExitCodes.OK;
  }

  private static Instant parseTime(String text) {
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      throw InvalidInputException.of(
          "Cannot parse --to-time '%s': expected ISO-8601 with an offset, e.g."
              + " 2026-10-04T02:00:00Z",
          text);
    }
  }

  /** Whether the rollback tags the head it moves away from: only when main had one. */
  private static boolean tags(RollbackPlan plan) {
    return !plan.changesNothing() && plan.fromSnapshotId() != null;
  }

  private void print(RollbackPlan plan, PrintWriter out) {
    if (common.json) {
      Map<String, Object> map = new LinkedHashMap<>();
      map.put("table", plan.table());
      map.put("dry_run", dryRun);
      map.put("from_snapshot_id", plan.fromSnapshotId());
      map.put("to_snapshot_id", plan.toSnapshotId());
      // A script reading .tag to undo must not get a name that is not there.
      map.put("tag", tags(plan) ? plan.tag() : null);
      map.put("ancestor", plan.ancestor());
      map.put("rows_before", plan.rowsBefore());
      map.put("rows_after", plan.rowsAfter());
      map.put("changed_partitions", plan.changedPartitions());
      map.put("changed", !plan.changesNothing());
      out.println(Json.write(map));
      return;
    }
    if (plan.changesNothing()) {
      out.printf(
          "%s is already at snapshot %d: nothing to roll back (no-op)%n",
          plan.table(), plan.toSnapshotId());
      return;
    }
    out.printf(
        "%s %s: snapshot %s -> %d%s%n",
        dryRun ? "would roll back" : "rolled back",
        plan.table(),
        plan.fromSnapshotId() == null ? "(none)" : plan.fromSnapshotId(),
        plan.toSnapshotId(),
        plan.ancestor() ? "" : " (not an ancestor)");
    if (tags(plan)) {
      out.printf(
          "  %s %s (undo: floe rollback %s --to-snapshot %s --allow-non-ancestor)%n",
          dryRun ? "would tag the current head" : "tagged the previous head",
          plan.tag(),
          ShellWord.of(plan.table()),
          plan.fromSnapshotId());
    } else {
      out.println("  main had no snapshot: there is no head to tag, nor a rollback to undo");
    }
    // Only the partitions the rollback changes: a table of 2,200 days printed 2,200 lines for one.
    out.println(
        "  rows per partition that changes (before -> after; changed: its data files differ):");
    TreeSet<String> partitions = new TreeSet<>(plan.rowsBefore().keySet());
    partitions.addAll(plan.rowsAfter().keySet());
    int unchanged = 0;
    for (String partition : partitions) {
      long before = plan.rowsBefore().getOrDefault(partition, 0L);
      long after = plan.rowsAfter().getOrDefault(partition, 0L);
      boolean changed = plan.changedPartitions().contains(partition);
      if (before == after && !changed) {
        unchanged++;
        continue;
      }
      out.printf("    %-30s %8d -> %-8d%s%n", partition, before, after, changed ? " changed" : "");
    }
    if (unchanged > 0) {
      out.printf(
          "    (%d other partition%s unchanged; --json lists every one)%n",
          unchanged, unchanged == 1 ? "" : "s");
    }
  }
}
