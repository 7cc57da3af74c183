package dev.floe.catalog.backfill;

import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.snapshot.CurrentCommit;
import dev.floe.catalog.window.LoadedSlice;
import dev.floe.catalog.window.LoadedSlices;
import dev.floe.catalog.window.SliceLoad;
import dev.floe.catalog.window.SourceChanges;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.iceberg.Table;

/**
 * Which slices a backfill already finished: those whose current content was committed by this
 * backfill with the run key the slice would get now (same job, manifest and code version), from
 * sources that provably still hold what that load read for the slice. Read from the lineage on
 * main, so a rolled-back or reverted load does not count; confirmed by walking back from the head
 * ({@link CurrentCommit}): a later commit that touched the slice (a delete by another engine, a run
 * over a wider slice) means the load is no longer what the slice holds; and checked against the
 * sources ({@link SourceChanges}): a source overwritten, deleted from, rolled back or appended to
 * with rows of the slice since the load means a run now would load other rows. Such slices run
 * again, as do slices loaded before a change to the table's schema. Skipping is an optimisation
 * only: rerunning a finished slice is a no-op.
 */
public final class FinishedSlices {
  private final Table table;
  private final Map<String, SliceLoad> latestBySlice;
  private final SourceChanges sources;

  /**
   * What a backfill finds of one slice of its range.
   *
   * @param finished the load of this backfill the slice holds, to skip; or null: run the slice
   * @param runAgainBecause why a slice this backfill loaded runs again, or null (finished, or never
   *     loaded by this backfill with this run key)
   */
  public record Status(SliceLoad finished, String runAgainBecause) {

    public boolean isFinished() {
      return finished != null;
    }
  }

  private FinishedSlices(Table table, Map<String, SliceLoad> latestBySlice, SourceChanges sources) {
    this.table = table;
    this.latestBySlice = latestBySlice;
    this.sources = sources;
  }

  /**
   * @param sources loads a source table by the name lineage records; may throw for a missing one
   *     (then its slices run again)
   * @param readsBeyondSlice why the job's query may read source rows outside the slice it loads, or
   *     empty when it provably does not ({@link SourceChanges})
   */
  public static FinishedSlices of(
      Table table, Function<String, Table> sources, Supplier<Optional<String>> readsBeyondSlice) {
    Map<String, SliceLoad> latest = new HashMap<>();
    for (LoadedSlice loaded : LoadedSlices.of(table).slices()) {
      latest.put(loaded.slice().label(), loaded.latest());
    }
    return new FinishedSlices(table, latest, new SourceChanges(sources, readsBeyondSlice));
  }

  /** The load a finished slice holds, or empty when the backfill still has to run it. */
  public Optional<SliceLoad> finished(Slice slice, String runKey, String backfillId) {
    return Optional.ofNullable(status(slice, runKey, backfillId).finished());
  }

  /** Whether the slice is finished, and if this backfill loaded it but it runs again, why. */
  public Status status(Slice slice, String runKey, String backfillId) {
    SliceLoad load = latestBySlice.get(slice.label());
    if (load == null
        || !backfillId.equals(load.lineage().backfillId())
        || !runKey.equals(load.lineage().runKey())) {
      return new Status(null, null);
    }
    Optional<CurrentCommit.Found> current = CurrentCommit.of(table, Scope.of(slice));
    if (current.isEmpty() || current.get().snapshotId() != load.snapshotId()) {
      return new Status(
          null, "the slice changed after this backfill loaded it in snapshot " + load.snapshotId());
    }
    if (!CurrentCommit.madeWithCurrentSchema(table, load.snapshotId())) {
      return new Status(
          null,
          "the table's schema changed after this backfill loaded the slice in snapshot "
              + load.snapshotId());
    }
    Optional<String> changed = sources.since(load.lineage(), slice);
    return changed.isPresent() ? new Status(null, changed.get()) : new Status(load, null);
  }
}
