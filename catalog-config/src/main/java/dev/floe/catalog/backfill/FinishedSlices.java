package dev.floe.catalog.backfill;

import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.snapshot.CurrentCommit;
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
 * from the lineage on main, so a rolled-back or reverted load does not count, and confirmed by
 * walking back from the head ({@link CurrentCommit}): a later commit that touched the slice (a
 * delete by another engine, a run over a wider slice) means the load is no longer what the slice
 * holds, and the slice runs again. Skipping is an optimisation only: rerunning a finished slice is
 * a no-op.
 */
public final class FinishedSlices {
  private final Table table;
  private final Map<String, SliceLoad> latestBySlice;

  private FinishedSlices(Table table, Map<String, SliceLoad> latestBySlice) {
    this.table = table;
    this.latestBySlice = latestBySlice;
  }

  public static FinishedSlices of(Table table) {
    Map<String, SliceLoad> latest = new HashMap<>();
    for (LoadedSlice loaded : LoadedSlices.of(table).slices()) {
      latest.put(loaded.slice().label(), loaded.latest());
    }
    return new FinishedSlices(table, latest);
  }

  /** The load a finished slice holds, or empty when the backfill still has to run it. */
  public Optional<SliceLoad> finished(Slice slice, String runKey, String backfillId) {
    SliceLoad load = latestBySlice.get(slice.label());
    if (load == null
        || !backfillId.equals(load.lineage().backfillId())
        || !runKey.equals(load.lineage().runKey())) {
      return Optional.empty();
    }
    Optional<CurrentCommit.Found> current = CurrentCommit.of(table, Scope.of(slice));
    if (current.isEmpty() || current.get().snapshotId() != load.snapshotId()) {
      return Optional.empty(); // something changed the slice after this backfill loaded it
    }
    return Optional.of(load);
  }
}
