package dev.floe.catalog.window;

import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.slice.Slice;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/**
 * Plans {@code floe late}: for one job (its target and slice column) finds the slices Floe loaded,
 * judges each open or sealed as of an instant under the table's late-data policy ({@code
 * floe.late-data.*} properties) — a slice behind the table's {@code floe.sealed-through} is sealed
 * whatever the instant — counts the rows its sources received after the snapshots its latest run
 * read, and decides the action (see {@link LateSlice#of}). Reads metadata and the source files that
 * may hold late rows; writes nothing. The instant is always given: only the CLI defaults it to now.
 *
 * <pre>{@code
 * LatePlan plan = LatePlanner.of(catalog, "sales.fact_orders", "order_date").asOf(t).plan();
 * }</pre>
 */
public final class LatePlanner {
  private final Table table;
  private final String name;
  private final String sliceColumn;
  private final Function<String, Table> sources;
  private Instant asOf;

  private LatePlanner(
      Table table, String name, String sliceColumn, Function<String, Table> sources) {
    this.table = table;
    this.name = name;
    this.sliceColumn = sliceColumn;
    this.sources = sources;
  }

  /**
   * The planner for a table of {@code catalog}; sources named in lineage load from it too.
   *
   * @throws InvalidInputException when the table does not exist
   */
  public static LatePlanner of(Catalog catalog, String table, String sliceColumn) {
    return new LatePlanner(
        Catalogs.loadTable(catalog, table),
        table,
        sliceColumn,
        source -> Catalogs.loadTable(catalog, source));
  }

  /**
   * The planner for a loaded table.
   *
   * @param sources loads a source table by the name lineage records; may throw for a missing one
   */
  public static LatePlanner of(
      Table table, String name, String sliceColumn, Function<String, Table> sources) {
    return new LatePlanner(table, name, sliceColumn, sources);
  }

  /** The instant windows are judged at (required). */
  public LatePlanner asOf(Instant instant) {
    this.asOf = instant;
    return this;
  }

  /**
   * @throws InvalidInputException without an as-of instant, when the slice column is not a date or
   *     timestamp column of the table, or when its late-data or marker properties cannot be read
   */
  public LatePlan plan() {
    InvalidInputException.check(
        asOf != null, "Cannot plan late data for %s: no as-of instant given", name);
    table.refresh();
    InvalidInputException.check(
        Slice.kindOf(table.schema(), sliceColumn).isPresent(),
        "Cannot plan late data for %s: it has no date or timestamp column '%s' to cut slices on",
        name,
        sliceColumn);
    LateDataWindow window = LateDataWindow.of(table, name);
    Instant sealedThrough = SealedThrough.read(table.properties(), name).orElse(null);
    SourceLateRows counter = new SourceLateRows(sources);
    List<LateSlice> slices = new ArrayList<>();
    for (LoadedSlice slice : LoadedSlices.of(table).slices()) {
      if (!slice.slice().column().equals(sliceColumn)) {
        continue; // another job's slices on another column
      }
      List<LateRowCount> late = counter.count(slice);
      slices.add(LateSlice.of(slice.slice(), slice.latest(), late, window, asOf, sealedThrough));
    }
    return new LatePlan(
        name,
        sliceColumn,
        asOf,
        window.describe(),
        slices,
        new TreeMap<>(counter.sourceSnapshots()),
        sealedThrough);
  }
}
