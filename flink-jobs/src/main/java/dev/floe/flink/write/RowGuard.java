package dev.floe.flink.write;

import dev.floe.catalog.error.CheckFailedException;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.Slice;
import dev.floe.flink.row.RowFormatter;
import java.io.Serializable;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Stops the job at the first row that would land outside the run's slice (someone else's
 * partition), put NULL into a required column, or carry a NULL key (merge and insert-if-absent
 * cannot match such a row to anything). Nothing is committed then.
 */
public final class RowGuard implements Serializable {
  private final String target;
  private final Slice slice;
  private final Slice.Bounds bounds;
  private final SliceColumn column;
  private final int[] requiredPositions;
  private final int[] keyPositions;
  private final RowFormatter formatter;
  private final List<String> names;

  /**
   * @param target the target's name, for messages
   * @param scope the run's scope; rows are guarded against its slice, if any
   * @param rowType the target's row type
   * @param requiredColumns the target's required columns
   * @param keyColumns the key columns of a keyed mode, else empty
   */
  public RowGuard(
      String target,
      Scope scope,
      RowType rowType,
      List<String> requiredColumns,
      List<String> keyColumns) {
    this.target = target;
    this.slice = scope.slice();
    this.bounds = slice == null ? null : slice.bounds(); // not converted again per row
    this.column = slice == null ? null : SliceColumn.of(slice, rowType);
    this.requiredPositions = requiredColumns.stream().mapToInt(rowType::getFieldIndex).toArray();
    this.keyPositions = keyColumns.stream().mapToInt(rowType::getFieldIndex).toArray();
    this.formatter = new RowFormatter(rowType);
    this.names = List.copyOf(rowType.getFieldNames());
  }

  public void check(RowData row) {
    for (int pos : keyPositions) {
      if (row.isNullAt(pos)) {
        throw new CheckFailedException(
            String.format(
                "Cannot match a row with a NULL key (%s) against %s: row %s; filter or fix such"
                    + " rows in the query",
                names.get(pos), target, formatter.format(row)));
      }
    }
    for (int pos : requiredPositions) {
      if (row.isNullAt(pos)) {
        throw new CheckFailedException(
            String.format(
                "Cannot write NULL into required column %s of %s: row %s",
                names.get(pos), target, formatter.format(row)));
      }
    }
    if (slice != null && (column.isNullAt(row) || !bounds.contains(column.valueOf(row)))) {
      throw new CheckFailedException(
          String.format(
              "Cannot commit slice %s of %s: a row lies outside the slice (%s=%s): %s; filter the"
                  + " query with :slice_start and :slice_end",
              slice.label(),
              target,
              slice.column(),
              formatter.value(row, column.position()),
              formatter.format(row)));
    }
  }
}
