package dev.floe.catalog.window;

import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceResolver;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Plans {@code floe late}: for one job (its name, target and slice column) finds the slices Floe
 * loaded, keeps for that job only those whose content it loaded (a slice another job loaded is
 * listed as {@link LateAction#OTHER_JOB} and never rerun: this job's query would replace the other
 * job's rows), judges each open or sealed as of an instant under the table's late-data policy
 * ({@code floe.late-data.*} properties) — a slice behind the table's {@code floe.sealed-through} is
 * sealed whatever the instant — counts the rows its sources received after the snapshots its latest
 * run read, and decides the action (see {@link LateSlice#of}). Reads metadata and the source files
 * that may hold late rows; writes nothing. The instant is always given: only the CLI defaults it to
 * now.
 *
 * <pre>{@code
 * LatePlan plan =
 *     LatePlanner.of(catalog, "sales.fact_orders", "order_date").job("fact_orders_daily").asOf(t).plan();
 * }</pre>
 */
public final class LatePlanner {
  private final Table table;
  private final String name;
  private final String sliceColumn;
  private final Function<String, Table> sources;
  private String job;
  private Instant asOf;
  private Function<Slice, Optional<String>> readsBeyondSlice = slice -> Optional.empty();

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

  /**
   * The job the plan is for (required): the {@code job:} name its runs record in lineage. Only the
   * slices whose content this job loaded are counted and may be rerun.
   */
  public LatePlanner job(String name) {
    this.job = name;
    return this;
  }

  /**
   * Why the job's query may read source rows outside the slice it loads, given one of its slices,
   * or empty when it reads only that slice's rows of its table, on the column of the slice's name:
   * only then are late rows told by that column; otherwise any change to a source since a load
   * makes the slice's late rows unknown. Default: empty (a caller without the job's query).
   */
  public LatePlanner readsBeyondSlice(Function<Slice, Optional<String>> why) {
    this.readsBeyondSlice = why;
    return this;
  }

  /** The instant windows are judged at (required). */
  public LatePlanner asOf(Instant instant) {
    this.asOf = instant;
    return this;
  }

  /**
   * @throws InvalidInputException without a job or an as-of instant, when the slice column is not a
   *     date or timestamp column of the table, or when its late-data or marker properties cannot be
   *     read
   */
  public LatePlan plan() {
    InvalidInputException.check(
        job != null && !job.isBlank(),
        "Cannot plan late data for %s: no job given (only the slices a job loaded are its to"
            + " rerun)",
        name);
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
    SourceLateRows counter = new SourceLateRows(sources, readsBeyondSlice);
    LoadedSlices loaded = LoadedSlices.of(table);
    Map<String, SliceLoad> newest = new HashMap<>();
    loaded.slices().forEach(s -> newest.put(s.slice().label(), s.latest()));
    loaded.unplaced().forEach((label, loads) -> newest.put(label, loads.get(0)));
    Map<Long, Integer> age = new HashMap<>();
    for (Long id : SnapshotUtil.currentAncestorIds(table)) {
      age.put(id, age.size());
    }
    List<LateSlice> slices = new ArrayList<>();
    for (LoadedSlice slice : loaded.slices()) {
      if (!slice.slice().column().equals(sliceColumn)) {
        continue; // another job's slices on another column
      }
      if (supersededByOwnLoad(slice, loaded, newest, age)) {
        continue; // a newer load of this job over a wider slice holds it: that load is counted
      }
      Optional<String> owner = otherOwner(slice, newest, age);
      if (owner.isPresent()) {
        slices.add(
            LateSlice.ofOtherJob(
                slice.slice(), slice.latest(), owner.get(), job, window, asOf, sealedThrough));
        continue;
      }
      List<LateRowCount> late = counter.count(slice, loaded.newerInside(slice));
      LateSlice planned =
          LateSlice.of(slice.slice(), slice.latest(), late, window, asOf, sealedThrough);
      Optional<SliceLoad> reverted = revertedSince(slice, loaded, age);
      LateSlice held =
          reverted
              .map(
                  run ->
                      planned.heldByRevert(
                          run.lineage().runId(), String.valueOf(run.lineage().slice())))
              .orElse(planned);
      slices.add(held.action().reruns() ? runnable(held) : held);
    }
    return new LatePlan(
        name,
        sliceColumn,
        asOf,
        window.describe(),
        heldBySealedInside(slices, loaded),
        new TreeMap<>(counter.sourceSnapshots()),
        sealedThrough);
  }

  /**
   * The slice, or held when the job can no longer run it as loaded: the same resolution a run of it
   * makes (a day slice after a repartition by month, files of an older spec in it).
   */
  private LateSlice runnable(LateSlice slice) {
    try {
      SliceResolver.resolve(name, table, sliceColumn, slice.slice().value());
      return slice;
    } catch (InvalidInputException e) {
      return slice.cannotRerun(e.getMessage());
    }
  }

  /**
   * The plan with every slice to rerun that holds a newer load of a sealed slice whose late rows
   * are only reported ({@link LateAction#REPORT}) held instead: its rerun (a month) would read that
   * slice's (a day's) late rows again and write them into it, which the policy forbids.
   */
  private static List<LateSlice> heldBySealedInside(List<LateSlice> planned, LoadedSlices loaded) {
    Map<String, LateSlice> byLabel = new HashMap<>();
    planned.forEach(s -> byLabel.put(s.slice().label(), s));
    List<LateSlice> held = new ArrayList<>();
    for (LateSlice slice : planned) {
      List<String> reported = new ArrayList<>();
      if (slice.action().reruns()) {
        for (LoadedSlice loadedSlice : loaded.slices()) {
          if (loadedSlice.slice().equals(slice.slice())) {
            for (Slice inside : loaded.newerInside(loadedSlice)) {
              LateSlice plannedInside = byLabel.get(inside.label());
              if (plannedInside != null && plannedInside.action() == LateAction.REPORT) {
                reported.add(inside.value());
              }
            }
          }
        }
      }
      held.add(reported.isEmpty() ? slice : slice.heldBySealed(reported));
    }
    return held;
  }

  /**
   * The newest run by this job of this slice or an overlapping one (a month over a day) that an
   * operator reverted after the slice's latest load: a rerun would load its rows again.
   */
  private Optional<SliceLoad> revertedSince(
      LoadedSlice slice, LoadedSlices loaded, Map<Long, Integer> age) {
    int ours = age.getOrDefault(slice.latest().snapshotId(), Integer.MAX_VALUE);
    return loaded.reverted().stream()
        .filter(run -> job.equals(run.lineage().job()))
        .filter(run -> age.getOrDefault(run.snapshotId(), Integer.MAX_VALUE) < ours)
        .filter(
            run ->
                Slice.labelsOverlap(String.valueOf(run.lineage().slice()), slice.slice().label()))
        .findFirst();
  }

  /**
   * Whether a newer load by this job of a slice that covers this one (a month over a day) came
   * after this slice's latest load, and that slice is planned as this job's: the slice's rows are
   * that load's, rows that reached the source between the two loads are not late, and the covering
   * slice is planned with its own load.
   */
  private boolean supersededByOwnLoad(
      LoadedSlice slice,
      LoadedSlices loaded,
      Map<String, SliceLoad> newest,
      Map<Long, Integer> age) {
    return loaded.newerCovering(slice).stream()
        .filter(other -> job.equals(other.latest().lineage().job()))
        // Only when the covering slice is planned as this job's: one another job's newer load
        // took over is listed as that job's, and then this slice must still be planned here.
        .anyMatch(other -> otherOwner(other, newest, age).isEmpty());
  }

  /**
   * The other job whose load the slice holds now, or empty when it is this job's: the slice's
   * latest load is another job's, or a load by another job of an overlapping slice (a month over a
   * day, the whole table) came after this job's latest load of it.
   *
   * @param newest per lineage label, its newest load
   * @param age per snapshot of the current history, its distance from the head (0: the head)
   */
  private Optional<String> otherOwner(
      LoadedSlice slice, Map<String, SliceLoad> newest, Map<Long, Integer> age) {
    SliceLoad latest = slice.latest();
    if (!job.equals(latest.lineage().job())) {
      return Optional.of(String.valueOf(latest.lineage().job()));
    }
    int ours = age.getOrDefault(latest.snapshotId(), Integer.MAX_VALUE);
    return newest.entrySet().stream()
        .filter(e -> !e.getKey().equals(slice.slice().label()))
        .filter(e -> !job.equals(e.getValue().lineage().job()))
        .filter(e -> age.getOrDefault(e.getValue().snapshotId(), Integer.MAX_VALUE) < ours)
        .filter(e -> Slice.labelsOverlap(e.getKey(), slice.slice().label()))
        .min(Comparator.comparing(e -> age.get(e.getValue().snapshotId())))
        .map(e -> String.valueOf(e.getValue().lineage().job()));
  }
}
