package dev.floe.flink.write;

import dev.floe.catalog.error.CheckFailedException;
import dev.floe.catalog.lineage.OrcTimestamps;
import dev.floe.catalog.lineage.Utf8Strings;
import dev.floe.flink.row.RowDataHasher;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
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
 * Refuses, before it is written, a value the table's files cannot hold exactly, at any depth of the
 * row: a string that is not UTF-8 ({@link Utf8Strings}), in an ORC table a timestamp in the second
 * before the epoch ({@link OrcTimestamps}), and NULL in a required field, element, key or value
 * inside a column (top-level required columns are {@link RowGuard}'s and Flink's). {@link
 * DataFileWriters} puts it in front of every writer whose rows hold such a column; other writers
 * get none and pay nothing.
 */
public final class ValueGuard implements Serializable {
  private final String table;
  private final int[] strings;
  private final String[] stringNames;
  private final Check[] checks;

  /**
   * @param strings the positions of the top-level string columns (checked in a plain loop: the hot
   *     case)
   * @param checks the checks of every other column that needs one
   */
  private ValueGuard(String table, int[] strings, String[] stringNames, List<Check> checks) {
    this.table = table;
    this.strings = strings;
    this.stringNames = stringNames;
    this.checks = checks.toArray(Check[]::new);
  }

  /** The writer itself when the rows hold no column that needs a check. */
  static TaskWriter<RowData> wrap(Table table, RowType rowType, TaskWriter<RowData> writer) {
    return of(table.name(), rowType, OrcTimestamps.writesOrc(table))
        .<TaskWriter<RowData>>map(guard -> new Guarded(guard, writer))
        .orElse(writer);
  }

  /**
   * The guard of rows of {@code rowType} written into {@code table}; empty when no column needs a
   * check. {@link DataFileWriters} puts it in front of Floe's writers, {@code GuardedSinks} in
   * front of Iceberg's SQL sink.
   *
   * @param orc whether the table's files are written as ORC
   */
  public static Optional<ValueGuard> of(String table, RowType rowType, boolean orc) {
    List<Integer> strings = new ArrayList<>();
    List<Check> checks = new ArrayList<>();
    for (int pos = 0; pos < rowType.getFieldCount(); pos++) {
      Check check = Check.of(rowType.getFieldNames().get(pos), rowType.getTypeAt(pos), orc);
      if (check instanceof Utf8) {
        strings.add(pos);
      } else if (check != null) {
        checks.add(new Field(pos, check));
      }
    }
    if (strings.isEmpty() && checks.isEmpty()) {
      return Optional.empty();
    }
    int[] positions = strings.stream().mapToInt(Integer::intValue).toArray();
    String[] names =
        strings.stream().map(pos -> rowType.getFieldNames().get(pos)).toArray(String[]::new);
    return Optional.of(new ValueGuard(table, positions, names, checks));
  }

  /** The writer behind a guard, or {@code writer} itself: which writer writes the files. */
  static TaskWriter<RowData> unwrap(TaskWriter<RowData> writer) {
    return writer instanceof Guarded guarded ? guarded.writer : writer;
  }

  /**
   * @throws dev.floe.catalog.error.CheckFailedException at the first value the files cannot hold
   *     exactly (exit 3)
   */
  public void check(RowData row) {
    for (int i = 0; i < strings.length; i++) {
      int pos = strings[i];
      if (!row.isNullAt(pos)) {
        Utf8.require(row.getString(pos), stringNames[i], table);
      }
    }
    for (Check check : checks) {
      check.check(row, 0, table);
    }
  }

  /** Checks the value at one position of a row or an array, when not null. */
  private interface Check extends Serializable {
    /** Checks {@code container}'s value at {@code pos} (a RowData or an ArrayData). */
    void check(Object container, int pos, String table);

    /** Whether {@link #check} also takes a NULL element (to refuse it); else NULL is skipped. */
    default boolean checksNull() {
      return false;
    }

