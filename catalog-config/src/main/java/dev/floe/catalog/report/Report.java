package dev.floe.catalog.report;

import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.maintain.plan.HealthScan;
import dev.floe.catalog.maintain.plan.MaintenancePlan;
import dev.floe.catalog.maintain.plan.MaintenancePlanner;
import dev.floe.catalog.maintain.plan.TableHealth;
import dev.floe.catalog.window.LateDataWindow;
import dev.floe.catalog.window.LateRowCount;
import dev.floe.catalog.window.LoadedSlice;
import dev.floe.catalog.window.LoadedSlices;
import dev.floe.catalog.window.SealedThrough;
import dev.floe.catalog.window.SourceLateRows;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/**
 * Builds the model of {@code floe report}: the table's loaded slices coloured by state as of an
 * instant, and its snapshot timeline. Reads metadata, and the source files that may hold late rows;
 * writes nothing. The instant is always given (only the CLI defaults it to now), so the same
 * metadata and instant give the same model.
 *
 * <pre>{@code
 * ReportModel model = Report.of(catalog, "sales.fact_orders").asOf(instant).build();
 * String html = ReportHtml.render(model);
 * }</pre>
 */
public final class Report {
  private final Table table;
  private final String name;
  private final Function<String, Table> sources;
  private Instant asOf;

  private Report(Table table, String name, Function<String, Table> sources) {
    this.table = table;
    this.name = name;
    this.sources = sources;
  }

  /**
   * The report of a table of {@code catalog}; source tables named in lineage load from it too.
   *
   * @throws InvalidInputException when the table does not exist
   */
  public static Report of(Catalog catalog, String name) {
    return new Report(
        Catalogs.loadTable(catalog, name), name, source -> Catalogs.loadTable(catalog, source));
  }

  /**
   * The report of a loaded table.
   *
   * @param sources loads a source table by the name lineage records; may throw for a missing one
   */
  public static Report of(Table table, String name, Function<String, Table> sources) {
    return new Report(table, name, sources);
  }

  /** The instant windows are judged at (required). */
  public Report asOf(Instant instant) {
    this.asOf = instant;
    return this;
  }

  /**
   * @throws InvalidInputException without an as-of instant, or when the table's late-data
   *     properties cannot be read
   */
  public ReportModel build() {
    InvalidInputException.check(
        asOf != null, "Cannot build the report of %s: no as-of instant given", name);
    table.refresh();
    LateDataWindow window = LateDataWindow.of(table, name);
    LoadedSlices loaded = LoadedSlices.of(table);
    SourceLateRows counter = new SourceLateRows(sources);
    List<SliceStatus> slices = new ArrayList<>();
    Instant sealedThrough = SealedThrough.read(table.properties(), name).orElse(null);
    for (LoadedSlice slice : loaded.slices()) {
      if (!loaded.newerCovering(slice).isEmpty()) {
        continue; // a newer load of a covering slice (a month over a day) holds its rows
      }
      List<LateRowCount> late = counter.count(slice, loaded.newerInside(slice));
      slices.add(SliceStatus.of(slice.slice(), slice.loads(), late, window, asOf, sealedThrough));
    }
    Map<String, Integer> unplaced = new TreeMap<>();
    loaded.unplaced().forEach((label, loads) -> unplaced.put(label, loads.size()));
    Snapshot current = table.currentSnapshot();
    MaintenancePlan maintenance = null;
    String maintenanceProblem = null;
    try {
      TableHealth health = HealthScan.of(table, name, Clock.fixed(asOf, ZoneOffset.UTC));
      maintenance =
          MaintenancePlanner.withClock(Clock.fixed(asOf, ZoneOffset.UTC))
              .plan(List.of(health), Map.of(), 0);
    } catch (FloeException | IllegalArgumentException e) {
      maintenanceProblem = e.getMessage();
    }
    return new ReportModel(
        name,
        asOf,
        new ReportInputs(
            metadataLocation(),
            current == null ? null : current.snapshotId(),
            new TreeMap<>(counter.sourceSnapshots())),
        window.describe(),
        window.policy().isPresent(),
        slices,
        unplaced,
        Timeline.snapshots(table),
        Timeline.headMoves(table),
        maintenance,
        maintenanceProblem);
  }

  private String metadataLocation() {
    return table instanceof HasTableOperations ops
        ? ops.operations().current().metadataFileLocation()
        : table.location();
  }
}
