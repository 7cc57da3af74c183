package dev.floe.flink.cli;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.lineage.AuditBranch;
import dev.floe.catalog.snapshot.Discard;
import dev.floe.catalog.snapshot.DiscardPlan;
import dev.floe.catalog.snapshot.DropScratch;
import dev.floe.catalog.snapshot.DropScratchPlan;
import dev.floe.catalog.snapshot.ScratchBranch;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * `floe discard <table> --run RUN_ID`: drop the branch a run left that main never saw: an audited
 * run's audit branch, or the scratch branch of a verify or a backfill's sample check that was killed
 * before it dropped it.
 */
@Command(
    name = "discard",
    header = "Drop a run's unpublished audit or left-over scratch branch.",
    mixinStandardHelpOptions = true,
    description = {
      "Drop the audit branch audit-<run-id> of a run made with `floe run --publish manual`,",
      "without publishing it; main never saw the run. Its files are deleted when snapshot",
      "expiry (`floe maintain --expire`) removes the branch's snapshot.",
      "",
      "A run id without an audit branch but with a scratch branch scratch-<run-id> (left by a",
      "`floe verify` or a backfill's sample check killed before it dropped the branch; `floe",
      "tags` lists it with the role scratch) has that branch dropped, with its snapshot and the",
      "files only it references. Do not discard the scratch branch of a verify or backfill",
      "that is still running: it would fail."
    })
public final class DiscardCommand implements Callable<Integer> {
  @Mixin CommonOptions common;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Mixin TableRunOptions target;

  @Option(
      names = "--dry-run",
      description = "Print the branch that would be dropped (and any files); drop nothing.")
  boolean dryRun;

  @Override
  public Integer call() {
    Dropped dropped =
        common.withTable(
            target.table(),
            loaded -> {
              String scratch = ScratchBranch.of(String.valueOf(target.runId()));
              if (target.runId() != null
                  && !loaded.refs().containsKey(AuditBranch.of(target.runId()))
                  && loaded.refs().containsKey(scratch)) {
                DropScratch drop = DropScratch.of(loaded, target.table()).branch(scratch);
                DropScratchPlan plan = dryRun ? drop.apply() : drop.commit();
                return new Dropped(
                    plan.table(),
                    "scratch",
                    plan.branch(),
                    plan.snapshotId(),
                    (dryRun ? plan.files().keySet().stream() : plan.deleted().stream())
                        .sorted()
                        .toList());
              }
              Discard discard = Discard.of(loaded, target.table()).run(target.runId());
              DiscardPlan plan = dryRun ? discard.apply() : discard.commit();
              return new Dropped(plan.table(), "audit", plan.branch(), plan.snapshotId(), null);
            });
    PrintWriter out = spec.commandLine().getOut();
    if (common.json) {
      Map<String, Object> map = new LinkedHashMap<>();
      map.put("table", dropped.table());
      map.put("run_id", target.runId());
      map.put("dry_run", dryRun);
      map.put("branch", dropped.branch());
      map.put("role", dropped.role());
      map.put("snapshot_id", dropped.snapshotId());
      if (dropped.files() != null) {
        map.put(dryRun ? "files_to_delete" : "deleted_files", dropped.files());
      }
      out.println(Json.write(map));
    } else if (dropped.files() == null) {
      out.printf(
          "%s branch %s of %s (snapshot %d); main is unchanged%n",
          dryRun ? "would drop" : "dropped",
          dropped.branch(),
          dropped.table(),
          dropped.snapshotId());
    } else {
      int files = dropped.files().size();
      out.printf(
          "%s scratch branch %s of %s (snapshot %d) and %s its %d %s; main is unchanged%n",
          dryRun ? "would drop" : "dropped",
          dropped.branch(),
          dropped.table(),
          dropped.snapshotId(),
          dryRun ? "would delete" : "deleted",
          files,
          files == 1 ? "file" : "files");
    }
    return ExitCodes.OK;
  }

  /**
   * @param role {@code audit} or {@code scratch}
   * @param files for a scratch branch, the files deleted (or, dry, to delete); null for an audit
   *     branch, whose files snapshot expiry deletes
   */
  private record Dropped(
      String table, String role, String branch, long snapshotId, List<String> files) {}
}
