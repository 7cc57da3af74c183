package dev.floe.flink.maintain;

import dev.floe.catalog.maintain.plan.PlanItem;

/**
 * What {@code floe maintain --apply} did with one plan item.
 *
 * @param item the item
 * @param status what happened
 * @param exitCode 0, or the exit code of its failure
 * @param detail one line for the operator
 */
public record ItemOutcome(PlanItem item, Status status, int exitCode, String detail) {

  public enum Status {
    /** Committed (or files deleted). */
    DONE("done"),
    /** Ran and found nothing to change (e.g. the table changed since the plan). */
    NOTHING_TO_DO("nothing to do"),
    /** Failed; the table holds its old state for this item. */
    FAILED("failed"),
    /** Not started: outside the budget, or the timeout passed. A rerun picks it up. */
    NOT_STARTED("not started");

    private final String text;

    Status(String text) {
      this.text = text;
    }

    public String text() {
      return text;
    }
  }
}
