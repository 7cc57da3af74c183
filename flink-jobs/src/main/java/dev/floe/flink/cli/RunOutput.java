package dev.floe.flink.cli;

import dev.floe.catalog.error.ShellWord;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.effects.EffectsReport;
import dev.floe.flink.job.RunResult;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@code floe run} prints for a finished run: {@link #text()} for people, {@link #json()} for
 * {@code --json}.
 *
 * @param result what the run reported
 * @param effects what became of the manifest's effects
 */
record RunOutput(RunResult result, EffectsReport effects) {

  /** The report {@code floe run} prints: status, snapshot, rows, run key, effects. */
  String text() {
    StringWriter buffer = new StringWriter();
    PrintWriter out = new PrintWriter(buffer);
    CommitOutcome outcome = result.outcome();
    String status =
        outcome == null
            ? "submitted (detached: the TaskManager logs the outcome in a line starting 'Floe job')"
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
            ShellWord.of(result.target()), result.runId());
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
    out.flush();
    return buffer.toString();
  }

  /** The same as {@code --json}: one object, 64-bit ids as strings. */
  String json() {
    Map<String, Object> map = toMap();
    if (!effects.isEmpty()) {
      map.put("effects", effects.toMap());
    }
    return Json.write(map);
  }

  private Map<String, Object> toMap() {
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
