package dev.floe.flink.cli;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.snapshot.LaterCommit;
import dev.floe.catalog.snapshot.Revert;
import dev.floe.catalog.snapshot.RevertPlan;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** `floe revert <table> --run RUN_ID`: undo one run, keeping the runs after it. */
@Command(
    name = "revert",
    header = "Undo one run without rolling back the runs after it.",
    mixinStandardHelpOptions = true,
    description = {
      "Undo ONE Floe run without rolling back the runs after it: its slice (or, for a merge",
      "without a slice, the partitions it changed) gets back the content it had before the run,",
      "in one new snapshot that re-commits the data files the run replaced (no data rewritten;",
      "on merge-on-read tables delete files too, and a file that had deletes as a copy of its",
      "live rows).",
      "Refused when a later commit changed the same rows, naming it, unless --force. Undo a",
      "revert by reverting it: floe revert TABLE --run <the revert's run id>."
    })
public final class RevertCommand implements Callable<Integer> {
  @Mixin CommonOptions common;
  @Mixin FailureInjectionOption failure;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Mixin TableRunOptions target;

  @Option(
      names = "--force",
      description =
          "Revert even when later commits changed the same rows; their changes there are"
              + " discarded (they are listed).")
  boolean force;

  @Option(
      names = "--dry-run",
      description =
          "Print what would change (files removed and re-added, rows per partition before and"
              + " after, later commits in the way); change nothing.")
  boolean dryRun;

  @Override
  public Integer call() {
    RevertPlan plan =
        common.withTable(
            target.table(),
            loaded -> {
              Revert revert =
                  Revert.of(loaded, target.table())
                      .run(target.runId())
                      .force(force)
                      .failAt(failure.point());
              return dryRun ? revert.apply() : revert.commit();
            });
    print(plan, spec.commandLine().getOut());
    if (plan.refusal().isPresent()) {
      // A dry run of a revert that would be refused says so the way the real one would: exit 2.
      throw InvalidInputException.of("%s", plan.refusal().get());
    }
    return ExitCodes.OK;
  }

  private void print(RevertPlan plan, PrintWriter out) {
    if (common.json) {
      out.println(Json.write(toMap(plan)));
      return;
    }
    RevertOutcome outcome = RevertOutcome.of(plan, dryRun);
    if (outcome == RevertOutcome.ALREADY_REVERTED) {
      out.printf(
          "run %s of %s is already reverted by %s: nothing to do (no-op)%n",
          plan.runId(), plan.table(), plan.alreadyRevertedBy().get().describe());
      return;
    }
    String verb =
        switch (outcome) {
          case WOULD_REVERT -> "would revert";
          case NOTHING_TO_REVERT -> "nothing to revert";
          default -> "reverted";
        };
    out.printf(
        "%s run %s of %s (job %s, snapshot %d)%n",
        verb, plan.runId(), plan.table(), plan.job(), plan.snapshotId());
    out.printf(
        "  %s: back to its content in snapshot %s%s%n",
        plan.region(),
        plan.parentSnapshotId() == null
            ? "(none: the run made the first snapshot)"
            : plan.parentSnapshotId(),
        plan.parentSnapshotId() == null ? ", i.e. empty" : "");
    if (!plan.changes()) {
      out.println("  it already holds that content; nothing was committed");
    }
    out.printf(
        "  files: %d removed, %d re-added from the parent's manifests%n",
        plan.removedFiles().size(), plan.restoredFiles().size());
    plan.removedFiles().forEach(f -> out.println("    - " + f));
    plan.restoredFiles().forEach(f -> out.println("    + " + f));
    out.println("  rows per partition (before -> after):");
    TreeSet<String> partitions = new TreeSet<>(plan.rowsBefore().keySet());
    partitions.addAll(plan.rowsAfter().keySet());
    for (String partition : partitions) {
      long before = plan.rowsBefore().getOrDefault(partition, 0L);
      long after = plan.rowsAfter().getOrDefault(partition, 0L);
      out.printf(
          "    %-30s %8d -> %-8d%s%n", partition, before, after, before == after ? "" : " changed");
    }
    if (plan.restoredContentHash() != null) {
      out.println("  content hash after: " + plan.restoredContentHash());
    }
    if (!discardedOrBlocking(plan).isEmpty()) {
      out.println(
          plan.force()
              ? "  discarded (--force): their changes to these rows are undone too:"
              : "  blocked by later commits that changed the same rows:");
      discardedOrBlocking(plan).forEach(c -> out.println("    " + c.describe()));
    }
    if (plan.revertSnapshotId() != null) {
      out.printf(
          "  new snapshot %d, run %s (floe.reverts=%s)%n",
          plan.revertSnapshotId(), plan.revertRunId(), plan.runId());
      out.printf(
          "  undo: %s   (or: floe rollback %s --to-snapshot %d)%n",
          plan.undoCommand(), ShellWord.of(plan.table()), plan.headSnapshotId());
    }
  }

  /**
   * The later commits the revert discards (with force) or that block it; none when the region
   * already holds the parent's content, since then this revert changes nothing.
   */
  private static List<LaterCommit> discardedOrBlocking(RevertPlan plan) {
    return plan.changes() ? plan.later() : List.of();
  }

  private Map<String, Object> toMap(RevertPlan plan) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("table", plan.table());
    map.put("dry_run", dryRun);
    map.put("status", RevertOutcome.of(plan, dryRun).status());
    map.put("run_id", plan.runId());
    map.put("job", plan.job());
    map.put("snapshot_id", plan.snapshotId());
    map.put("parent_snapshot_id", plan.parentSnapshotId());
    map.put("scope", plan.scope());
    map.put("region", plan.region());
    map.put("head_snapshot_id", plan.headSnapshotId());
    map.put("force", plan.force());
    map.put("removed_files", plan.removedFiles());
    map.put("restored_files", plan.restoredFiles());
    map.put("rows_before", plan.rowsBefore());
    map.put("rows_after", plan.rowsAfter());
    map.put("content_hash_after", plan.restoredContentHash());
    map.put(plan.force() ? "discarded" : "blocked_by", later(discardedOrBlocking(plan)));
    map.put("refusal", plan.refusal().orElse(null));
    map.put(
        "already_reverted_by", plan.alreadyRevertedBy().map(RevertCommand::commit).orElse(null));
    map.put("revert_snapshot_id", plan.revertSnapshotId());
    // Only a committed revert has a run id to revert, or a snapshot to roll back from.
    boolean committed = plan.revertSnapshotId() != null;
    map.put("revert_run_id", committed ? plan.revertRunId() : null);
    map.put("undo", committed ? plan.undoCommand() : null);
    map.put(
        "undo_by_rollback",
        committed
            ? "floe rollback "
                + ShellWord.of(plan.table())
                + " --to-snapshot "
                + plan.headSnapshotId()
            : null);
    return map;
  }

  private static List<Map<String, Object>> later(List<LaterCommit> commits) {
    return commits.stream().map(RevertCommand::commit).toList();
  }

  private static Map<String, Object> commit(LaterCommit c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("snapshot_id", c.snapshotId());
    m.put("run_id", c.runId());
    m.put("job", c.job());
    m.put("reverts", c.revertsRun());
    m.put("description", c.describe());
    return m;
  }
}
