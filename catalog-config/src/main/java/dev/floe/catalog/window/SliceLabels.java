package dev.floe.catalog.window;

import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceUnit;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Reads a slice back from the label lineage recorded, e.g. {@code
 * order_date=[2026-10-03,2026-10-04)}. The label carries the column and the bounds; the unit
 * follows from the bounds and the column's type from the schema the slice is used with.
 */
public final class SliceLabels {
  private static final Pattern LABEL = Pattern.compile("(.+)=\\[([^,]+),([^)]+)\\)");

  private SliceLabels() {}

  /**
   * @param label a lineage slice label
   * @param schema the schema whose column the slice is cut on (a target or a source table's)
   * @return the slice, or empty for the whole-table label, an unreadable label, bounds that are not
   *     one hour, day, month or year apart, or a column that is missing or not a date or timestamp
   */
  public static Optional<Slice> parse(String label, Schema schema) {
    Matcher m = LABEL.matcher(label == null ? "" : label);
    if (!m.matches()) {
      return Optional.empty();
    }
    Optional<Slice.ColumnKind> kind = kind(schema, m.group(1));
    if (kind.isEmpty()) {
      return Optional.empty();
    }
    try {
      LocalDateTime start = bound(m.group(2));
      LocalDateTime end = bound(m.group(3));
      for (SliceUnit unit : SliceUnit.values()) {
        if (unit.next(start).equals(end)) {
          return Optional.of(new Slice(m.group(1), kind.get(), unit, start, end));
        }
      }
    } catch (DateTimeException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }

  /** The same interval on the same-named column of another schema, e.g. a source table's. */
  public static Optional<Slice> onSchema(Slice slice, Schema schema) {
    return kind(schema, slice.column())
        .map(kind -> new Slice(slice.column(), kind, slice.unit(), slice.start(), slice.end()));
  }

  private static Optional<Slice.ColumnKind> kind(Schema schema, String column) {
    Types.NestedField field = schema.findField(column);
    if (field == null) {
      return Optional.empty();
    }
    if (field.type().typeId() == Type.TypeID.DATE) {
      return Optional.of(Slice.ColumnKind.DATE);
    }
    if (field.type().typeId() == Type.TypeID.TIMESTAMP) {
      return Optional.of(
          ((Types.TimestampType) field.type()).shouldAdjustToUTC()
              ? Slice.ColumnKind.TIMESTAMPTZ
              : Slice.ColumnKind.TIMESTAMP);
    }
    return Optional.empty();
  }

  private static LocalDateTime bound(String text) {
    return text.contains("T") ? LocalDateTime.parse(text) : LocalDate.parse(text).atStartOfDay();
  }
}
