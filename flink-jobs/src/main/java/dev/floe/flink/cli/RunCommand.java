package dev.floe.flink.cli;

import dev.floe.catalog.backfill.BackfillId;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.job.Timeout;
import dev.floe.flink.effects.EffectsReport;
import dev.floe.flink.effects.RunEffects;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.RunResult;
import dev.floe.flink.job.SliceJob;
import dev.floe.flink.run.PublishMode;
import dev.floe.flink.run.RunOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `floe run jobs/x.yaml --slice 2026-10-03`: replace one slice of the target, atomically. */
@Command(
    name = "run",
    header = "Run a job manifest: one slice, one atomic commit.",
    mixinStandardHelpOptions = true,
    description = {
      "Run a job manifest as a Flink batch job and commit ONE Iceberg snapshot: overwrite replaces",
      "exactly the slice, merge upserts by key behind an ordering guard, insert-if-absent adds",
      "new keys, swap replaces the whole table. A rerun with unchanged input commits nothing.",
      "The manifest's effects (webhooks) are sent once per run key, after a commit to main.",
      "If S3 or the catalog cannot be reached, the run fails within floe.connect-timeout",
      "(default 30s) and commits nothing; details go to <Floe home>/logs/floe.log. A run past",
      "its timeout (--timeout, else the manifest's timeout:) is cancelled, commits nothing and",
      "exits 6."
    })
public final class RunCommand implements Callable<Integer> {
  @Mixin CommonOptions common;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "MANIFEST", description = "The job manifest (YAML).")
  Path manifest;

  @Mixin SliceOption slice;
  @Mixin ParallelismOption parallelism;
  @Mixin BackfillIdOption backfillId;

  @Option(
      names = "--force-commit",
      description =
          "overwrite and swap: commit a new snapshot even when the target already holds exactly"
              + " this content (otherwise such a rerun is a no-op and commits nothing).")
  boolean forceCommit;

  @Option(
      names = "--recompute",
      description =
          "overwrite and swap: run the job even when the slice's current commit was made by this"
              + " job from the same source snapshots (otherwise the rerun ends as a no-op without"
              + " starting a job; with this flag it reads, checks and hashes the rows and still"
              + " commits nothing when they are unchanged).")
  boolean recompute;

  @Option(
      names = "--max-conflict-retries",
      paramLabel = "N",
      defaultValue = RunOptions.DEFAULT_MAX_CONFLICT_RETRIES,
      description =
          "How often to re-commit after another run committed the same slice from older source"
              + " data; a run from the same or newer data is never overwritten (default:"
              + " ${DEFAULT-VALUE}).")
  int maxConflictRetries;

  @Option(
      names = "--dry-run",
      description =
          "Run the query, the slice guard, the checks and the no-op detection, then commit"
              + " nothing: report what a real run would do.")
  boolean dryRun;

  @Option(
      names = "--publish",
      paramLabel = "auto|manual",
      defaultValue = "auto",
      description =
          "auto: commit to main. manual: write-audit-publish — commit to the branch"
              + " audit-<run-id>, leave main unchanged, and let `floe publish` (or `floe discard`)"
              + " decide (default: ${DEFAULT-VALUE}).")
  String publish;

  @Option(
      names = "--allow-effects",
      description = "With --backfill-id: send the job's effects as a plain run would.")
  boolean allowEffects;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      description =
          "How long the run may take, e.g. 30m, 2h, 90s or ISO-8601 PT30M; wins over the"
              + " manifest's timeout:. Past it the Flink job is cancelled, nothing is committed,"
              + " the files it wrote are deleted and the run exits 6 (default: the manifest's,"
              + " else no limit).")
  String timeout;

  @Mixin FailureInjectionOption failure;

  @Override
  public Integer call() {
    JobSpec job = JobSpecParser.load(manifest);
    Timeout runTimeout = timeout == null ? null : Timeout.ofFlag("--timeout", timeout);
    if (backfillId.value() != null) {
      BackfillId.requireValid(backfillId.value(), "--backfill-id");
    }
    InvalidInputException.check(
        !allowEffects || backfillId.value() != null,
        "Cannot run %s with --allow-effects: it only applies to a backfill slice (--backfill-id);"
            + " a plain run sends its effects anyway",
        manifest);
    CatalogConfig catalog = dryRun ? common.catalog() : common.creatingCatalog();
    RunOptions options =
        RunOptions.builder()
            .parallelism(parallelism.value())
            .forceCommit(forceCommit)
            .recompute(recompute)
            .maxConflictRetries(maxConflictRetries)
            .dryRun(dryRun)
            .failAt(failure.point())
            .publish(PublishMode.parse(publish))
            .backfillId(backfillId.value())
            .allowEffects(allowEffects)
            .timeout(runTimeout)
            .build();
    RunRequest request = RunRequest.of(catalog, job, slice.value(), options);
    RunEffects effects = RunEffects.system();
    // Refused before anything runs; a dry run checks without touching the database. A backfill's
    // slice with effects off sends nothing, so it needs neither the webhooks' secrets nor the
    // outbox (it records its effects as skipped when it can), as `floe backfill` does.
    if (options.sendsEffects()) {
      if (dryRun) {
        effects.checkOutbox(catalog, job);
      } else {
        effects.requireOutbox(catalog, job);
      }
    }
    RunResult result = SliceJob.run(request);
    // A backfill slice keeps effects off (recorded as skipped), as `floe backfill` does.
    EffectsReport sent = effects.deliver(request, result, options.sendsEffects());
    RunOutput output = new RunOutput(result, sent);
    PrintWriter out = spec.commandLine().getOut();
    if (common.json) {
      out.println(output.json());
    } else {
      out.print(output.text());
      out.flush(); // print() alone does not flush: bin/floe would exit with it unwritten
    }
    // An effect that did not arrive does not undo the commit: exit 0, and say so.
    sent.warnings().forEach(w -> spec.commandLine().getErr().println("floe: warning: " + w));
    return ExitCodes.OK;
  }
}
