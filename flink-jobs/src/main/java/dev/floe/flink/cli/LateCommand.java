package dev.floe.flink.cli;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.window.AsOf;
import dev.floe.catalog.window.LatePlan;
import dev.floe.flink.late.LateApply;
import dev.floe.flink.late.LateApplyResult;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `floe late plan|apply jobs/x.yaml`: find late rows per loaded slice and rerun those slices. */
@Command(
    name = "late",
    header = "Find and reload slices that received late rows.",
    mixinStandardHelpOptions = true,
    description = {
      "Late data: rows that reached a source after the snapshot a slice's run read. A slice is",
      "open until its end plus the table's late-data window (floe.late-data.window), then sealed."
    },
    subcommands = {LateCommand.Plan.class, LateCommand.Apply.class})
public final class LateCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw Subcommands.missing(spec);
  }

  /** What plan and apply share: the manifest and the instant. */
  static final class Target {
    @Parameters(index = "0", paramLabel = "MANIFEST", description = "The job manifest (YAML).")
    Path manifest;

    @Option(
        names = "--as-of",
        paramLabel = "ISO-8601",
        description =
            "Judge late-data windows at this instant (2026-10-20T02:00:00Z) or date (2026-10-20,"
                + " its start in UTC). Default: now.")
    String asOf;

    /** The CLI edge is the only place that reads the clock (the default --as-of). */
    Clock clock = Clock.systemUTC();

    Instant instant() {
      return asOf == null
          ? clock.instant().truncatedTo(ChronoUnit.SECONDS)
          : AsOf.parse("--as-of", asOf);
    }
  }

  @Command(
      name = "plan",
      header = "List each slice's late rows and what to do about them.",
      mixinStandardHelpOptions = true,
      description = {
        "Per slice the job loaded: open or sealed, the rows its sources received after the",
        "snapshots its run read (counted exactly; unknown when history cannot tell), and the",
        "action: rerun (open), report or rerun (reopened) (sealed, per after_window), or none.",
        "A slice another job loaded is listed as other-job and never rerun by this one; one",
        "whose newer run an operator reverted as reverted; one the job can no longer run as",
        "it was loaded (a day after a repartition by month) as cannot-rerun, with the reason.",
        "Reads metadata and the source files that may hold late rows; changes nothing."
      })
  static final class Plan implements Callable<Integer> {
    @Mixin CommonOptions common;
    @Mixin Target target;
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      var job = JobSpecParser.load(target.manifest);
      LatePlan plan = LateApply.of(common.catalog(), job).asOf(target.instant()).plan();
      LateOutput.printPlan(
          job.job(), target.manifest, plan, common.json, spec.commandLine().getOut());
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "apply",
      header = "Rerun the slices the late-data plan marks rerun.",
      mixinStandardHelpOptions = true,
      description = {
        "Rerun exactly the slices `floe late plan` marks rerun, each through `floe run` (a",
        "whole-slice overwrite with checks and lineage, never a patch of rows), then move the",
        "table property floe.sealed-through to the end of the sealed slices (never backwards).",
        "A failed slice is reported, the others still run, and the exit code is non-zero;",
        "a cannot-rerun slice is listed, stops the marker before it, and the exit code is",
        "non-zero too (2 when no slice failed, else the first failure's code).",
        "A slice at or before floe.sealed-through stays sealed whatever --as-of says. Each",
        "rerun sends the manifest's effects as `floe run` does; a failed effect fails no slice."
      })
  static final class Apply implements Callable<Integer> {
    @Mixin CommonOptions common;
    @Mixin Target target;
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(
        names = "--dry-run",
        description =
            "List the slices it would rerun and the marker it would write; change nothing.")
    boolean dryRun;

    @Override
    public Integer call() {
      var job = JobSpecParser.load(target.manifest);
      LateApplyResult result =
          LateApply.of(common.catalog(), job).asOf(target.instant()).dryRun(dryRun).run();
      LateOutput.printApply(result, common.json, spec.commandLine().getOut());
      // An effect that did not arrive does not undo the rerun's commit: say so, as `floe run` does.
      result.reruns().stream()
          .flatMap(r -> r.effects().warnings().stream())
          .forEach(w -> spec.commandLine().getErr().println("floe: warning: " + w));
      return result.exitCode();
    }
  }
}
