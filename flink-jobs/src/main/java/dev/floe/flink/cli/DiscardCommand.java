package dev.floe.flink.cli;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.snapshot.Discard;
import dev.floe.catalog.snapshot.DiscardPlan;
import dev.floe.catalog.snapshot.Untag;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
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
      "that is still running: it would fail.",
      "",
      "A run whose branch is gone already (a retried discard: one of the table's last "
          + Untag.RECENT_VERSIONS
          + " metadata",
      "versions had it, or a snapshot of the run is left) and that main does not hold is a",
      "no-op, exit 0; a run that main holds is refused (`floe revert` undoes it)."
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
    DiscardPlan plan =
        common.withTable(
            target.table(),
            loaded -> {
              Discard discard = Discard.of(loaded, target.table()).run(target.runId());
              return dryRun ? discard.apply() : discard.commit();
            });
    PrintWriter out = spec.commandLine().getOut();
    boolean scratch = plan.role() == DiscardPlan.Role.SCRATCH;
    boolean done = plan.role() == DiscardPlan.Role.NOTHING_LEFT;
    if (common.json) {
      Map<String, Object> map = new LinkedHashMap<>();
      map.put("table", plan.table());
      map.put("run_id", plan.runId());
      map.put("dry_run", dryRun);
      map.put("status", done ? "nothing-to-discard" : dryRun ? "dry-run" : "discarded");
      map.put("branch", plan.branch());
      map.put("role", done ? null : scratch ? "scratch" : "audit");
      map.put("snapshot_id", plan.snapshotId());
      if (scratch) {
        map.put(dryRun ? "files_to_delete" : "deleted_files", plan.files());
      }
      out.println(Json.write(map));
    } else if (done && plan.branch() != null) {
      out.printf(
          "branch %s of %s is gone already and main does not hold run %s: nothing to discard"
              + " (no-op)%n",
          plan.branch(), plan.table(), plan.runId());
    } else if (done) {
      out.printf(
          "run %s of %s has no audit or scratch branch and main does not hold it (its snapshot %d"
              + " is off main): nothing to discard (no-op)%n",
          plan.runId(), plan.table(), plan.snapshotId());
    } else if (!scratch) {
      out.printf(
          "%s branch %s of %s (snapshot %d); main is unchanged%n",
          dryRun ? "would drop" : "dropped", plan.branch(), plan.table(), plan.snapshotId());
    } else {
      int files = plan.files().size();
      out.printf(
          "%s scratch branch %s of %s (snapshot %d) and %s its %d %s; main is unchanged%n",
          dryRun ? "would drop" : "dropped",
          plan.branch(),
          plan.table(),
          plan.snapshotId(),
          dryRun ? "would delete" : "deleted",
          files,
          files == 1 ? "file" : "files");
    }
    return ExitCodes.OK;
  }
}
