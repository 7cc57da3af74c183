package dev.floe.catalog.window;

import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.spec.LateDataSpec;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One loaded slice of a late-data plan: its window state as of the plan's instant, the rows its
 * sources received after the snapshots its latest run read, and what to do about them.
 *
 * @param slice the slice
 * @param state open or sealed as of the plan's instant
 * @param sealsAt when the slice seals, or null when the table has no late-data window
 * @param action what {@code floe late apply} does with it
 * @param note one sentence saying why
 * @param latest the load whose content the slice holds now (its lineage names the sources read)
 * @param lateRows per source of that load: rows that arrived after the snapshot it read
 */
public record LateSlice(
    Slice slice,
    WindowState state,
    Instant sealsAt,
    LateAction action,
    String note,
    SliceLoad latest,
    List<LateRowCount> lateRows) {

  public LateSlice {
    lateRows = List.copyOf(lateRows);
  }

  /**
   * Decides the action. Open: late rows, or a count that cannot be known, mean rerun (a rerun is a
   * whole-slice overwrite and always safe; an unchanged slice becomes a no-op). Sealed: late rows
   * are reported, or rerun when the policy reopens sealed slices. A sealed slice is reopened only
   * for rows known to have arrived: an unknown count there (e.g. the source's old snapshots were
   * expired) would otherwise reopen every old slice at once.
   */
  public static LateSlice of(
      Slice slice,
      SliceLoad latest,
      List<LateRowCount> lateRows,
      LateDataWindow window,
      Instant asOf) {
    WindowState state = window.state(slice, asOf);
    Instant sealsAt = window.sealsAt(slice).orElse(null);
    long known = lateRows.stream().mapToLong(c -> c.count().orElse(0L)).sum();
    Optional<String> unknown =
        lateRows.stream().filter(c -> !c.known()).map(LateRowCount::describe).findFirst();
    String rows = known + (known == 1 ? " late row" : " late rows");
    LateAction action;
    String note;
    if (state == WindowState.OPEN) {
      String open = sealsAt == null ? "open (no late-data window)" : "open until " + sealsAt;
      if (unknown.isPresent()) {
        action = LateAction.RERUN;
        note =
            "late rows unknown ("
                + unknown.get()
                + "); rerunning is always safe, so it is rerun; "
                + open;
      } else if (known > 0) {
        action = LateAction.RERUN;
        note = rows + "; " + open;
      } else {
        action = LateAction.NONE;
        note = "no late rows; " + open;
      }
    } else {
      String sealed = "sealed since " + sealsAt;
      boolean reopen =
          window
              .policy()
              .map(p -> p.afterWindow() == LateDataSpec.AfterWindow.REOPEN)
              .orElse(false);
      if (known > 0 && reopen) {
        action = LateAction.RERUN_REOPENED;
        note = rows + "; " + sealed + ", reopened (after_window: reopen)";
      } else if (known > 0) {
        action = LateAction.REPORT;
        note = rows + "; " + sealed + ": reported, not loaded (after_window: report)";
      } else if (unknown.isPresent()) {
        action = LateAction.REPORT;
        note =
            "late rows unknown ("
                + unknown.get()
                + "); "
                + sealed
                + ": reported, not loaded"
                + (reopen
                    ? " (a sealed slice is reopened only for rows known to have arrived)"
                    : "");
      } else {
        action = LateAction.NONE;
        note = "no late rows; " + sealed;
      }
    }
    return new LateSlice(slice, state, sealsAt, action, note, latest, lateRows);
  }

  /** The late rows counted exactly, over all sources. */
  public long knownLateRows() {
    return lateRows.stream().mapToLong(c -> c.count().orElse(0L)).sum();
  }

  /** True when the late rows of at least one source cannot be known. */
  public boolean lateRowsUnknown() {
    return lateRows.stream().anyMatch(c -> !c.known());
  }

  /** E.g. {@code 3}, {@code unknown}, or {@code 2 + unknown} when one source cannot be counted. */
  public String lateRowsText() {
    long known = knownLateRows();
    if (!lateRowsUnknown()) {
      return String.valueOf(known);
    }
    return known > 0 ? known + " + unknown" : "unknown";
  }
}
