package dev.floe.flink.write;

import dev.floe.catalog.lineage.OrcTimestamps;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.WriteResult;

/**
 * Refuses, before it is written, a timestamp an ORC file cannot store ({@link OrcTimestamps}), at
 * any depth of the row. {@link DataFileWriters} puts it in front of every writer of an ORC table
 * whose rows hold a timestamp; other writers get none and pay nothing.
 */
final class OrcTimestampGuard implements Serializable {
  private final String table;
  private final List<Check> checks;

  private OrcTimestampGuard(String table, List<Check> checks) {
    this.table = table;
    this.checks = List.copyOf(checks);
  }

  /** The writer itself when {@code table} is not written as ORC or its rows hold no timestamp. */
  static TaskWriter<RowData> wrap(Table table, RowType rowType, TaskWriter<RowData> writer) {
    if (!OrcTimestamps.writesOrc(table)) {
      return writer;
    }
    List<Check> checks = new ArrayList<>();
    for (int pos = 0; pos < rowType.getFieldCount(); pos++) {
      Check check = Check.of(rowType.getFieldNames().get(pos), rowType.getTypeAt(pos));
      if (check != null) {
        checks.add(new Field(pos, check));
      }
    }
    return checks.isEmpty()
        ? writer
        : new Guarded(new OrcTimestampGuard(table.name(), checks), writer);
  }

  void check(RowData row) {
    for (Check check : checks) {
      check.check(row, 0, table);
    }
  }

  /** Checks the value at one position of a row or an array, when not null. */
  private interface Check extends Serializable {
    /** Checks {@code container}'s value at {@code pos} (a RowData or an ArrayData). */
    void check(Object container, int pos, String table);

    /** The check of a value of {@code type} named {@code column}, or null when none can fail. */
    static Check of(String column, LogicalType type) {
      switch (type.getTypeRoot()) {
        case TIMESTAMP_WITHOUT_TIME_ZONE:
          return new Timestamp(column, ((TimestampType) type).getPrecision(), false);
        case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
          return new Timestamp(column, ((LocalZonedTimestampType) type).getPrecision(), true);
        case ROW:
          {
            RowType row = (RowType) type;
            List<Check> fields = new ArrayList<>();
            for (int i = 0; i < row.getFieldCount(); i++) {
              Check field = of(column + "." + row.getFieldNames().get(i), row.getTypeAt(i));
              if (field != null) {
                fields.add(new Field(i, field));
              }
            }
            return fields.isEmpty() ? null : new Nested(row.getFieldCount(), fields);
          }
        case ARRAY:
          {
            Check element = of(column + ".element", ((ArrayType) type).getElementType());
            return element == null ? null : new Elements(element);
          }
        case MAP:
          {
            MapType map = (MapType) type;
            Check key = of(column + ".key", map.getKeyType());
            Check value = of(column + ".value", map.getValueType());
            return key == null && value == null ? null : new Entries(key, value);
          }
        default:
          return null;
      }
    }
  }

  /** A field of a row: skips NULL, then checks the field's value. */
  private record Field(int pos, Check value) implements Check {
    @Override
    public void check(Object container, int ignored, String table) {
      RowData row = (RowData) container;
      if (!row.isNullAt(pos)) {
        value.check(row, pos, table);
      }
    }
  }

  private record Timestamp(String column, int precision, boolean withZone) implements Check {
    @Override
    public void check(Object container, int pos, String table) {
      TimestampData value =
          container instanceof RowData row
              ? row.getTimestamp(pos, precision)
              : ((ArrayData) container).getTimestamp(pos, precision);
      long micros = value.getMillisecond() * 1_000L + value.getNanoOfMillisecond() / 1_000;
      if (!OrcTimestamps.storable(micros)) {
        throw OrcTimestamps.refusal(table, column, micros, withZone);
      }
    }
  }

  private record Nested(int arity, List<Check> fields) implements Check {
    @Override
    public void check(Object container, int pos, String table) {
      RowData nested =
          container instanceof RowData row
              ? row.getRow(pos, arity)
              : ((ArrayData) container).getRow(pos, arity);
      for (Check field : fields) {
        field.check(nested, 0, table);
      }
    }
  }

  /** An array's elements. */
  private record Elements(Check element) implements Check {
    @Override
    public void check(Object container, int pos, String table) {
      each(
          container instanceof RowData row
              ? row.getArray(pos)
              : ((ArrayData) container).getArray(pos),
          element,
          table);
    }
  }

  /** A map's keys and values; either check may be null. */
  private record Entries(Check key, Check value) implements Check {
    @Override
    public void check(Object container, int pos, String table) {
      MapData map =
          container instanceof RowData row ? row.getMap(pos) : ((ArrayData) container).getMap(pos);
      each(map.keyArray(), key, table);
      each(map.valueArray(), value, table);
    }
  }

  private static void each(ArrayData array, Check check, String table) {
    if (check == null) {
      return;
    }
    for (int i = 0; i < array.size(); i++) {
      if (!array.isNullAt(i)) {
        check.check(array, i, table);
      }
    }
  }

  /** The writer behind the guard. */
  private static final class Guarded implements TaskWriter<RowData> {
    private final OrcTimestampGuard guard;
    private final TaskWriter<RowData> writer;

    Guarded(OrcTimestampGuard guard, TaskWriter<RowData> writer) {
      this.guard = guard;
      this.writer = writer;
    }

    @Override
    public void write(RowData row) throws IOException {
      guard.check(row);
      writer.write(row);
    }

    @Override
    public void abort() throws IOException {
      writer.abort();
    }

    @Override
    public WriteResult complete() throws IOException {
      return writer.complete();
    }

    @Override
    public void close() throws IOException {
      writer.close();
    }
  }
}
