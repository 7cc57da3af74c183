package dev.floe.flink.cli;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.snapshot.Publish;
import dev.floe.catalog.snapshot.PublishPlan;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** `floe publish <table> --run RUN_ID`: make an audited run visible on main. */
@Command(
    name = "publish",
    header = "Publish an audited run from its branch to main.",
    mixinStandardHelpOptions = true,
    description = {
      "Publish a run that `floe run --publish manual` committed to its audit branch",
      "audit-<run-id>: main is fast-forwarded to the run's snapshot, or, when main moved since,",
      "the run's files are committed on top of main — refused when main changed the run's slice",
      "meanwhile. The audit branch is removed. Publishing a published run changes nothing."
    })
public final class PublishCommand implements Callable<Integer> {
  @Mixin CommonOptions common;
  @Mixin FailureInjectionOption failure;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Mixin TableRunOptions target;

  @Option(
      names = "--dry-run",
      description = "Print how the run would be published and the rows it changes; change nothing.")
  boolean dryRun;

  @Override
  public Integer call() {
    PublishPlan plan =
        common.withTable(
            target.table(),
            loaded -> {
              Publish publish =
                  Publish.of(loaded, target.table()).run(target.runId()).failAt(failure.point());
              return dryRun ? publish.apply() : publish.commit();
            });
    print(plan, spec.commandLine().getOut());
    return ExitCodes.OK;
  }

  private static boolean branchLeft(PublishPlan plan) {
    return plan.method() != PublishPlan.Method.ALREADY_PUBLISHED
        && plan.method() != PublishPlan.Method.ALREADY_IDENTICAL;
  }

  private void print(PublishPlan plan, PrintWriter out) {
    if (common.json) {
      Map<String, Object> map = new LinkedHashMap<>();
      map.put("table", plan.table());
      map.put("run_id", plan.runId());
      map.put("dry_run", dryRun);
      map.put("method", plan.method().text());
      // An already published run's branch was removed when it was published.
      map.put("branch", branchLeft(plan) ? plan.branch() : null);
      map.put("run_snapshot_id", plan.branchSnapshotId());
      map.put("main_snapshot_id_before", plan.mainSnapshotId());
      map.put("slice", plan.slice());
      Map<String, Object> changes = new LinkedHashMap<>();
      plan.changes()
          .forEach(
              (partition, change) -> {
                Map<String, Object> rows = new LinkedHashMap<>();
                rows.put("removed", change.removed());
                rows.put("added", change.added());
                changes.put(partition, rows);
              });
      map.put("rows_per_partition", changes);
      out.println(Json.write(map));
      return;
    }
    if (plan.method() == PublishPlan.Method.IDENTICAL_ON_MAIN) {
      out.printf(
          "main of %s already holds run %s's content for slice %s: nothing to publish; %s"
              + " branch %s%n",
          plan.table(),
          plan.runId(),
          plan.slice(),
          dryRun ? "would remove" : "removed",
          plan.branch());
      return;
    }
    if (plan.method() == PublishPlan.Method.ALREADY_IDENTICAL) {
      out.printf(
          "main of %s already holds run %s's content for slice %s: nothing to publish (its"
              + " audit branch %s was removed earlier)%n",
          plan.table(), plan.runId(), plan.slice(), plan.branch());
      return;
    }
    if (plan.method() == PublishPlan.Method.ON_MAIN_WITH_BRANCH) {
      out.printf(
          "run %s is already on main of %s (snapshot %d; main was moved onto its audit branch):"
              + " nothing to publish; %s branch %s%n",
          plan.runId(),
          plan.table(),
          plan.branchSnapshotId(),
          dryRun ? "would remove" : "removed",
          plan.branch());
      return;
    }
    if (plan.method() == PublishPlan.Method.ALREADY_PUBLISHED) {
      out.printf(
          "run %s is already on main of %s (snapshot %d); nothing to do%n",
          plan.runId(), plan.table(), plan.branchSnapshotId());
      return;
    }
    out.printf(
        "%s run %s of %s (slice %s) by %s%n",
        dryRun ? "would publish" : "published",
        plan.runId(),
        plan.table(),
        plan.slice(),
        plan.method() == PublishPlan.Method.FAST_FORWARD
            ? "fast-forwarding main from snapshot "
                + plan.mainSnapshotId()
                + " to "
                + plan.branchSnapshotId()
            : "cherry-picking snapshot "
                + plan.branchSnapshotId()
                + " onto main (main moved to "
                + plan.mainSnapshotId()
                + "; no row of the slice changed there)");
    out.printf("  %s branch %s%n", dryRun ? "would remove" : "removed", plan.branch());
    out.println("  rows per partition (removed / added):");
    plan.changes()
        .forEach(
            (partition, change) ->
                out.printf("    %-30s -%-8d +%d%n", partition, change.removed(), change.added()));
    if (!dryRun) {
      out.printf(
          "  undo: floe revert %s --run %s%n",
          ShellWord.of(plan.table()), ShellWord.of(plan.runId()));
    }
  }
}
