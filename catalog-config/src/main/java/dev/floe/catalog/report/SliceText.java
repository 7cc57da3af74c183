package dev.floe.catalog.report;

import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.window.LateRowCount;
import dev.floe.catalog.window.SliceLoad;
import dev.floe.catalog.window.WindowState;
import java.util.Map;
import java.util.stream.Collectors;

/** The words the page uses for one slice: its tooltip, and its late-row summary. */
final class SliceText {

  private SliceText() {}

  /** The hover text of a heatmap cell: the slice's state and its latest run's lineage. */
  static String tooltip(SliceStatus slice) {
    SliceLoad latest = slice.latest();
    Lineage lineage = latest.lineage();
    StringBuilder text = new StringBuilder();
    text.append(slice.slice().label()).append('\n');
    text.append("state: ").append(slice.state().text()).append('\n');
    text.append(window(slice)).append('\n');
    text.append("loaded ").append(Html.count(slice.loads().size(), "time")).append('\n');
    text.append("run id: ").append(lineage.runId()).append('\n');
    text.append("job: ").append(lineage.job()).append('\n');
    text.append("mode: ").append(lineage.mode()).append('\n');
    text.append("rows: ").append(lineage.rows()).append('\n');
    text.append("content hash: ").append(lineage.contentHash()).append('\n');
    text.append("code version: ").append(lineage.codeVersion()).append('\n');
    text.append("source snapshots: ").append(sources(lineage.sourceSnapshots())).append('\n');
    text.append("committed: ")
        .append(Html.time(latest.committedAt()))
        .append(" (snapshot ")
        .append(latest.snapshotId())
        .append(")\n");
    text.append("late rows: ").append(late(slice));
    return text.toString();
  }

  /** E.g. {@code open, seals 2026-10-07 00:00:00Z}. */
  static String window(SliceStatus slice) {
    if (slice.sealsAt() == null) {
      return "window: no late-data policy, never sealed";
    }
    return (slice.window() == WindowState.SEALED ? "window: sealed since " : "window: open, seals ")
        + Html.time(slice.sealsAt());
  }

  /** Late rows over all sources, e.g. {@code 2 (sales.staging: 2 rows after snapshot 5)}. */
  static String late(SliceStatus slice) {
    if (slice.lateRows().isEmpty()) {
      return "none (the run read no source table)";
    }
    String details =
        slice.lateRows().stream().map(LateRowCount::describe).collect(Collectors.joining("; "));
    if (slice.lateRowsUnknown()) {
      return "unknown - " + details;
    }
    return slice.knownLateRows() + " - " + details;
  }

  static String sources(Map<String, Long> sources) {
    if (sources.isEmpty()) {
      return "none";
    }
    return sources.entrySet().stream()
        .map(e -> e.getKey() + "@" + e.getValue())
        .collect(Collectors.joining(", "));
  }
}
