package dev.floe.flink.maintain;

import dev.floe.catalog.spec.MaintenancePolicy;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints a {@link CompactionResult} for an operator (text) or a script ({@code --json}: a map in a
 * fixed key order, for the CLI's JSON writer).
 */
public final class CompactionReport {

  private CompactionReport() {}

  /** Text: a header, one block per slice with files, bytes and rows before and after, totals. */
  public static void print(CompactionResult result, PrintWriter out) {
    out.printf(
        "%s %s (base snapshot %s, files below %s count as small)%n",
        result.dryRun() ? "dry run: compact" : "compact",
        result.table(),
        result.baseSnapshotId() == null ? "-" : result.baseSnapshotId(),
        bytes(MaintenancePolicy.smallFileLimit(result.targetFileSizeBytes())));
    lines(result).forEach(line -> out.println("  " + line));
  }

  /** The per-slice blocks and totals of {@link #print}, without the header and indentation. */
  public static List<String> lines(CompactionResult result) {
    List<String> lines = new ArrayList<>();
    for (SliceCompaction slice : result.slices()) {
      lines.add(String.format("%-14s %s", slice.slice(), slice.status().text()));
      lines.add(
          String.format(
              "  files %s   bytes %s   rows %s%s",
              arrow(slice.before().files(), slice.after().files()),
              arrow(bytes(slice.before().bytes()), bytes(slice.after().bytes())),
              arrow(slice.before().rows(), slice.after().rows()),
              result.dryRun() && slice.status() == SliceCompaction.Status.WOULD_COMPACT
                  ? "   (expected)"
                  : ""));
      if (slice.snapshotId() != null) {
        lines.add(String.format("  snapshot %d   run id %s", slice.snapshotId(), slice.runId()));
      }
      lines.add("  " + slice.detail());
    }
    FileStats before = result.before();
    FileStats after = result.after();
    lines.add(
        String.format(
            "%-14s files %s   average file %s",
            "total",
            arrow(before.files(), after.files()),
            arrow(bytes(before.averageFileBytes()), bytes(after.averageFileBytes()))));
    lines.add(
        String.format(Locale.ROOT, "%-14s %.1f s", "elapsed", result.elapsedMillis() / 1000.0));
    return lines;
  }

  /** The result as a JSON-ready map; byte counts are plain numbers. */
  public static Map<String, Object> toMap(CompactionResult result) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("table", result.table());
    map.put("dry_run", result.dryRun());
    map.put("base_snapshot_id", result.baseSnapshotId());
    map.put("target_file_size_bytes", result.targetFileSizeBytes());
    List<Map<String, Object>> slices = new ArrayList<>();
    for (SliceCompaction slice : result.slices()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("slice", slice.slice());
      entry.put("label", slice.label());
      entry.put("status", slice.status().text());
      entry.put("before", stats(slice.before()));
      entry.put("rewritten", stats(slice.rewritten()));
      entry.put("written", stats(slice.written()));
      entry.put("expected_output_files", slice.expectedOutputFiles());
      entry.put("after", stats(slice.after()));
      entry.put("removed_delete_files", slice.removedDeleteFiles());
      entry.put("snapshot_id", slice.snapshotId());
      entry.put("run_id", slice.runId());
      entry.put("exit_code", slice.exitCode());
      entry.put("detail", slice.detail());
      slices.add(entry);
    }
    map.put("slices", slices);
    map.put("before", stats(result.before()));
    map.put("after", stats(result.after()));
    map.put("exit_code", result.exitCode());
    map.put("elapsed_ms", result.elapsedMillis());
    return map;
  }

  private static Map<String, Object> stats(FileStats stats) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("files", stats.files());
    map.put("bytes", stats.bytes());
    map.put("rows", stats.rows());
    map.put("average_file_bytes", stats.averageFileBytes());
    return map;
  }

  private static String arrow(Object before, Object after) {
    return before + " -> " + after;
  }

  /** Bytes in the largest binary unit that keeps a number of at least 1, e.g. 1.5 MiB. */
  static String bytes(long bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = bytes;
    int unit = 0;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return unit == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
  }
}
