package dev.floe.catalog.report;

import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.window.LateDataWindow;
import dev.floe.catalog.window.LateRowCount;
import dev.floe.catalog.window.SliceLoad;
import dev.floe.catalog.window.WindowState;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One cell of the heatmap: a loaded slice and what is known about it as of the report's instant.
 *
 * @param slice the slice
 * @param state its colour
 * @param window open or sealed as of the report's instant
 * @param sealsAt when the slice seals, or null when the table has no late-data window
 * @param loads the Floe commits that loaded it on the current history, newest first
 * @param lateRows per source of the latest run: rows that arrived after the snapshot it read
 */
public record SliceStatus(
    Slice slice,
    SliceState state,
    WindowState window,
    Instant sealsAt,
    List<SliceLoad> loads,
    List<LateRowCount> lateRows) {

  public SliceStatus {
    loads = List.copyOf(loads);
    lateRows = List.copyOf(lateRows);
  }

  /**
   * Classifies a slice. Late rows win while the slice takes them; otherwise a sealed slice is
   * sealed (late rows after the window are then only reported); otherwise the number of loads
   * decides. An unknown late-row count never makes a slice "late": the page says "unknown". A slice
   * at or before the table's {@code floe.sealed-through} is sealed whatever the as-of says, as
   * {@code floe late} treats it.
   *
   * @param sealedThrough the table's sealing marker, or null
   */
  public static SliceStatus of(
      Slice slice,
      List<SliceLoad> loads,
      List<LateRowCount> lateRows,
      LateDataWindow policy,
      Instant asOf,
      Instant sealedThrough) {
    boolean behindMarker =
        sealedThrough != null
            && !slice.end().toInstant(java.time.ZoneOffset.UTC).isAfter(sealedThrough);
    WindowState window = behindMarker ? WindowState.SEALED : policy.state(slice, asOf);
    long late = lateRows.stream().mapToLong(c -> c.count().orElse(0L)).sum();
    SliceState state;
    if (late > 0 && policy.acceptsLateRows(window)) {
      state = SliceState.LATE_DATA_PENDING;
    } else if (window == WindowState.SEALED) {
      state = SliceState.SEALED;
    } else {
      state = loads.size() > 1 ? SliceState.RELOADED : SliceState.LOADED;
    }
    return new SliceStatus(
        slice, state, window, policy.sealsAt(slice).orElse(null), loads, lateRows);
  }

  /** The load whose content the slice holds now. */
  public SliceLoad latest() {
    return loads.get(0);
  }

  /** The late rows counted exactly, over all sources. */
  public long knownLateRows() {
    return lateRows.stream().mapToLong(c -> c.count().orElse(0L)).sum();
  }

  /** True when the late rows of at least one source cannot be known. */
  public boolean lateRowsUnknown() {
    return lateRows.stream().anyMatch(c -> !c.known());
  }

  /** The first reason a count is unknown, if any. */
  public Optional<String> unknownReason() {
    return lateRows.stream().filter(c -> !c.known()).map(LateRowCount::describe).findFirst();
  }
}
