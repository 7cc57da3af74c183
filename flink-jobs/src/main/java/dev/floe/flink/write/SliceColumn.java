package dev.floe.flink.write;

import dev.floe.catalog.slice.Slice;
import dev.floe.flink.row.RowDataHasher;
import java.io.Serializable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Reads a row's slice column in the representation {@link Slice.Bounds} holds: days since the epoch
 * for a {@code date}, microseconds since the epoch for a timestamp. The one place both the row
 * guard and the slice router read it.
 *
 * @param position the column's position in the row type
 * @param kind the column's temporal type
 * @param precision the timestamp precision Flink stores the column with (0 for a date)
 */
record SliceColumn(int position, Slice.ColumnKind kind, int precision) implements Serializable {

  /** The slice's column in {@code rowType}. */
  static SliceColumn of(Slice slice, RowType rowType) {
    int position = rowType.getFieldIndex(slice.column());
    return new SliceColumn(position, slice.kind(), precision(rowType.getTypeAt(position)));
  }

  boolean isNullAt(RowData row) {
    return row.isNullAt(position);
  }

  /** The column's value in the row, which must not be NULL ({@link #isNullAt}). */
  long valueOf(RowData row) {
    return switch (kind) {
      case DATE -> row.getInt(position);
      case TIMESTAMP, TIMESTAMPTZ -> RowDataHasher.micros(row.getTimestamp(position, precision));
    };
  }

  private static int precision(LogicalType type) {
    if (type instanceof TimestampType t) {
      return t.getPrecision();
    } else if (type instanceof LocalZonedTimestampType t) {
      return t.getPrecision();
    }
    return 0;
  }
}
