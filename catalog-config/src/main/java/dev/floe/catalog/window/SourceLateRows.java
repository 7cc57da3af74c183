package dev.floe.catalog.window;

import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.slice.Slice;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.NoSuchTableException;

/**
 * Counts the late rows of loaded slices in the sources their loads read, loading each source table
 * once. A source that cannot be loaded makes its counts unknown, with the reason, never zero. Used
 * by {@code floe late} and {@code floe report}, so both count the same rows.
 */
public final class SourceLateRows {
  private final Function<String, Table> sources;
  private final Map<String, Table> loaded = new HashMap<>();
  private final Map<String, String> missing = new HashMap<>();
  private final Map<String, Long> sourceSnapshots = new TreeMap<>();

  private final Function<Slice, Optional<String>> readsBeyondSlice;
  private Optional<String> beyond;

  /**
   * @param sources loads a source table by the name lineage records; may throw for a missing one
   */
  public SourceLateRows(Function<String, Table> sources) {
    this(sources, slice -> Optional.empty());
  }

  /**
   * @param sources as above
   * @param readsBeyondSlice why the job's query may read source rows outside the slice it loads,
   *     given one of its slices, or empty when it reads only that slice's rows (only then are late
   *     rows told by the slice's column); asked at most once
   */
  public SourceLateRows(
      Function<String, Table> sources, Function<Slice, Optional<String>> readsBeyondSlice) {
    this.sources = sources;
    this.readsBeyondSlice = readsBeyondSlice;
  }

  /**
   * One count per source the slice's current load read.
   *
   * @param except slices inside {@code slice} that newer loads hold ({@link
   *     LoadedSlices#newerInside}): their rows are not counted here
   */
  public List<LateRowCount> count(LoadedSlice slice, List<Slice> except) {
    Lineage lineage = slice.latest().lineage();
    List<LateRowCount> late = new ArrayList<>();
    for (String source : lineage.sourceSnapshots().keySet()) {
      // From the snapshot the run was planned on, not the newest it may have read: rows that
      // landed while it ran may be missing from its load, and counting them late costs at most a
      // rerun that is a no-op.
      long read = lineage.sourceSnapshots().get(source);
      Table sourceTable = source(source);
      late.add(
          sourceTable == null
              ? LateRowCount.unknown(source, read, null, missing.get(source))
              : LateRows.count(
                  sourceTable, source, read, slice.slice(), except, () -> beyond(slice)));
    }
    return late;
  }

  private Optional<String> beyond(LoadedSlice slice) {
    if (beyond == null) {
      beyond = readsBeyondSlice.apply(slice.slice());
    }
    return beyond;
  }

  /** Every source counted so far and its current snapshot (null: none, or not loadable). */
  public Map<String, Long> sourceSnapshots() {
    return Collections.unmodifiableMap(sourceSnapshots);
  }

  private Table source(String source) {
    if (!loaded.containsKey(source) && !missing.containsKey(source)) {
      try {
        Table sourceTable = sources.apply(source);
        loaded.put(source, sourceTable);
        Snapshot current = sourceTable.currentSnapshot();
        sourceSnapshots.put(source, current == null ? null : current.snapshotId());
      } catch (FloeException | NoSuchTableException e) {
        missing.put(source, "cannot load source table " + source + ": " + e.getMessage());
        sourceSnapshots.put(source, null);
      }
    }
    return loaded.get(source);
  }
}
