package dev.floe.flink.cli;

import dev.floe.catalog.config.Redaction;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.job.Timeout;
import dev.floe.flink.backfill.BackfillPlan;
import dev.floe.flink.backfill.BackfillRequest;
import dev.floe.flink.backfill.BackfillResult;
import dev.floe.flink.backfill.PlannedSlice;
import dev.floe.flink.backfill.SampleCheck;
import dev.floe.flink.backfill.SliceOutcome;
import dev.floe.flink.backfill.SliceStatus;
import dev.floe.flink.sql.ResultTable;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code floe backfill} prints for a finished (or planned) backfill: {@link #text()} for
 * people, {@link #json()} for {@code --json}.
 *
 * @param request what was asked: range, options, the job's effects
 * @param result what happened to each slice
 */
record BackfillOutput(BackfillRequest request, BackfillResult result) {

  /** The report {@code floe backfill} prints: header, one line per slice, totals, next steps. */
  String text() {
    StringWriter buffer = new StringWriter();
    PrintWriter out = new PrintWriter(buffer);
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
    if (result.flinkJobs() != null) {
      out.printf("Flink jobs: %s%n", result.flinkJobs());
    }
    for (String line : result.doneEffects().lines()) {
      out.printf("on_backfill_done  %s%n", line);
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
          "Its snapshots: floe snapshots %s --backfill %s%n",
          ShellWord.of(plan.target()), ShellWord.of(plan.backfillId()));
    }
    out.flush();
    return buffer.toString();
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

  /** The same as {@code --json}: one object, 64-bit ids as strings. */
  String json() {
    return Json.write(toMap());
  }

  /** What a warning line on stderr says: webhooks of on_backfill_done that did not arrive. */
  List<String> warnings() {
    return result.doneEffects().warnings();
  }

  private Map<String, Object> toMap() {
    BackfillPlan plan = result.plan();
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("status", status());
    map.put("backfill_id", plan.backfillId());
    map.put("job", plan.job());
    map.put("target", plan.target());
    map.put("mode", plan.mode());
    map.put("code_version", plan.codeVersion());
    map.put("from", request.from());
    map.put("to", request.to());
    map.put("dry_run", request.options().dryRun());
    map.put("max_concurrency", plan.maxConcurrency());
    map.put("slices_per_job", request.slicesPerJob());
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
    map.put("flink_jobs", result.flinkJobs());
    map.put("elapsed_ms", result.elapsedMillis());
    map.put("exit_code", result.exitCode());
    result.failure().ifPresent(error -> map.put("error", Redaction.redact(error)));
    return map;
  }

  /** As every command's --json: "failed" with the exit code and error, else what was done. */
  private String status() {
    if (result.exitCode() != ExitCodes.OK) {
      return "failed";
    }
    if (request.options().dryRun()) {
      return "dry-run";
    }
    return request.sampleOnly() ? "sample-only" : "complete";
  }
}
