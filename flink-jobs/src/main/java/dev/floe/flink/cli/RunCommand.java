package dev.floe.flink.cli;

import dev.floe.catalog.backfill.BackfillId;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.job.Timeout;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.effects.EffectsReport;
import dev.floe.flink.effects.RunEffects;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.RunResult;
import dev.floe.flink.job.SliceJob;
import dev.floe.flink.run.PublishMode;
import dev.floe.flink.run.RunOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
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

  @Option(
      names = "--slice",
      paramLabel = "VALUE",
      description =
          "The slice the run owns: 2026-10-03 (day), 2026-10-03T05 (hour), 2026-10 (month) or"
              + " 2026 (year), in the years 0001 to 9998 (a slice's end must still be a date SQL"
              + " can write); it must cover whole partitions of the target. Required when the"
              + " manifest has a slice, refused when it has none. A job never derives its slice"
              + " from the clock.")
  String slice;

  @Option(
      names = "--parallelism",
      paramLabel = "N",
      description = "Writer parallelism (default: the manifest's, else Flink's).")
  int parallelism;

  @Option(
      names = "--force-commit",
      description =
          "overwrite and swap: commit a new snapshot even when the target already holds exactly"
              + " this content (otherwise such a rerun is a no-op and commits nothing).")
  boolean forceCommit;

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
      names = "--backfill-id",
      paramLabel = "ID",
      description =
          "Run as one slice of this backfill, the way `floe k8s render-backfill` runs each slice:"
              + " the commit records floe.backfill-id (so `floe snapshots --backfill` lists it and"
              + " `floe backfill` counts the slice as loaded), and the job's effects are recorded"
              + " as skipped unless --allow-effects.")
  String backfillId;

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
    if (backfillId != null) {
      BackfillId.requireValid(backfillId, "--backfill-id");
    }
    InvalidInputException.check(
        !allowEffects || backfillId != null,
        "Cannot run %s with --allow-effects: it only applies to a backfill slice (--backfill-id);"
            + " a plain run sends its effects anyway",
        manifest);
    CatalogConfig catalog = common.catalog();
    RunOptions options =
        RunOptions.builder()
            .parallelism(parallelism)
            .forceCommit(forceCommit)
            .maxConflictRetries(maxConflictRetries)
            .dryRun(dryRun)
            .failAt(failure.point())
            .publish(PublishMode.parse(publish))
            .backfillId(backfillId)
            .allowEffects(allowEffects)
            .timeout(runTimeout)
            .build();
    RunRequest request = RunRequest.of(catalog, job, slice, options);
    RunEffects effects = RunEffects.system();
    // Refused before anything runs; a dry run checks without touching the database.
    if (dryRun) {
      effects.checkOutbox(catalog, job);
    } else {
      effects.requireOutbox(catalog, job);
    }
    RunResult result = SliceJob.run(request);
    // A backfill slice keeps effects off (recorded as skipped), as `floe backfill` does.
    EffectsReport sent = effects.deliver(request, result, options.sendsEffects());
    print(result, sent, spec.commandLine().getOut());
    // An effect that did not arrive does not undo the commit: exit 0, and say so.
    sent.warnings().forEach(w -> spec.commandLine().getErr().println("floe: warning: " + w));
    return ExitCodes.OK;
  }

  private void print(RunResult result, EffectsReport effects, PrintWriter out) {
    CommitOutcome outcome = result.outcome();
    if (common.json) {
      Map<String, Object> map = toMap(result);
      if (!effects.isEmpty()) {
        map.put("effects", effects.toMap());
      }
      out.println(Json.write(map));
      return;
    }
    String status =
        outcome == null
            ? "submitted (detached: see the job's log for the outcome)"
            : outcome.status().text();
    out.printf("%s  %s  %s%n", result.job(), result.target(), result.scope().label());
    out.printf("  mode      %s%n", result.mode().text());
    out.printf("  status    %s%n", status);
    if (outcome != null) {
      out.printf("  detail    %s%n", outcome.detail());
      out.printf("  snapshot  %s%n", outcome.snapshotId());
      if (result.branch() != null) {
        out.printf("  branch    %s (main unchanged until published)%n", result.branch());
        out.printf(
            "  next      floe publish %s --run %s   (or: floe discard ...)%n",
            result.target(), result.runId());
      }
      boolean keyed = result.mode().isKeyed();
      // A keyed run's rows and hash describe its batch, not the table: say so.
      out.printf(
          keyed ? "  batch     %d rows (one per key)%n" : "  rows      %d%n", outcome.rows());
      out.printf("  content   %s%n", outcome.contentHash());
    }
    out.printf(
        "  sources   %s%n", result.sourceSnapshots().isEmpty() ? "-" : result.sourceSnapshots());
    out.printf("  run key   %s%n", result.runKey());
    out.printf("  run id    %s%n", result.runId());
    out.printf("  elapsed   %.1f s%n", result.elapsedMillis() / 1000.0);
    String label = "  effects   ";
    for (String line : effects.lines()) {
      out.println(label + line);
      label = "            ";
    }
  }

  static Map<String, Object> toMap(RunResult result) {
    Map<String, Object> map = new LinkedHashMap<>();
    CommitOutcome outcome = result.outcome();
    map.put("job", result.job());
    map.put("target", result.target());
    map.put("mode", result.mode().text());
    map.put("slice", result.scope().label());
    map.put("status", outcome == null ? "submitted" : outcome.status().text());
    map.put("snapshot_id", outcome == null ? null : outcome.snapshotId());
    map.put("branch", result.branch());
    map.put("rows", outcome == null ? null : outcome.rows());
    map.put("content_hash", outcome == null ? null : outcome.contentHash());
    map.put("attempts", outcome == null ? null : outcome.attempts());
    map.put("detail", outcome == null ? null : outcome.detail());
    map.put("source_snapshots", result.sourceSnapshots());
    map.put("run_key", result.runKey());
    map.put("run_id", result.runId());
    map.put("elapsed_ms", result.elapsedMillis());
    return map;
  }
}
