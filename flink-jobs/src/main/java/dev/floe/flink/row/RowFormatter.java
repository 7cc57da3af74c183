package dev.floe.flink.row;

import dev.floe.catalog.error.Shown;
import java.io.Serializable;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.HexFormat;
import java.util.List;
import java.util.StringJoiner;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * Renders values as people write them ({@code 2026-10-04}, not Flink's internal day number): for
 * error messages, and for comparing against {@code accepted_values} from a manifest. The row and
 * column forms are for messages, so each value in them is {@link Shown}: on one line and cut after
 * {@value Shown#MAX_CHARS} characters; {@link #value} is exact.
 */
public final class RowFormatter implements Serializable {
  private final List<String> names;
  private final List<LogicalType> types;
  private final RowData.FieldGetter[] getters;

  public RowFormatter(RowType rowType) {
    names = rowType.getFieldNames();
    types = rowType.getChildren();
    getters = new RowData.FieldGetter[names.size()];
    for (int i = 0; i < getters.length; i++) {
      getters[i] = RowData.createFieldGetter(rowType.getTypeAt(i), i);
    }
  }

  /** The row as {@code {name=value, ...}}, for a message. */
  public String format(RowData row) {
    StringJoiner joiner = new StringJoiner(", ", "{", "}");
    for (int i = 0; i < getters.length; i++) {
      joiner.add(names.get(i) + "=" + Shown.value(value(row, i)));
    }
    return joiner.toString();
  }

  /** Some columns as {@code name=value, ...}, e.g. a key: {@code customer_id=10}, for a message. */
  public String columns(RowData row, List<String> columns) {
    StringJoiner joiner = new StringJoiner(", ");
    for (String column : columns) {
      joiner.add(column + "=" + Shown.value(value(row, names.indexOf(column))));
    }
    return joiner.toString();
  }

  /** One column's value as text, {@code NULL} for null. */
  public String value(RowData row, int pos) {
    Object value = getters[pos].getFieldOrNull(row);
    if (value == null) {
      return "NULL";
    }
    LogicalTypeRoot root = types.get(pos).getTypeRoot();
    return switch (root) {
      case DATE -> LocalDate.ofEpochDay((Integer) value).toString();
      case TIME_WITHOUT_TIME_ZONE -> LocalTime.ofNanoOfDay((Integer) value * 1_000_000L).toString();
      case TIMESTAMP_WITHOUT_TIME_ZONE -> ((TimestampData) value).toLocalDateTime().toString();
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> ((TimestampData) value).toInstant().toString();
      case BINARY, VARBINARY -> HexFormat.of().formatHex((byte[]) value);
      default -> value.toString();
    };
  }
}
