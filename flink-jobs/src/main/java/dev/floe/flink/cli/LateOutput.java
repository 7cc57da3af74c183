package dev.floe.flink.cli;

import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.catalog.window.LateAction;
import dev.floe.catalog.window.LatePlan;
import dev.floe.catalog.window.LateRowCount;
import dev.floe.catalog.window.LateSlice;
import dev.floe.catalog.window.SealedThrough;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.late.LateApplyResult;
import dev.floe.flink.late.SliceRerun;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Text and JSON of `floe late plan` and `floe late apply`. */
final class LateOutput {
  private static final String ROW = "  %-12s %-7s %-10s %-17s %s%n";

  private LateOutput() {}

  static void printPlan(String job, Path manifest, LatePlan plan, boolean json, PrintWriter out) {
    if (json) {
      Map<String, Object> map = header(job, plan);
      map.put("slices", slices(plan));
      map.put("sealed_through", marker(plan.sealedThrough()));
      map.put(
          "sealed_through_after_apply", marker(plan.sealedThroughAfter(List.of()).orElse(null)));
      map.put("sealed_through_stopped_by", plan.sealedThroughStoppedBy(List.of()).orElse(null));
      out.println(Json.write(map));
      return;
    }
    printHeader(job, plan, out);
    printSlices(plan, out);
    out.printf(
        "  %s: %s now, %s after `floe late apply`%n",
        FloeTableProperties.SEALED_THROUGH,
        marker(plan.sealedThrough(), "none"),
        marker(plan.sealedThroughAfter(List.of()).orElse(null), "none"));
    plan.sealedThroughStoppedBy(List.of()).ifPresent(why -> out.printf("    stops: %s%n", why));
    int reruns = plan.reruns().size();
    if (reruns > 0) {
      out.printf(
          "  next: floe late apply %s --as-of %s   (%s to rerun)%n",
          ShellWord.of(manifest.toString()), plan.asOf(), plural(reruns, "slice"));
    }
  }

  static void printApply(LateApplyResult result, boolean json, PrintWriter out) {
    LatePlan plan = result.plan();
    if (json) {
      Map<String, Object> map = header(result.job(), plan);
      map.put("dry_run", result.dryRun());
      map.put("slices", slices(plan));
      List<Map<String, Object>> reruns = new ArrayList<>();
      if (result.dryRun()) {
        plan.reruns().forEach(s -> reruns.add(rerun(s, null)));
      } else {
        result.reruns().forEach(r -> reruns.add(rerun(r.planned(), r)));
      }
      map.put("reruns", reruns);
      map.put("sealed_through_before", marker(result.sealedThroughBefore()));
      map.put("sealed_through_after", marker(result.sealedThroughAfter()));
      map.put("sealed_through_stopped_by", result.sealedThroughStoppedBy().orElse(null));
      map.put("exit_code", result.exitCode());
      out.println(Json.write(map));
      return;
    }
    printHeader(result.job(), plan, out);
    if (result.dryRun()) {
      out.printf(
          "  dry run, nothing changed: would rerun %s%n", plural(plan.reruns().size(), "slice"));
      if (!plan.reruns().isEmpty()) {
        out.printf("  %-12s %-7s %-10s %s%n", "slice", "state", "late rows", "action");
      }
      for (LateSlice slice : plan.reruns()) {
        out.printf(
            "  %-12s %-7s %-10s %s%n",
            slice.slice().value(), state(slice), slice.lateRowsText(), slice.action().text());
      }
    } else {
      out.printf(
          result.reruns().isEmpty() ? "  nothing to rerun%n" : "  reran %s%n",
          plural(result.reruns().size(), "slice"));
      if (!result.reruns().isEmpty()) {
        out.printf(
            "  %-12s %-17s %-10s %-8s %s%n", "slice", "action", "status", "rows", "snapshot");
      }
      for (SliceRerun rerun : result.reruns()) {
        CommitOutcome outcome = rerun.failed() ? null : rerun.result().outcome();
        out.printf(
            "  %-12s %-17s %-10s %-8s %s%n",
            rerun.planned().slice().value(),
            rerun.planned().action().text(),
            rerun.status(),
            outcome == null ? "-" : outcome.rows(),
            outcome == null ? "-" : outcome.snapshotId());
        if (rerun.failed()) {
          out.printf("    %s%n", rerun.error().replace("\n", "\n    "));
        }
        String label = "    effects  ";
        for (String line : rerun.effects().lines()) {
          out.println(label + line);
          label = "             ";
        }
      }
    }
    List<LateSlice> blocked =
        plan.slices().stream().filter(s -> s.action() == LateAction.CANNOT_RERUN).toList();
    for (LateSlice slice : blocked) {
      out.printf("  cannot be rerun as loaded: %s (%s)%n", slice.slice().value(), slice.note());
    }
    List<LateSlice> reported = plan.reported();
    if (!reported.isEmpty()) {
      out.printf(
          "  reported, not loaded: %s%n",
          reported.stream()
              .map(
                  s ->
                      s.slice().value()
                          + " ("
                          + s.lateRowsText()
                          + (s.lateRowsText().equals("1") ? " late row)" : " late rows)"))
              .collect(Collectors.joining(", ")));
    }
    List<LateSlice> others =
        plan.slices().stream().filter(s -> s.action() == LateAction.OTHER_JOB).toList();
    if (!others.isEmpty()) {
      out.printf(
          "  other jobs' slices, not rerun: %s%n",
          others.stream()
              .map(s -> s.slice().value() + " (" + s.loadedBy() + ")")
              .collect(Collectors.joining(", ")));
    }
    if (result.sealedThroughBefore() == null && result.sealedThroughAfter() == null) {
      out.printf(
          "  %s: none (no slice is sealed as of %s)%n",
          FloeTableProperties.SEALED_THROUGH, plan.asOf());
    } else {
      out.printf(
          "  %s: %s -> %s%s%n",
          FloeTableProperties.SEALED_THROUGH,
          marker(result.sealedThroughBefore(), "none"),
          marker(result.sealedThroughAfter(), "none"),
          result.sealedThroughMoved()
              ? (result.dryRun() ? " (would be written)" : " (written)")
              : " (unchanged)");
    }
    result.sealedThroughStoppedBy().ifPresent(why -> out.printf("    stops: %s%n", why));
    if (!result.failures().isEmpty()) {
      out.printf(
          "  %d of %s failed (exit %d)%n",
          result.failures().size(), plural(result.reruns().size(), "rerun"), result.exitCode());
    }
  }

