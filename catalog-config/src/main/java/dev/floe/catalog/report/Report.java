package dev.floe.catalog.report;

import dev.floe.catalog.commit.RunLookup;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.maintain.plan.HealthScan;
import dev.floe.catalog.maintain.plan.MaintenancePlan;
import dev.floe.catalog.maintain.plan.MaintenancePlanner;
import dev.floe.catalog.maintain.plan.TableHealth;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.window.LateDataWindow;
import dev.floe.catalog.window.LateRowCount;
import dev.floe.catalog.window.LoadedSlice;
import dev.floe.catalog.window.LoadedSlices;
import dev.floe.catalog.window.SealedThrough;
import dev.floe.catalog.window.SliceLoad;
import dev.floe.catalog.window.SourceLateRows;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Builds the model of {@code floe report}: the table's loaded slices coloured by state as of an
 * instant, its snapshot timeline, and its maintenance plan. Reads metadata, the source files that
 * may hold late rows, and a listing of the table location (for orphan files); writes nothing. The
 * instant is always given (only the CLI defaults it to now), so the same metadata, files under the
 * table location and instant give the same model.
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
    Optional<Snapshot> cut = RunLookup.mainHistoryCut(table);
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
        cut.map(Snapshot::snapshotId).orElse(null),
        cut.isEmpty() ? List.of() : restoredFromExpiredHistory(loaded),
        Timeline.snapshots(table),
        Timeline.headMoves(table),
        maintenance,
        maintenanceProblem);
  }

  /**
   * With main's history cut by an expiry: the newest revert commit of each slice that no kept load
   * holds (none of its slice, nor of one covering it). It restored content from a load the expiry
   * removed, so the table holds the slice though its loads cannot be seen. By slice.
   */
  private List<SliceLoad> restoredFromExpiredHistory(LoadedSlices loaded) {
    Map<Slice, SliceLoad> restored = new LinkedHashMap<>();
    Set<Slice> decided = new HashSet<>();
    for (Snapshot snapshot : SnapshotUtil.currentAncestors(table)) {
      Map<String, String> summary = snapshot.summary();
      if (summary == null || !summary.containsKey(LineageKeys.REVERTS)) {
        continue;
      }
      Optional<Lineage> lineage = Lineage.readable(summary);
      Optional<Slice> slice =
          lineage.flatMap(l -> Slice.fromLabel(String.valueOf(l.slice()), table.schema()));
      if (slice.isEmpty()
          || loaded.slices().stream().anyMatch(l -> l.slice().covers(slice.get()))) {
        continue;
      }
      // Newest first: a later revert of the slice says what it holds now. One that left it empty
      // restored nothing (it undid the slice's first load, which may be kept): not listed.
      if (decided.add(slice.get()) && lineage.get().rows() > 0) {
        restored.put(
            slice.get(),
            new SliceLoad(
                snapshot.snapshotId(),
                Instant.ofEpochMilli(snapshot.timestampMillis()),
                lineage.get()));
      }
    }
    return restored.entrySet().stream()
        .sorted(Map.Entry.comparingByKey(Slice.ORDER))
        .map(Map.Entry::getValue)
        .toList();
  }

  private String metadataLocation() {
    return table instanceof HasTableOperations ops
        ? ops.operations().current().metadataFileLocation()
        : table.location();
  }
}
