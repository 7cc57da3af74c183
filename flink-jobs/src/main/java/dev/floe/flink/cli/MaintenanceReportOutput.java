package dev.floe.flink.cli;

import dev.floe.catalog.maintain.Bytes;
import dev.floe.catalog.maintain.MaintenanceReport;
import dev.floe.catalog.maintain.TableStats;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * Renders the reports of {@code floe maintain TABLE --compact/--rewrite-position-deletes/
 * --rewrite-manifests/--expire/--orphans} as text or as the {@code --json} map ({@link
 * MaintenancePlanOutput} does the same for {@code --plan} and {@code --apply}).
 */
final class MaintenanceReportOutput {
  private MaintenanceReportOutput() {}

  /** The reports as {@code --json} ({@code json}) or text. */
  static void write(
      String table,
      boolean dryRun,
      List<MaintenanceReport> reports,
      boolean json,
      PrintWriter out) {
    if (json) {
      out.println(Json.write(toMap(table, dryRun, reports)));
    } else {
      print(table, dryRun, reports, out);
    }
  }

  /**
   * The reports of the actions that ran before {@code failedAction} failed, and the failure: with
   * {@code --json} one object, the reports' with the failure's {@code status}, {@code exit_code}
   * and {@code error} (as every failed command's) and {@code failed_action}.
   */
  static void writeFailed(
      String table,
      boolean dryRun,
      List<MaintenanceReport> reports,
      String failedAction,
      int exitCode,
      String message,
      boolean json,
      PrintWriter out) {
    if (json) {
      Map<String, Object> map = new LinkedHashMap<>(FloeMain.failure(exitCode, message));
      map.put("failed_action", failedAction);
      map.putAll(toMap(table, dryRun, reports));
      out.println(Json.write(map));
    } else {
      print(table, dryRun, reports, out);
      out.println();
      out.println(failedAction);
      out.println(
          "  failed (exit "
              + exitCode
              + "; the actions above "
              + (dryRun ? "were planned" : "were done")
              + "): see the error below");
    }
  }

  /** The reports as {@code --json} writes them (through {@link Json}). */
  static Map<String, Object> toMap(String table, boolean dryRun, List<MaintenanceReport> reports) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("table", table);
    map.put("dry_run", dryRun);
    map.put("metadata_counted", TableStats.METADATA_COUNTED);
    List<Map<String, Object>> actions = new ArrayList<>();
    for (MaintenanceReport report : reports) {
      Map<String, Object> action = new LinkedHashMap<>();
      action.put("action", report.action());
      action.put("changed", report.outcome().changed());
      action.put("before", stats(report.before()));
      action.put("after", stats(report.after()));
      action.put("after_is_prediction", report.dryRun());
      action.put("estimated", report.estimated().stream().sorted().toList());
      action.putAll(report.outcome().details());
      actions.add(action);
    }
    map.put("actions", actions);
    return map;
  }

  /** The reports as text: a header, then per action its table numbers and its lines. */
  static void print(
      String table, boolean dryRun, List<MaintenanceReport> reports, PrintWriter out) {
    out.printf(
        "floe maintain %s%s%n",
        table,
        dryRun ? " (dry run: nothing changed; \"after\" is the prediction, ~ an estimate)" : "");
    for (MaintenanceReport report : reports) {
      out.println();
      out.println(report.action());
      printStats(report, out);
      report.outcome().lines().forEach(line -> out.println("  " + line));
    }
  }

  private static void printStats(MaintenanceReport report, PrintWriter out) {
    TableStats before = report.before();
    TableStats after = report.after();
    Set<String> estimated = report.estimated();
    out.printf("  %-24s %14s %16s%n", "", "before", report.dryRun() ? "after (dry run)" : "after");
    row(out, "snapshots", before.snapshots(), after.snapshots(), false, Long::toString);
    row(
        out,
        "data files",
        before.dataFiles(),
        after.dataFiles(),
        estimated.contains("dataFiles"),
        Long::toString);
    row(
        out,
        "avg data file size",
        before.averageDataFileBytes(),
        after.averageDataFileBytes(),
        estimated.contains("dataBytes"),
        Bytes::format);
    row(
        out,
        "delete files",
        before.deleteFiles(),
        after.deleteFiles(),
        estimated.contains("deleteFiles"),
        Long::toString);
    row(
        out,
        "manifests",
        before.manifests(),
        after.manifests(),
        estimated.contains("manifests"),
        Long::toString);
    row(
        out,
        "metadata files",
        before.metadataFiles(),
        after.metadataFiles(),
        estimated.contains("metadataFiles"),
        Long::toString);
    row(
        out,
        "metadata size",
        before.metadataBytes(),
        after.metadataBytes(),
        estimated.contains("metadataBytes"),
        Bytes::format);
    out.println(
        "  (data files, delete files and manifests: current snapshot; metadata: "
            + TableStats.METADATA_COUNTED
            + ")");
  }

  private static void row(
      PrintWriter out,
      String label,
      long before,
      long after,
      boolean estimate,
      LongFunction<String> format) {
    out.printf(
        "  %-24s %14s %16s%n",
        label, format.apply(before), (estimate ? "~" : "") + format.apply(after));
  }

  private static Map<String, Object> stats(TableStats stats) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("snapshots", stats.snapshots());
    map.put("data_files", stats.dataFiles());
    map.put("data_bytes", stats.dataBytes());
    map.put("avg_data_file_bytes", stats.averageDataFileBytes());
    map.put("delete_files", stats.deleteFiles());
    map.put("manifests", stats.manifests());
    map.put("metadata_files", stats.metadataFiles());
    map.put("metadata_bytes", stats.metadataBytes());
    return map;
  }
}
