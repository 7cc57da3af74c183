package dev.floe.flink.cli;

import dev.floe.catalog.backfill.BackfillId;
import dev.floe.catalog.backfill.BackfillSpec;
import dev.floe.catalog.backfill.BackfillSpecParser;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.job.Timeout;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.flink.backfill.Backfill;
import dev.floe.flink.backfill.BackfillPlan;
import dev.floe.flink.backfill.BackfillRequest;
import dev.floe.flink.backfill.BackfillResult;
import dev.floe.flink.backfill.PlannedSlice;
import dev.floe.flink.backfill.SampleCheck;
import dev.floe.flink.backfill.SliceOutcome;
import dev.floe.flink.backfill.SliceStatus;
import dev.floe.flink.run.RunOptions;
import dev.floe.flink.sql.ResultTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `floe backfill jobs/x.yaml --from 2026-01-01 --to 2026-04-01`: every slice, one commit each. */
@Command(
    name = "backfill",
    header = "Run a job for every slice of a range, one commit each.",
    mixinStandardHelpOptions = true,
    description = {
      "Run a job for every slice of [--from, --to), each slice in its own atomic commit that",
      "records floe.backfill-id. First the sample slice runs twice (the second time into a",
      "scratch branch) and must give the same content; then the other slices run, at most",
      "--max-concurrency at once, commits serialized per table. Rerunning the same backfill",
      "skips the slices it already loaded while their sources hold what those loads read.",
      "MANIFEST is a job manifest (give --from and --to) or a backfill manifest naming the job",
      "and the range; flags win over the file. Each slice is bound by --timeout (else the job's",
      "timeout:), the whole backfill by --overall-timeout (else the manifest's overall_timeout:);",
      "a slice past its timeout fails (exit 6) like any failed slice, and past the overall",
      "timeout no slice starts, those in flight are cancelled, and the backfill exits 6."
    })
