package dev.floe.catalog.spec;

/**
 * A difference between a spec and its table that {@code floe tables apply} will not make, and why.
 *
 * @param table the table, {@code namespace.table}
 * @param column the column concerned, or null when the refusal is about the whole table (e.g.
 *     repartitioning)
 * @param reason the full sentence for the operator, {@code Cannot <change>: <why> ...}
 * @param allowedBy the CLI option that allows the change (e.g. {@code --allow-drop-columns}), or
 *     null when no option does (the change would lose data or break readers)
 */
public record RefusedChange(String table, String column, String reason, String allowedBy) {

  public String describe() {
    return reason;
  }
}
