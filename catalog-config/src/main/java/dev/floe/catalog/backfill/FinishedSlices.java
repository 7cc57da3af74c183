package dev.floe.catalog.backfill;

import dev.floe.catalog.window.LoadedSlice;
import dev.floe.catalog.window.LoadedSlices;
import dev.floe.catalog.window.SliceLoad;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Table;

/**
 * Which slices a backfill already finished: those whose current content was committed by this
 * backfill with the run key the slice would get now (same job, manifest and code version). Read
 * from the lineage on main, so a rolled-back or reverted load does not count; a resumed backfill
 * runs everything else. Skipping is an optimisation only: rerunning a finished slice is a no-op.
 */
public final class FinishedSlices {
  private final Map<String, SliceLoad> latestBySlice;

  private FinishedSlices(Map<String, SliceLoad> latestBySlice) {
    this.latestBySlice = latestBySlice;
  }

  public static FinishedSlices of(Table table) {
    Map<String, SliceLoad> latest = new HashMap<>();
    for (LoadedSlice loaded : LoadedSlices.of(table).slices()) {
      latest.put(loaded.slice().label(), loaded.latest());
    }
    return new FinishedSlices(latest);
  }

  /** The load a finished slice holds, or empty when the backfill still has to run it. */
  public Optional<SliceLoad> finished(String sliceLabel, String runKey, String backfillId) {
    SliceLoad load = latestBySlice.get(sliceLabel);
    if (load != null
        && backfillId.equals(load.lineage().backfillId())
        && runKey.equals(load.lineage().runKey())) {
      return Optional.of(load);
    }
    return Optional.empty();
  }
}
