package dev.floe.flink.maintain;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.maintain.plan.MaintenancePlan;
import java.util.List;

/**
 * What {@code floe maintain --apply} did, item by item in plan order.
 *
 * @param plan the plan it worked through
 * @param outcomes one per plan item
 * @param elapsedMillis wall time of the apply (planning excluded)
 */
public record ApplyResult(MaintenancePlan plan, List<ItemOutcome> outcomes, long elapsedMillis) {

  public ApplyResult {
    outcomes = List.copyOf(outcomes);
  }

  /**
   * 0 when nothing failed (items outside the budget are not failures: a rerun does them); else the
   * highest exit code of a failed item, 6 when the timeout left items not started.
   */
  public int exitCode() {
    return outcomes.stream()
        .filter(
            o ->
                o.status() == ItemOutcome.Status.FAILED
                    || (o.status() == ItemOutcome.Status.NOT_STARTED && o.exitCode() != 0))
        .mapToInt(o -> o.exitCode() == 0 ? ExitCodes.UNEXPECTED : o.exitCode())
        .max()
        .orElse(ExitCodes.OK);
  }

  public long count(ItemOutcome.Status status) {
    return outcomes.stream().filter(o -> o.status() == status).count();
  }
}
