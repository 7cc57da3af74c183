package dev.floe.flink.write;

import dev.floe.catalog.error.CheckFailedException;
import dev.floe.catalog.slice.Slice;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Stops the job at the first row that would land outside the run's slice (someone else's partition)
 * or put NULL into a required column. Nothing is committed then.
 */
public final class RowGuard implements Serializable {
  private final String target;
  private final Slice slice;
  private final int slicePos;
  private final int timestampPrecision;
  private final int[] requiredPositions;
  private final RowFormatter formatter;
  private final List<String> names;

  public RowGuard(String target, Slice slice, RowType rowType, List<String> requiredColumns) {
    this.target = target;
    this.slice = slice;
    this.slicePos = rowType.getFieldIndex(slice.column());
    this.timestampPrecision = precision(rowType.getTypeAt(slicePos));
    List<Integer> positions = new ArrayList<>();
    for (String column : requiredColumns) {
      positions.add(rowType.getFieldIndex(column));
    }
    this.requiredPositions = positions.stream().mapToInt(Integer::intValue).toArray();
    this.formatter = new RowFormatter(rowType);
    this.names = new ArrayList<>(rowType.getFieldNames());
  }

  public void check(RowData row) {
    for (int pos : requiredPositions) {
      if (row.isNullAt(pos)) {
        throw new CheckFailedException(
            String.format(
                "Cannot write NULL into required column %s of %s: row %s",
                names.get(pos), target, formatter.format(row)));
      }
    }
    if (row.isNullAt(slicePos) || !slice.contains(sliceValue(row))) {
      throw new CheckFailedException(
          String.format(
              "Cannot commit slice %s of %s: a row lies outside the slice (%s=%s): %s; filter the"
                  + " query with :slice_start and :slice_end",
              slice.label(),
              target,
              slice.column(),
              formatter.value(row, slicePos),
              formatter.format(row)));
    }
  }

  private long sliceValue(RowData row) {
    return switch (slice.kind()) {
      case DATE -> row.getInt(slicePos);
      case TIMESTAMP, TIMESTAMPTZ ->
          RowDataHasher.micros(row.getTimestamp(slicePos, timestampPrecision));
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
