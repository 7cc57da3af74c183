package dev.floe.flink.write;

import java.io.Serializable;
import java.util.List;
import java.util.StringJoiner;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/** Renders a row as {@code name=value, ...} for error messages (only ever on the failure path). */
public final class RowFormatter implements Serializable {
  private final List<String> names;
  private final RowData.FieldGetter[] getters;

  public RowFormatter(RowType rowType) {
    names = rowType.getFieldNames();
    getters = new RowData.FieldGetter[names.size()];
    for (int i = 0; i < getters.length; i++) {
      getters[i] = RowData.createFieldGetter(rowType.getTypeAt(i), i);
    }
  }

  public String format(RowData row) {
    StringJoiner joiner = new StringJoiner(", ", "{", "}");
    for (int i = 0; i < getters.length; i++) {
      joiner.add(names.get(i) + "=" + value(row, i));
    }
    return joiner.toString();
  }

  /** One column's value as text, {@code NULL} for null. */
  public String value(RowData row, int pos) {
    Object value = getters[pos].getFieldOrNull(row);
    return value == null ? "NULL" : value.toString();
  }
}
