package dev.floe.catalog.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Rollback, revert and publish plans list partitions in path order, whatever order they were found
 * in: a dry run and the real run print the same lines and JSON in the same order.
 */
class PlanOrderTest {
  private static final List<String> SORTED =
      List.of("d=2026-10-01", "d=2026-10-02", "d=2026-10-03", "d=2026-10-04", "d=2026-10-05");

  @Test
  void aRollbackPlanKeepsItsPartitionsInPathOrder() {
    RollbackPlan plan =
        new RollbackPlan("s.t", 2L, 1L, "tag", true, reversed(), reversed(), reversedSet());

    assertThat(plan.rowsBefore().keySet()).containsExactlyElementsOf(SORTED);
    assertThat(plan.rowsAfter().keySet()).containsExactlyElementsOf(SORTED);
    assertThat(plan.changedPartitions()).containsExactlyElementsOf(SORTED);
  }

  @Test
  void aRevertPlanKeepsItsPartitionsInPathOrder() {
    RevertPlan plan =
        new RevertPlan(
            "s.t",
            "r1",
            "job",
            2L,
            1L,
            "*",
            "region",
            3L,
            List.of(),
            false,
            List.of(),
            List.of(),
            reversed(),
            reversed(),
            null,
            "r2",
            null);

    assertThat(plan.rowsBefore().keySet()).containsExactlyElementsOf(SORTED);
    assertThat(plan.rowsAfter().keySet()).containsExactlyElementsOf(SORTED);
  }

  @Test
  void aPublishPlanKeepsItsPartitionsInPathOrder() {
    Map<String, PublishPlan.RowChange> changes = new LinkedHashMap<>();
    reversed()
        .forEach((partition, rows) -> changes.put(partition, new PublishPlan.RowChange(0, rows)));

    PublishPlan plan =
        new PublishPlan(
            "s.t", "r1", "audit-r1", PublishPlan.Method.FAST_FORWARD, 2L, 1L, "*", changes);

    assertThat(plan.changes().keySet()).containsExactlyElementsOf(SORTED);
  }

  private static Map<String, Long> reversed() {
    Map<String, Long> rows = new LinkedHashMap<>();
    for (int i = SORTED.size() - 1; i >= 0; i--) {
      rows.put(SORTED.get(i), (long) i);
    }
    return rows;
  }

  private static Set<String> reversedSet() {
    return new LinkedHashSet<>(reversed().keySet());
  }
}
