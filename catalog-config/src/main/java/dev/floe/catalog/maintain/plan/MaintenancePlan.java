package dev.floe.catalog.maintain.plan;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A ranked maintenance plan for a set of tables: what {@code floe maintain --plan} prints and
 * {@code floe maintain --apply} works through, highest rank first.
 *
 * @param asOf the instant the plan judged retention, file ages and late-data windows by
 * @param items the work to do, ranked (first = most files removed)
 * @param leftOut work left alone, with the reason (open slices, slices compaction cannot address)
 * @param health every table read, in name order
 * @param unreadable tables that could not be read, with the one-line reason
 * @param elapsedMillis how long planning took
 */
public record MaintenancePlan(
    Instant asOf,
    List<PlanItem> items,
    List<LeftOut> leftOut,
    List<TableHealth> health,
    Map<String, String> unreadable,
    long elapsedMillis) {

  public MaintenancePlan {
    items = List.copyOf(items);
    leftOut = List.copyOf(leftOut);
    health = List.copyOf(health);
    unreadable = Map.copyOf(unreadable);
  }

  /** True when nothing needs doing. */
  public boolean isEmpty() {
    return items.isEmpty();
  }
}
