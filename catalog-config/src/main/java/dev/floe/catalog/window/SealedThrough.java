package dev.floe.catalog.window;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceUnit;
import dev.floe.catalog.spec.FloeTableProperties;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sealing marker {@link FloeTableProperties#SEALED_THROUGH}: every slice before it is sealed
 * and final, so a scheduler can treat those partitions as immutable. It is the end of the run of
 * sealed slices that continues the marker already written (or starts at the oldest loaded slice),
 * without a gap: a slice that was never loaded, is still open, still waits for a rerun, or has late
 * rows the job cannot rerun it for stops it. It never moves backwards, also when two applies race.
 */
public final class SealedThrough {
  private static final Logger LOG = LoggerFactory.getLogger(SealedThrough.class);
  private static final int MAX_ATTEMPTS = 10;

  private SealedThrough() {}

  /**
   * The marker a table carries, if any.
   *
   * @throws InvalidInputException when the property holds something other than a date or instant
   */
  public static Optional<Instant> read(Map<String, String> properties, String table) {
    String value = properties.get(FloeTableProperties.SEALED_THROUGH);
    if (value == null) {
      return Optional.empty();
    }
    return Optional.of(
        AsOf.parse("table property " + FloeTableProperties.SEALED_THROUGH + " of " + table, value));
  }

  /**
   * Extends {@code current} over the sealed slices that follow it without a gap.
   *
   * @param current the marker now, or null
   * @param slices the loaded slices of the plan
   * @param unfinished slices that are not final even if sealed (their rerun is pending or failed)
   * @return the marker after extension; empty when there is neither a marker nor a sealed slice
   */
  public static Optional<Instant> extend(
      Instant current, List<LateSlice> slices, Collection<Slice> unfinished) {
    return Optional.ofNullable(extent(current, slices, unfinished).through());
  }

  /**
   * Why {@link #extend} stops where it does: the first slice after the marker that is not final, or
   * the gap where no slice was loaded; empty when it stops only at the end of the loaded slices (or
   * no slice is loaded). E.g. {@code 2026-10-05 has no load: ... (an empty slice commits nothing,
   * ...; floe run --slice 2026-10-05 --force-commit records its load)}.
   */
  public static Optional<String> stoppedBy(
      Instant current, List<LateSlice> slices, Collection<Slice> unfinished) {
    return Optional.ofNullable(extent(current, slices, unfinished).stoppedBy());
  }

  /** The marker after extension (null for none), and why it stops (null at the end). */
  private record Extent(Instant through, String stoppedBy) {}

  private static Extent extent(
      Instant current, List<LateSlice> slices, Collection<Slice> unfinished) {
    Instant through = current;
    List<LateSlice> byStart =
        slices.stream().sorted(Comparator.comparing(s -> s.slice().start())).toList();
    for (LateSlice slice : byStart) {
      Instant start = slice.slice().start().toInstant(ZoneOffset.UTC);
      Instant end = slice.slice().end().toInstant(ZoneOffset.UTC);
      if (through != null && !end.isAfter(through)) {
        continue; // already behind the marker
      }
      // Partitions after any of these are not known to be final.
      if (through != null && start.isAfter(through)) {
        Slice first =
            firstOfGap(
                slice.slice(),
                LocalDateTime.ofInstant(through, ZoneOffset.UTC),
                slice.slice().start());
        String gap = first.value();
        return new Extent(
            through,
            gap
                + " has no load: none in the table's history covers "
                + format(through)
                + " to "
                + format(start)
                + " (an empty slice commits nothing, and a rolled-back load is gone; `floe run"
                + " --slice "
                + gap
                + " --force-commit` records its load"
                + (first.end().isBefore(slice.slice().start())
                    ? ", and so for each later slice of the gap)"
                    : ")"));
      }
      if (unfinished.contains(slice.slice())) {
        return new Extent(through, slice.slice().value() + " waits for its rerun");
      }
      if (slice.action() == LateAction.CANNOT_RERUN) {
        // Its late rows are not loaded: it is not final, however sealed.
        return new Extent(through, slice.slice().value() + " cannot be rerun as loaded");
      }
      if (slice.state() != WindowState.SEALED) {
        return new Extent(
            through,
            slice.slice().value()
                + " is open"
                + (slice.sealsAt() == null
                    ? " (no late-data window)"
                    : " until " + slice.sealsAt()));
      }
      through = end;
    }
    return new Extent(through, null);
  }

  /**
   * The first slice of the gap {@code [from, to)}, the value {@code --slice} takes: of the unit of
   * the slice after the gap ({@code next}) when one starts at {@code from} and ends by {@code to},
   * else of the largest finer unit that does. A coarser slice would also cover sealed slices before
   * the gap (the month of a gap from the 4th): forced, it would rewrite them.
   */
  private static Slice firstOfGap(Slice next, LocalDateTime from, LocalDateTime to) {
    for (int i = next.unit().ordinal(); i >= 0; i--) {
      SliceUnit unit = SliceUnit.values()[i];
      boolean fits = unit.floor(from).equals(from) && !unit.next(from).isAfter(to);
      if (fits && (unit != SliceUnit.HOUR || next.kind() != Slice.ColumnKind.DATE)) {
        return Slice.of(next.column(), next.kind(), unit, from);
      }
    }
    return Slice.of(next.column(), next.kind(), next.unit(), from);
  }

  /** A date ({@code 2026-10-05}) when the marker is a midnight UTC, else an instant. */
  public static String format(Instant through) {
    return through.atOffset(ZoneOffset.UTC).toLocalTime().equals(LocalTime.MIDNIGHT)
        ? through.atOffset(ZoneOffset.UTC).toLocalDate().toString()
        : through.toString();
  }

  /**
   * Sets the marker to {@code through} unless the table's marker is already there or later. The
   * check and the write are one compare-and-swap on the table metadata, retried on a concurrent
   * commit, so a racing apply with an older as-of cannot move it back. A REST catalog asserts no
   * table property when it commits (only the table's uuid), so it takes the write over a later
   * marker a racing apply set meanwhile: the metadata versions committed between the one read and
   * this write are then read, and a later marker among them is set again before this returns.
   *
   * @return the marker before and after
   */
  public static SealedThroughUpdate advance(Table table, String name, Instant through) {
    if (!(table instanceof HasTableOperations hasOps)) {
      throw new IllegalStateException(
          "Cannot set "
              + FloeTableProperties.SEALED_THROUGH
              + " on "
              + name
              + ": not a base table");
    }
    TableOperations ops = hasOps.operations();
    Instant target = through;
    Optional<Instant> initial = null;
    for (int attempt = 1; ; attempt++) {
      TableMetadata base = ops.refresh();
      Optional<Instant> before = read(base.properties(), name);
      if (initial == null) {
        initial = before;
      }
      if (before.isPresent() && !target.isAfter(before.get())) {
        return new SealedThroughUpdate(initial.orElse(null), before.get());
      }
      Map<String, String> set = new HashMap<>();
      set.put(FloeTableProperties.SEALED_THROUGH, format(target));
      TableMetadata updated = TableMetadata.buildFrom(base).setProperties(set).build();
      try {
        ops.commit(base, updated);
      } catch (CommitFailedException e) {
        if (attempt >= MAX_ATTEMPTS) {
          throw e;
        }
        continue; // Another commit won: read the marker again, it may already be past ours.
      }
      Optional<Instant> overwritten = setMeanwhile(ops, base, name);
      if (overwritten.isPresent() && overwritten.get().isAfter(target)) {
        if (attempt >= MAX_ATTEMPTS) {
          throw new CommitFailedException(
              "Cannot set %s on %s: concurrent applies kept overwriting it (the catalog asserts no"
                  + " table property); it may read %s instead of %s; run the apply again",
              FloeTableProperties.SEALED_THROUGH, name, format(target), format(overwritten.get()));
        }
        target = overwritten.get(); // set back to the later marker this write replaced
        continue;
      }
      table.refresh();
      return new SealedThroughUpdate(initial.orElse(null), target);
    }
  }

  /**
   * The latest marker of the metadata versions committed after {@code base} and before the current
   * one (none where the commit was a compare-and-swap), as the metadata log names them. When the
   * log no longer holds {@code base} (it keeps {@code write.metadata.previous-versions-max}
   * versions), every version it holds came after it. A version that cannot be read is left out: the
   * marker was written, and this only looks for one it replaced.
   */
  private static Optional<Instant> setMeanwhile(
      TableOperations ops, TableMetadata base, String name) {
    TableMetadata now = ops.refresh();
    List<TableMetadata.MetadataLogEntry> log = now.previousFiles();
    int from = -1;
    for (int i = 0; i < log.size(); i++) {
      if (log.get(i).file().equals(base.metadataFileLocation())) {
        from = i;
      }
    }
    Optional<Instant> latest = Optional.empty();
    for (int i = from + 1; i < log.size(); i++) {
      Optional<Instant> marker;
      try {
        marker = read(TableMetadataParser.read(ops.io(), log.get(i).file()).properties(), name);
      } catch (RuntimeException e) {
        LOG.warn("Cannot read {} to check the marker of {}", log.get(i).file(), name, e);
        continue;
      }
      if (marker.isPresent() && (latest.isEmpty() || marker.get().isAfter(latest.get()))) {
        latest = marker;
      }
    }
    return latest;
  }
}
