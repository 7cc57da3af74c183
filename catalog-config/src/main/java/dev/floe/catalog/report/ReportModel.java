package dev.floe.catalog.report;

import dev.floe.catalog.maintain.plan.MaintenancePlan;
import dev.floe.catalog.window.SliceLoad;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything the report page shows: a function of the table's metadata (and its sources') and the
 * as-of instant, but for the maintenance plan's orphan-file count, which comes from a listing of
 * the table location. {@link ReportHtml#render} turns it into the page.
 *
 * @param table the table's name
 * @param asOf the instant windows are judged at
 * @param inputs what the report was computed from
 * @param lateDataWindow the table's late-data policy as the spec writes it, or {@code none}
 * @param hasWindow false when the table has no late-data policy (slices are never sealed)
 * @param slices the loaded slices, by column and start
 * @param unplacedLoads loads that are not a slice of the table (e.g. whole-table swaps), with how
 *     many commits each label has
 * @param historyCutAt the oldest snapshot of main's kept history when an expiry removed its parent
 *     (loads older than it are not seen), or null when main's history is whole
 * @param restoredFromExpiredHistory per slice no kept load holds, the newest revert commit on main
 *     that restored its content from a load older than {@code historyCutAt}, by slice; empty when
 *     main's history is whole
 * @param snapshots every snapshot the metadata keeps, newest first
 * @param headMoves moves of main's head other than a commit on top of it, newest first
 * @param maintenance the table's maintenance plan as of {@code asOf} (its health against its
 *     policy, and the work it needs), or null when {@code maintenanceProblem} says why not
 * @param maintenanceProblem why the maintenance plan could not be made, or null
 */
public record ReportModel(
    String table,
    Instant asOf,
    ReportInputs inputs,
    String lateDataWindow,
    boolean hasWindow,
    List<SliceStatus> slices,
    Map<String, Integer> unplacedLoads,
    Long historyCutAt,
    List<SliceLoad> restoredFromExpiredHistory,
    List<TimelineSnapshot> snapshots,
    List<HeadMove> headMoves,
    MaintenancePlan maintenance,
    String maintenanceProblem) {

  public ReportModel {
    slices = List.copyOf(slices);
    unplacedLoads = java.util.Collections.unmodifiableMap(new TreeMap<>(unplacedLoads));
    restoredFromExpiredHistory = List.copyOf(restoredFromExpiredHistory);
    snapshots = List.copyOf(snapshots);
    headMoves = List.copyOf(headMoves);
  }

  /** Slices per state, every state present (zero when none), in the legend's order. */
  public Map<SliceState, Integer> counts() {
    Map<SliceState, Integer> counts = new EnumMap<>(SliceState.class);
    for (SliceState state : SliceState.values()) {
      counts.put(state, 0);
    }
    for (SliceStatus slice : slices) {
      counts.merge(slice.state(), 1, Integer::sum);
    }
    return counts;
  }

  /** Head moves back or aside: rollbacks (a move forward undoes one, or fast-forwards). */
  public long rollbacks() {
    return headMoves.stream().filter(m -> m.direction() != HeadMove.Direction.FORWARD).count();
  }

  /** Snapshots that undid a run ({@code floe.reverts}). */
  public long reverts() {
    return snapshots.stream().filter(s -> s.revertsRun() != null).count();
  }
}
