package dev.floe.catalog.slice;

import dev.floe.catalog.error.InvalidInputException;
import org.apache.iceberg.Table;

/**
 * Reads a scope back from the label lineage recorded for it ({@link Slice#label()}, or {@value
 * Scope#WHOLE_TABLE_LABEL}), so an operation on a past run (revert, publish) works on exactly the
 * rows that run owned. The column's type comes from the table; the unit from the interval's length.
 * Unlike {@link SliceResolver} it does not insist the slice fits today's partition spec: the run's
 * slice is a fact of history, and whether its files can be cut out is checked file by file.
 */
public final class SliceLabel {
  private SliceLabel() {}

  /**
   * @param tableName the table's name, for messages
   * @param table the table the label was recorded on
   * @param label the recorded label; null (a commit that recorded none) means the whole table
   * @throws InvalidInputException when the label cannot be read, names an unknown column, or is not
   *     one hour, day, month or year long
   */
  public static Scope parse(String tableName, Table table, String label) {
    if (label == null) {
      return Scope.wholeTable();
    }
    return Scope.fromLabel(label, table.schema())
        .orElseThrow(
            () ->
                InvalidInputException.of(
                    "Cannot read slice label '%s' of %s: expected column=[start,end) on a date or"
                        + " timestamp column the table still has, one hour, day, month or year"
                        + " long",
                    label, tableName));
  }
}
