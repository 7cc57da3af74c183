package dev.floe.flink.cli;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.snapshot.Discard;
import dev.floe.catalog.snapshot.DiscardPlan;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** `floe discard <table> --run RUN_ID`: drop an audited run without publishing it. */
@Command(
    name = "discard",
    header = "Drop an audited run's branch without publishing it.",
    mixinStandardHelpOptions = true,
    description = {
      "Drop the audit branch audit-<run-id> of a run made with `floe run --publish manual`,",
      "without publishing it; main never saw the run. Its files are deleted when snapshot",
      "expiry (`floe maintain --expire`) removes the branch's snapshot."
    })
public final class DiscardCommand implements Callable<Integer> {
  @Mixin CommonOptions common;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Mixin TableRunOptions target;

  @Option(
      names = "--dry-run",
      description = "Print the branch that would be dropped; drop nothing.")
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
    if (common.json) {
      Map<String, Object> map = new LinkedHashMap<>();
      map.put("table", plan.table());
      map.put("run_id", plan.runId());
      map.put("dry_run", dryRun);
      map.put("branch", plan.branch());
      map.put("snapshot_id", plan.snapshotId());
      out.println(Json.write(map));
    } else {
      out.printf(
          "%s branch %s of %s (snapshot %d); main is unchanged%n",
          dryRun ? "would drop" : "dropped", plan.branch(), plan.table(), plan.snapshotId());
    }
    return ExitCodes.OK;
  }
}