  private static void printHeader(String job, LatePlan plan, PrintWriter out) {
    out.printf(
        "%s  %s  as of %s  late-data window %s%n", job, plan.table(), plan.asOf(), plan.window());
  }

  private static void printSlices(LatePlan plan, PrintWriter out) {
    if (plan.slices().isEmpty()) {
      out.printf("  no slice of %s loaded on %s%n", plan.table(), plan.sliceColumn());
      return;
    }
    out.printf(ROW, "slice", "state", "late rows", "action", "sources read (snapshot read -> now)");
    for (LateSlice slice : plan.slices()) {
      out.printf(
          ROW,
          slice.slice().value(),
          state(slice),
          slice.lateRowsText(),
          slice.action().text(),
          sources(slice));
    }
    List<LateSlice> noted =
        plan.slices().stream().filter(s -> s.action() != LateAction.NONE).toList();
    if (!noted.isEmpty()) {
      out.println("  why:");
      for (LateSlice slice : noted) {
        out.printf("    %s: %s%n", slice.slice().value(), slice.note());
      }
    }
  }

  private static String sources(LateSlice slice) {
    if (!slice.ownedByJob()) {
      return "- (loaded by " + slice.loadedBy() + ")";
    }
    if (slice.lateRows().isEmpty()) {
      return "- (no Iceberg source in lineage)";
    }
    return slice.lateRows().stream()
        .map(
            c ->
                c.source()
                    + " "
                    + c.readSnapshotId()
                    + " -> "
                    + (c.upToSnapshotId() == null ? "?" : c.upToSnapshotId()))
        .collect(Collectors.joining(", "));
  }

  private static String state(LateSlice slice) {
    return slice.state().name().toLowerCase(Locale.ROOT);
  }

  private static Map<String, Object> header(String job, LatePlan plan) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("job", job);
    map.put("table", plan.table());
    map.put("slice_column", plan.sliceColumn());
    map.put("as_of", plan.asOf().toString());
    map.put("late_data_window", plan.window());
    map.put("source_snapshots", plan.sourceSnapshots());
    return map;
  }

  private static List<Map<String, Object>> slices(LatePlan plan) {
    List<Map<String, Object>> slices = new ArrayList<>();
    for (LateSlice slice : plan.slices()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("slice", slice.slice().label());
      row.put("value", slice.slice().value());
      row.put("state", state(slice));
      row.put("seals_at", slice.sealsAt() == null ? null : slice.sealsAt().toString());
      row.put(
          "late_rows",
          !slice.ownedByJob() || slice.lateRowsUnknown() ? null : slice.knownLateRows());
      row.put("action", slice.action().text());
      row.put("loaded_by", slice.loadedBy());
      row.put("note", slice.note());
      row.put("latest_run_id", slice.latest().lineage().runId());
      row.put("latest_snapshot_id", slice.latest().snapshotId());
      List<Map<String, Object>> sources = new ArrayList<>();
      for (LateRowCount count : slice.lateRows()) {
        Map<String, Object> source = new LinkedHashMap<>();
        source.put("source", count.source());
        source.put("read_snapshot_id", count.readSnapshotId());
        source.put("up_to_snapshot_id", count.upToSnapshotId());
        source.put("late_rows", count.rows());
        source.put("unknown_reason", count.unknownReason());
        sources.add(source);
      }
      row.put("sources", sources);
      slices.add(row);
    }
    return slices;
  }

  private static Map<String, Object> rerun(LateSlice slice, SliceRerun rerun) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("slice", slice.slice().label());
    row.put("value", slice.slice().value());
    row.put("action", slice.action().text());
    if (rerun == null) {
      row.put("status", "would rerun");
      return row;
    }
    CommitOutcome outcome = rerun.failed() ? null : rerun.result().outcome();
    row.put("status", rerun.status());
    row.put("rows", outcome == null ? null : outcome.rows());
    row.put("snapshot_id", outcome == null ? null : outcome.snapshotId());
    row.put("run_id", rerun.failed() ? null : rerun.result().runId());
    row.put("error", rerun.error());
    row.put("exit_code", rerun.exitCode());
    if (!rerun.effects().isEmpty()) {
      row.put("effects", rerun.effects().toMap());
    }
    return row;
  }

  private static String marker(Instant through) {
    return through == null ? null : SealedThrough.format(through);
  }

  private static String marker(Instant through, String none) {
    return through == null ? none : SealedThrough.format(through);
  }

  private static String plural(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
