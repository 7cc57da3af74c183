package dev.floe.flink.write;

import dev.floe.catalog.slice.Slice;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Finds which of several consecutive slices a row belongs to, by its slice column: the routing of a
 * job that loads several slices at once ({@link SlicesWriterOperator}). The slices must follow each
 * other without a gap, so their union is one interval; a row outside it is the row guard's to
 * refuse, before the router sees it.
 */
public final class SliceRouter implements Serializable {
  private final SliceColumn column;
  private final long[] starts;
  private final long end;

  /**
   * @param slices consecutive slices of one column, each starting where the one before ended
   * @param rowType the target's row type
   */
  public SliceRouter(List<Slice> slices, RowType rowType) {
    if (slices.isEmpty()) {
      throw new IllegalArgumentException("Cannot route rows: no slices");
    }
    for (int i = 1; i < slices.size(); i++) {
      Slice before = slices.get(i - 1);
      Slice slice = slices.get(i);
      if (!slice.column().equals(before.column()) || !slice.start().equals(before.end())) {
        throw new IllegalArgumentException(
            "Cannot route rows to slices that do not follow each other: "
                + before.label()
                + " then "
                + slice.label());
      }
    }
    this.column = SliceColumn.of(slices.get(0), rowType);
    this.starts = slices.stream().mapToLong(Slice::startInternal).toArray();
    this.end = slices.get(slices.size() - 1).endInternal();
  }

  /**
   * The index of the slice holding the row.
   *
   * @throws IllegalStateException when the row's slice column is NULL or outside every slice (the
   *     row guard refuses such a row first)
   */
  public int indexOf(RowData row) {
    long value = column.isNullAt(row) ? Long.MIN_VALUE : column.valueOf(row);
    if (column.isNullAt(row) || value < starts[0] || value >= end) {
      throw new IllegalStateException(
          "Cannot route a row to a slice: its slice column (position "
              + column.position()
              + ") lies outside all of them");
    }
    int found = Arrays.binarySearch(starts, value);
    return found >= 0 ? found : -found - 2;
  }

  /** The number of slices. */
  public int size() {
    return starts.length;
  }
}
