package dev.floe.catalog.maintain.plan;

/**
 * Work the plan would have done but leaves alone, and why (an open slice, a table that cannot be
 * read, a slice compaction cannot address).
 *
 * @param item what would have been done
 * @param reason why not, one line
 */
public record LeftOut(PlanItem item, String reason) {}