    /**
     * The check of a value of {@code type} named {@code column}, or null when none can fail.
     *
     * @param orc whether the table is written as ORC
     */
    static Check of(String column, LogicalType type, boolean orc) {
      switch (type.getTypeRoot()) {
        case CHAR:
        case VARCHAR:
          return new Utf8(column);
        case TIMESTAMP_WITHOUT_TIME_ZONE:
          return orc ? new Timestamp(column, ((TimestampType) type).getPrecision(), false) : null;
        case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
          return orc
              ? new Timestamp(column, ((LocalZonedTimestampType) type).getPrecision(), true)
              : null;
        case ROW:
          {
            RowType row = (RowType) type;
            List<Check> fields = new ArrayList<>();
            for (int i = 0; i < row.getFieldCount(); i++) {
              String name = column + "." + row.getFieldNames().get(i);
              Check field = of(name, row.getTypeAt(i), orc);
              if (!row.getTypeAt(i).isNullable()) {
                fields.add(new RequiredField(i, name, field));
              } else if (field != null) {
                fields.add(new Field(i, field));
              }
            }
            return fields.isEmpty() ? null : new Nested(row.getFieldCount(), fields);
          }
        case ARRAY:
          {
            LogicalType elementType = ((ArrayType) type).getElementType();
            Check element = of(column + ".element", elementType, orc);
            Check elements = required(element, column + ".element", elementType);
            return elements == null ? null : new Elements(elements);
          }
        case MAP:
          {
            MapType map = (MapType) type;
            Check key =
                required(
                    of(column + ".key", map.getKeyType(), orc), column + ".key", map.getKeyType());
            Check value =
                required(
                    of(column + ".value", map.getValueType(), orc),
                    column + ".value",
                    map.getValueType());
            return key == null && value == null ? null : new Entries(key, value);
          }
        default:
          return null;
      }
    }
  }

  /**
   * {@code check} of an array element or map entry of {@code type}, refusing NULL first when the
   * type is NOT NULL (a required element, value or key of the table); null when nothing can fail.
   */
  private static Check required(Check check, String column, LogicalType type) {
    return type.isNullable() ? check : new RequiredElement(column, check);
  }

  /**
   * A required field inside a struct: NULL is refused (Flink's own NOT NULL check covers top-level
   * columns only, and Iceberg's writers fail on it without naming the field), then its value is
   * checked.
   */
  private record RequiredField(int pos, String column, Check value) implements Check {
    @Override
    public void check(Object container, int ignored, String table) {
      RowData row = (RowData) container;
      if (row.isNullAt(pos)) {
        throw nullRefusal(column, table);
      }
      if (value != null) {
        value.check(row, pos, table);
      }
    }
  }

  /** A required array element, map key or map value: as {@link RequiredField}. */
  private record RequiredElement(String column, Check value) implements Check {
    @Override
    public boolean checksNull() {
      return true;
    }

    @Override
    public void check(Object container, int pos, String table) {
      if (((ArrayData) container).isNullAt(pos)) {
        throw nullRefusal(column, table);
      }
      if (value != null) {
        value.check(container, pos, table);
      }
    }
  }

  private static CheckFailedException nullRefusal(String column, String table) {
    return new CheckFailedException(
        String.format(
            "Cannot write NULL into required field %s of %s: the table declares it NOT NULL",
            column, table));
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

  /** A string's bytes are UTF-8, read in place when they lie in one heap segment. */
  private record Utf8(String column) implements Check {
    @Override
    public void check(Object container, int pos, String table) {
      require(
          container instanceof RowData row
              ? row.getString(pos)
              : ((ArrayData) container).getString(pos),
          column,
          table);
    }

    static void require(StringData value, String column, String table) {
      if (value instanceof BinaryStringData binary) {
        binary.ensureMaterialized();
        MemorySegment[] segments = binary.getSegments();
        if (segments.length == 1 && !segments[0].isOffHeap()) {
          byte[] bytes = segments[0].getArray();
          int offset = binary.getOffset();
          int length = binary.getSizeInBytes();
          if (!Utf8Strings.wellFormed(bytes, offset, length)) {
            throw Utf8Strings.refusal(table, column, bytes, offset, length);
          }
          return;
        }
      }
      byte[] bytes = value.toBytes();
      if (!Utf8Strings.wellFormed(bytes, 0, bytes.length)) {
        throw Utf8Strings.refusal(table, column, bytes, 0, bytes.length);
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
      long micros = RowDataHasher.micros(value);
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
    boolean checksNull = check.checksNull();
    for (int i = 0; i < array.size(); i++) {
      if (checksNull || !array.isNullAt(i)) {
        check.check(array, i, table);
      }
    }
  }

  /** The writer behind the guard. */
  private static final class Guarded implements TaskWriter<RowData> {
    private final ValueGuard guard;
    private final TaskWriter<RowData> writer;

    Guarded(ValueGuard guard, TaskWriter<RowData> writer) {
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
