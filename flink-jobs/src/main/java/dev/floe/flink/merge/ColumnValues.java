package dev.floe.flink.merge;

import dev.floe.flink.row.RowDataHasher;
import java.io.Serializable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.iceberg.types.Comparators;

/**
 * Reads one column of a {@link RowData} as the Java value Iceberg uses for the same column (Integer
 * for int and date, Long for long and timestamps in microseconds, BigDecimal, String, Boolean), so
 * that ordering values compare correctly and key values compare with Iceberg's file bounds.
 */
final class ColumnValues {

  @FunctionalInterface
  interface Reader extends Serializable {
    /** The value at {@code pos}, or null. */
    Comparable<?> read(RowData row);
  }

  private ColumnValues() {}

  static Reader reader(LogicalType type, int pos) {
    Reader value =
        switch (type.getTypeRoot()) {
          case INTEGER, DATE -> row -> row.getInt(pos);
          case BIGINT -> row -> row.getLong(pos);
          case BOOLEAN -> row -> row.getBoolean(pos);
          case CHAR, VARCHAR -> row -> row.getString(pos).toString();
          case DECIMAL -> {
            DecimalType decimal = (DecimalType) type;
            yield row ->
                row.getDecimal(pos, decimal.getPrecision(), decimal.getScale()).toBigDecimal();
          }
          case TIMESTAMP_WITHOUT_TIME_ZONE -> {
            int precision = ((TimestampType) type).getPrecision();
            yield row -> RowDataHasher.micros(row.getTimestamp(pos, precision));
          }
          case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
            int precision = ((LocalZonedTimestampType) type).getPrecision();
            yield row -> RowDataHasher.micros(row.getTimestamp(pos, precision));
          }
          default ->
              throw new IllegalArgumentException(
                  "Cannot compare values of type " + type + ": not supported");
        };
    return row -> row.isNullAt(pos) ? null : value.read(row);
  }

  /**
   * Compares two non-null values read by the same reader. Strings compare by code point, as Flink
   * SQL at run time, Spark and Iceberg's own comparators do; Java's {@code compareTo} compares
   * UTF-16 units and puts U+E000..U+FFFF after every supplementary character.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static int compare(Comparable<?> a, Comparable<?> b) {
    if (a instanceof CharSequence left && b instanceof CharSequence right) {
      return Comparators.charSequences().compare(left, right);
    }
    return ((Comparable) a).compareTo(b);
  }
}