public final class BackfillCommand implements Callable<Integer> {
  @Mixin CommonOptions common;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "MANIFEST",
      description = "A job manifest, or a backfill manifest (YAML).")
  Path manifest;

  @Mixin SliceRangeOptions range;

  @Option(
      names = "--max-concurrency",
      paramLabel = "N",
      description =
          "Slices in flight at once (default: the manifest's, else 1, so daily runs and the"
              + " source are not starved).")
  Integer maxConcurrency;

  @Option(
      names = "--sample",
      paramLabel = "SLICE",
      description = "The slice validated twice before the others (default: the last one).")
  String sample;

  @Option(
      names = "--sample-only",
      description = "Stop after the sample check: validate one partition, launch nothing else.")
  boolean sampleOnly;

  @Option(
      names = "--expect-version",
      paramLabel = "VERSION",
      description =
          "Refuse to start unless this Floe build has exactly this code version (`floe"
              + " --version`): backfill with the logic you pinned.")
  String expectVersion;

  @Option(
      names = "--backfill-id",
      paramLabel = "ID",
      description =
          "The id recorded as floe.backfill-id (default: the manifest's, else derived from job,"
              + " range, manifest and code version, so the same command resumes).")
  String backfillId;

  @Option(
      names = "--fail-fast",
      negatable = true,
      description =
          "Stop starting slices after the first failure (default: the manifest's, else finish"
              + " the others); --no-fail-fast overrides a manifest's fail_fast: true.")
  Boolean failFast;

  @Option(
      names = "--allow-effects",
      negatable = true,
      description =
          "Let every slice fire its job's effects (default: the manifest's, else off during a"
              + " backfill); --no-allow-effects overrides a manifest's allow_effects: true.")
  Boolean allowEffects;

  @Option(
      names = "--parallelism",
      paramLabel = "N",
      description =
          "Writer parallelism per slice (default: the job's, else the cores shared by the slices"
              + " in flight).")
  int parallelism;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      description =
          "How long each slice's run may take, e.g. 30m, 2h or PT30M; wins over the job's"
              + " timeout:. A slice past it is cancelled, commits nothing and fails with exit code"
              + " 6 (default: the job's timeout, else no limit).")
  String timeout;

  @Option(
      names = "--overall-timeout",
      paramLabel = "DURATION",
      description =
          "How long the whole backfill may take, sample check included, e.g. 8h or PT8H; wins"
              + " over the manifest's overall_timeout:. Past it no further slice starts, the"
              + " slices in flight are cancelled (nothing of them committed), the slices loaded"
              + " stay loaded and the backfill exits 6; rerun it to resume (default: the"
              + " manifest's, else no limit).")
  String overallTimeout;

  @Option(
      names = "--progress",
      paramLabel = "auto|bar|lines|none",
      defaultValue = "auto",
      description =
          "Progress on stderr: a bar on a terminal, a line per slice otherwise (default:"
              + " ${DEFAULT-VALUE}).")
  String progress;

  @Option(
      names = "--dry-run",
      description = "List the slices it would run or skip and the checks it would make; run none.")
  boolean dryRun;

  @Option(
      names = "--inject-failure-at",
      hidden = true,
      paramLabel = "SLICE",
      description = "Fail this slice's run before its commit, to rehearse a resume.")
  String failAtSlice;

  @Override
  public Integer call() {
    BackfillRequest request = request();
    PrintWriter out = spec.commandLine().getOut();
    BackfillProgress listener =
        new BackfillProgress(
            spec.commandLine().getErr(),
            common.json || dryRun ? BackfillProgress.Style.NONE : style(),
            System::nanoTime);
    BackfillResult result = Backfill.run(request, listener);
    if (common.json) {
      out.println(Json.write(toMap(request, result)));
    } else {
      print(request, result, out);
    }
    return result.exitCode();
  }

  private BackfillRequest request() {
    boolean isBackfillManifest =
        BackfillSpecParser.isBackfillManifest(Manifests.load(manifest).root());
    BackfillSpec file = isBackfillManifest ? BackfillSpecParser.load(manifest) : null;
    JobSpec job = JobSpecParser.load(file == null ? manifest : file.job());
    String id = backfillId != null ? backfillId : file == null ? null : file.id();
    if (id != null) {
      BackfillId.requireValid(id, backfillId != null ? "--backfill-id" : manifest.toString());
    }
    CatalogConfig catalog = common.catalog();
    RunOptions options =
        RunOptions.builder()
            .backfillId(id)
            .allowEffects(
                allowEffects != null
                    ? allowEffects
                    : file != null && Boolean.TRUE.equals(file.allowEffects()))
            .dryRun(dryRun)
            .parallelism(parallelism)
            .timeout(timeout == null ? null : Timeout.ofFlag("--timeout", timeout))
            .build();
    return BackfillRequest.builder(
            catalog,
            job,
            range.from != null ? range.from : file == null ? null : file.from(),
            range.to != null ? range.to : file == null ? null : file.to())
        .options(options)
        .maxConcurrency(
            maxConcurrency != null
                ? maxConcurrency
                : file != null && file.maxConcurrency() != null ? file.maxConcurrency() : 1)
        .sample(sample != null ? sample : file == null ? null : file.sample())
        .sampleOnly(sampleOnly)
        .expectVersion(
            expectVersion != null ? expectVersion : file == null ? null : file.expectVersion())
        .failFast(
            failFast != null ? failFast : file != null && Boolean.TRUE.equals(file.failFast()))
        .failAtSlice(failAtSlice)
        .onBackfillDone(file == null ? List.of() : file.onBackfillDone())
        .overallTimeout(
            overallTimeout != null
                ? Timeout.ofFlag("--overall-timeout", overallTimeout)
                : file == null ? null : file.overallTimeout())
        .build();
  }

  private BackfillProgress.Style style() {
    return switch (progress) {
      case "bar" -> BackfillProgress.Style.BAR;
      case "lines" -> BackfillProgress.Style.LINES;
      case "none" -> BackfillProgress.Style.NONE;
      case "auto" ->
          System.console() != null ? BackfillProgress.Style.BAR : BackfillProgress.Style.LINES;
      default ->
          throw new CommandLine.ParameterException(
              spec.commandLine(),
              "Cannot show progress '" + progress + "': use auto, bar, lines or none");
    };
  }

  private void print(BackfillRequest request, BackfillResult result, PrintWriter out) {
    BackfillPlan plan = result.plan();
    out.printf("backfill  %s%n", plan.backfillId());
    out.printf("  job       %s -> %s (%s)%n", plan.job(), plan.target(), plan.mode());
    out.printf(
        "  range     %s to %s (exclusive): %d slices, %d already loaded by this backfill%n",
        request.from(), request.to(), plan.slices().size(), plan.finishedCount());
    for (PlannedSlice again : plan.runAgain()) {
      out.printf(
          "  again     %s: loaded by this backfill, runs again: %s%n",
          again.value(), again.runAgainBecause());
    }
    out.printf("  code      %s%n", plan.codeVersion());
    out.printf(
        "  in flight at most %d slice(s), parallelism %d each; commits serialized per table%n",
        plan.maxConcurrency(), plan.parallelism());
    out.printf("  timeout   %s%n", timeouts(request));
    out.printf(
        "  effects   %s%n",
        request.job().effects().isEmpty()
            ? "the job declares none"
            : request.options().allowEffects()
                ? "on: every slice fires its job's effects (--allow-effects)"
                : "off: slices fire none of the job's "
                    + request.job().effects().size()
                    + " effect(s) (--allow-effects to send them)");
    SampleCheck sample = result.sample();
    if (sample == null) {
      out.printf(
          "  sample    %s: would run on main, then again into a scratch branch, and compare%n",
          plan.sample().value());
    } else {
      out.printf("  sample    %s: %s%n", sample.slice(), sample.detail());
    }
    out.println();
    List<List<Object>> rows = new ArrayList<>();
    for (SliceOutcome outcome : result.outcomes()) {
      rows.add(
          List.of(
              outcome.value().equals(plan.sample().value())
                  ? outcome.value() + " (sample)"
                  : outcome.value(),
              outcome.status().text(),
              outcome.rows() < 0 ? "" : outcome.rows(),
              outcome.snapshotId() == null ? "" : outcome.snapshotId(),
              outcome.elapsedMillis() == 0
                  ? ""
                  : String.format("%.1f s", outcome.elapsedMillis() / 1000.0),
              outcome.error() == null ? "" : outcome.error(),
              outcome.effects() == null ? "" : outcome.effects()));
    }
    List<String> columns =
        new ArrayList<>(List.of("slice", "status", "rows", "snapshot", "time", "error", "effects"));
    if (request.job().effects().isEmpty()) {
      columns.remove("effects");
      rows.replaceAll(row -> row.subList(0, row.size() - 1));
    }
    out.println(ResultTable.render(columns, rows));
    out.println();
    out.printf(
        "%d slices: %d committed, %d no-op, %d skipped, %d failed, %d not run%s; %d rows in"
            + " %s%n",
        result.outcomes().size(),
        result.count(SliceStatus.COMMITTED),
        result.count(SliceStatus.NO_OP),
        result.count(SliceStatus.SKIPPED),
        result.count(SliceStatus.FAILED),
        result.count(SliceStatus.NOT_RUN),
        request.options().dryRun()
            ? ", " + result.count(SliceStatus.PLANNED) + " would run (dry run: nothing ran)"
            : "",
        result.rows(),
        BackfillProgress.duration(result.elapsedMillis()));
    for (String line : result.doneEffects().lines()) {
      out.printf("on_backfill_done  %s%n", line);
    }
    for (String warning : result.doneEffects().warnings()) {
      spec.commandLine().getErr().println("floe backfill: warning: " + warning);
    }
    if (request.sampleOnly() && result.sample() != null && result.sample().passed()) {
      out.println("Sample only: the other slices were not started; run without --sample-only.");
    } else if (result.count(SliceStatus.FAILED) > 0 || result.count(SliceStatus.NOT_RUN) > 0) {
      out.printf(
          "Rerun the same command to resume: slices loaded by %s are skipped while their"
              + " sources stay unchanged.%n",
          plan.backfillId());
    }
    if (!request.options().dryRun()) {
      out.printf(
          "Its snapshots: floe snapshots %s --backfill %s%n", plan.target(), plan.backfillId());
    }
  }

  /** E.g. {@code each slice 30m (timeout in jobs/x.yaml); overall 8h (--overall-timeout)}. */
  private static String timeouts(BackfillRequest request) {
    Timeout slice = request.effectiveSliceTimeout();
    Timeout overall = request.overallTimeout();
    return "each slice "
        + (slice == null ? "no limit" : slice.describe())
        + "; overall "
        + (overall == null ? "no limit" : overall.describe());
  }

  static Map<String, Object> toMap(BackfillRequest request, BackfillResult result) {
    BackfillPlan plan = result.plan();
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("backfill_id", plan.backfillId());
    map.put("job", plan.job());
    map.put("target", plan.target());
    map.put("mode", plan.mode());
    map.put("code_version", plan.codeVersion());
    map.put("from", request.from());
    map.put("to", request.to());
    map.put("dry_run", request.options().dryRun());
    map.put("max_concurrency", plan.maxConcurrency());
    map.put("parallelism", plan.parallelism());
    map.put("allow_effects", request.options().allowEffects());
    map.put("fail_fast", request.failFast());
    Timeout sliceTimeout = request.effectiveSliceTimeout();
    map.put("slice_timeout", sliceTimeout == null ? null : sliceTimeout.duration().toString());
    map.put(
        "overall_timeout",
        request.overallTimeout() == null ? null : request.overallTimeout().duration().toString());
    SampleCheck sample = result.sample();
    Map<String, Object> sampleMap = new LinkedHashMap<>();
    sampleMap.put("slice", plan.sample().value());
    sampleMap.put("passed", sample == null ? null : sample.passed());
    sampleMap.put("main_hash", sample == null ? null : sample.mainHash());
    sampleMap.put("second_hash", sample == null ? null : sample.secondHash());
    sampleMap.put("detail", sample == null ? null : sample.detail());
    map.put("sample", sampleMap);
    Map<String, String> again = new LinkedHashMap<>();
    plan.runAgain().forEach(slice -> again.put(slice.value(), slice.runAgainBecause()));
    map.put("run_again", again);
    List<Map<String, Object>> slices = new ArrayList<>();
    for (SliceOutcome outcome : result.outcomes()) {
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("slice", outcome.value());
      line.put("status", outcome.status().text());
      line.put("rows", outcome.rows() < 0 ? null : outcome.rows());
      line.put("snapshot_id", outcome.snapshotId());
      line.put("content_hash", outcome.contentHash());
      line.put("elapsed_ms", outcome.elapsedMillis());
      line.put("error", outcome.error());
      line.put("exit_code", outcome.exitCode());
      line.put("effects", outcome.effects());
      slices.add(line);
    }
    map.put("slices", slices);
    Map<String, Object> counts = new LinkedHashMap<>();
    for (SliceStatus status : SliceStatus.values()) {
      counts.put(status.text(), result.count(status));
    }
    map.put("counts", counts);
    map.put("rows", result.rows());
    map.put(
        "on_backfill_done", result.doneEffects().isEmpty() ? null : result.doneEffects().toMap());
    map.put("elapsed_ms", result.elapsedMillis());
    map.put("exit_code", result.exitCode());
    return map;
  }
}
