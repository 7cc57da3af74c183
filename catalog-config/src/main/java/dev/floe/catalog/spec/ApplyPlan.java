package dev.floe.catalog.spec;

import dev.floe.catalog.error.InvalidInputException;
import java.util.List;
import java.util.stream.Stream;

/** The plans of every table in one {@code floe tables apply}, in spec order. */
public record ApplyPlan(List<TablePlan> tables) {

  public ApplyPlan {
    tables = List.copyOf(tables);
  }

  /** Every change of every table, in the order they are applied. */
  public List<TableChange> changes() {
    return tables.stream().flatMap(table -> table.changes().stream()).toList();
  }

  /** Every refused change of every table. */
  public List<RefusedChange> refusals() {
    return tables.stream().flatMap(table -> table.refusals().stream()).toList();
  }

  /** True when every table already matches its spec. */
  public boolean isEmpty() {
    return tables.stream().allMatch(TablePlan::isEmpty);
  }

  public boolean hasRefusals() {
    return tables.stream().anyMatch(TablePlan::hasRefusals);
  }

  /** The plan as text: one line per change, then one per refusal. */
  public List<String> describe() {
    return Stream.concat(
            changes().stream().map(TableChange::describe),
            refusals().stream().map(refusal -> "refused: " + refusal.describe()))
        .toList();
  }

  /**
   * The error for a plan with refusals, on one line as every failure is: each refused change,
   * naming table, column, reason and the option that would allow it, separated by {@code "; "} (the
   * plan of {@code --dry-run} lists them one per line).
   */
  public InvalidInputException refusalError() {
    List<RefusedChange> refusals = refusals();
    StringBuilder message =
        new StringBuilder("Cannot apply table specs: ")
            .append(refusals.size())
            .append(refusals.size() == 1 ? " change is" : " changes are")
            .append(" refused, so no table was changed: ");
    message.append(String.join("; ", refusals.stream().map(RefusedChange::describe).toList()));
    return new InvalidInputException(message.toString());
  }
}
