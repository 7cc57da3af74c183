package dev.floe.catalog.window;

import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.slice.Slice;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * The slices Floe loaded into a table, from the lineage of the current snapshot and its ancestors
 * (so a rolled-back run does not count). A run undone by {@code floe revert} (a later commit with
 * {@code floe.reverts=<run id>}) does not count either, nor do the later runs a forced revert undid
 * whole ({@code floe.discards}), unless that revert was itself reverted: late data must not rerun
 * what an operator reverted, and the rows such a run loaded are no longer there. Loads older than
 * the oldest retained snapshot are not seen. Metadata only; no data is read.
 */
public final class LoadedSlices {
  private final List<LoadedSlice> slices;
  private final Map<String, List<SliceLoad>> unplaced;
  private final List<SliceLoad> reverted;
  private final Map<Long, Integer> age;

  private LoadedSlices(
      List<LoadedSlice> slices,
      Map<String, List<SliceLoad>> unplaced,
      List<SliceLoad> reverted,
      Map<Long, Integer> age) {
    this.slices = List.copyOf(slices);
    this.unplaced = unplaced;
    this.reverted = List.copyOf(reverted);
    this.age = age;
  }

  /** Reads the loads of {@code table}'s current history. */
  public static LoadedSlices of(Table table) {
    Map<String, List<SliceLoad>> byLabel = new LinkedHashMap<>();
    Set<String> reverted = new HashSet<>();
    List<SliceLoad> revertedLoads = new ArrayList<>();
    Map<Long, Integer> age = new HashMap<>();
    for (Snapshot snapshot : SnapshotUtil.currentAncestors(table)) {
      age.put(snapshot.snapshotId(), age.size());
      Map<String, String> summary = snapshot.summary();
      String ownRun = summary == null ? null : summary.get(LineageKeys.RUN_ID);
      if (summary != null && summary.containsKey(LineageKeys.REVERTS)) {
        // Newest first: a revert is seen before the run it undid. A reverted revert undoes nothing.
        if (ownRun == null || !reverted.contains(ownRun)) {
          reverted.add(summary.get(LineageKeys.REVERTS));
          String discards = summary.get(LineageKeys.DISCARDS);
          if (discards != null) {
            reverted.addAll(List.of(discards.split(",")));
          }
        }
        continue;
      }
      Optional<Lineage> lineage = Lineage.readable(summary);
      if (lineage.isPresent() && reverted.contains(lineage.get().runId())) {
        if (!WriteMode.preservesContent(lineage.get().mode())) {
          revertedLoads.add(
              new SliceLoad(
                  snapshot.snapshotId(),
                  Instant.ofEpochMilli(snapshot.timestampMillis()),
                  lineage.get()));
        }
        continue;
      }
      if (lineage.isEmpty() || WriteMode.preservesContent(lineage.get().mode())) {
        continue; // a compaction moved rows between files: not a load, and it read no source
      }
      byLabel
          .computeIfAbsent(String.valueOf(lineage.get().slice()), label -> new ArrayList<>())
          .add(
              new SliceLoad(
                  snapshot.snapshotId(),
                  Instant.ofEpochMilli(snapshot.timestampMillis()),
                  lineage.get()));
    }
    List<LoadedSlice> slices = new ArrayList<>();
    Map<String, List<SliceLoad>> unplaced = new TreeMap<>();
    byLabel.forEach(
        (label, loads) -> {
          Optional<Slice> slice = Slice.fromLabel(label, table.schema());
          if (slice.isPresent()) {
            slices.add(new LoadedSlice(slice.get(), loads));
          } else {
            unplaced.put(label, List.copyOf(loads));
          }
        });
    slices.sort(Comparator.comparing(LoadedSlice::slice, Slice.ORDER));
    return new LoadedSlices(slices, unplaced, revertedLoads, age);
  }

  /**
   * The slices loaded inside {@code slice} (on its column, covered by it, not it) whose latest load
   * came after {@code slice}'s: the table holds their rows there, so a row of such a slice is late
   * for that slice, counted from its own load, and not for {@code slice} (a day run inside an older
   * month run).
   */
  public List<Slice> newerInside(LoadedSlice slice) {
    int ours = age.getOrDefault(slice.latest().snapshotId(), Integer.MAX_VALUE);
    return slices.stream()
        .filter(other -> !other.slice().equals(slice.slice()))
        .filter(other -> slice.slice().covers(other.slice()))
        .filter(other -> age.getOrDefault(other.latest().snapshotId(), Integer.MAX_VALUE) < ours)
        .map(LoadedSlice::slice)
        .toList();
  }

  /**
   * The slices loaded over {@code slice} (covering it, not it) whose latest load came after {@code
   * slice}'s: the table holds that load's rows there, so {@code slice}'s own load is superseded (a
   * month run over an older day run).
   */
  public List<LoadedSlice> newerCovering(LoadedSlice slice) {
    int ours = age.getOrDefault(slice.latest().snapshotId(), Integer.MAX_VALUE);
    return slices.stream()
        .filter(other -> !other.slice().equals(slice.slice()))
        .filter(other -> other.slice().covers(slice.slice()))
        .filter(other -> age.getOrDefault(other.latest().snapshotId(), Integer.MAX_VALUE) < ours)
        .toList();
  }

  /**
   * The loads of the current history that an operator reverted (with {@code floe revert}, or undone
   * whole by a forced one), newest first; they do not count as loads ({@link #slices}).
   */
  public List<SliceLoad> reverted() {
    return reverted;
  }

  /** The loaded slices, by column and start. */
  public List<LoadedSlice> slices() {
    return slices;
  }

  /**
   * Loads whose label is not a slice of the table: the whole-table scope {@code *} (swaps, merges
   * without a slice), or a label on a column the table no longer has. By label, newest load first.
   */
  public Map<String, List<SliceLoad>> unplaced() {
    return unplaced;
  }
}
