package dev.floe.catalog.spec;

import java.util.List;

/**
 * What {@code floe tables apply} would do to one table: the changes in the order they are applied,
 * and the differences it refuses to apply. Both empty means the table already matches its spec.
 */
public record TablePlan(String table, List<TableChange> changes, List<RefusedChange> refusals) {

  public TablePlan {
    changes = List.copyOf(changes);
    refusals = List.copyOf(refusals);
  }

  /** True when the table already matches its spec: applying it changes nothing. */
  public boolean isEmpty() {
    return changes.isEmpty() && refusals.isEmpty();
  }

  public boolean hasRefusals() {
    return !refusals.isEmpty();
  }
}
