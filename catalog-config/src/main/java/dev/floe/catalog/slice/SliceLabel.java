package dev.floe.catalog.slice;

import dev.floe.catalog.error.InvalidInputException;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Reads a scope back from the label lineage recorded for it ({@link Slice#label()}, or {@value
 * Scope#WHOLE_TABLE_LABEL}), so an operation on a past run (revert, publish) works on exactly the
 * rows that run owned. The column's type comes from the table; the unit from the interval's length.
 * Unlike {@link SliceResolver} it does not insist the slice fits today's partition spec: the run's
 * slice is a fact of history, and whether its files can be cut out is checked file by file.
 */
public final class SliceLabel {
  private static final Pattern LABEL = Pattern.compile("(.+)=\\[([^,]+),([^)]+)\\)");

  private SliceLabel() {}

  /**
   * @param tableName the table's name, for messages
   * @param table the table the label was recorded on
   * @param label the recorded label; null (a commit that recorded none) means the whole table
   * @throws InvalidInputException when the label cannot be read, names an unknown column, or is not
   *     one hour, day, month or year long
   */
  public static Scope parse(String tableName, Table table, String label) {
    if (label == null || Scope.WHOLE_TABLE_LABEL.equals(label)) {
      return Scope.wholeTable();
    }
    Matcher m = LABEL.matcher(label);
    if (!m.matches()) {
      throw InvalidInputException.of(
          "Cannot read slice label '%s' of %s: expected column=[start,end)", label, tableName);
    }
    String column = m.group(1);
    Types.NestedField field = table.schema().findField(column);
    if (field == null) {
      throw InvalidInputException.of(
          "Cannot read slice label '%s' of %s: the table has no column %s any more",
          label, tableName, column);
    }
    Slice.ColumnKind kind = kindOf(field.type());
    if (kind == null) {
      throw InvalidInputException.of(
          "Cannot read slice label '%s' of %s: column %s is %s, not a date or timestamp",
          label, tableName, column, field.type());
    }
    LocalDateTime start;
    LocalDateTime end;
    try {
      start = bound(m.group(2));
      end = bound(m.group(3));
    } catch (DateTimeException e) {
      throw InvalidInputException.of(
          "Cannot read slice label '%s' of %s: %s", label, tableName, e.getMessage());
    }
    for (SliceUnit unit : SliceUnit.values()) {
      if (unit.next(start).equals(end)) {
        return Scope.of(new Slice(column, kind, unit, start, end));
      }
    }
    throw InvalidInputException.of(
        "Cannot read slice label '%s' of %s: it is not one hour, day, month or year long",
        label, tableName);
  }

  private static LocalDateTime bound(String text) {
    return text.contains("T") ? LocalDateTime.parse(text) : LocalDate.parse(text).atStartOfDay();
  }

  private static Slice.ColumnKind kindOf(Type type) {
    if (type.typeId() == Type.TypeID.DATE) {
      return Slice.ColumnKind.DATE;
    }
    if (type.typeId() == Type.TypeID.TIMESTAMP) {
      return ((Types.TimestampType) type).shouldAdjustToUTC()
          ? Slice.ColumnKind.TIMESTAMPTZ
          : Slice.ColumnKind.TIMESTAMP;
    }
    return null;
  }
}
