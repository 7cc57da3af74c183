package dev.floe.catalog.slice;

import java.io.Serializable;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.transforms.Transform;
import org.apache.iceberg.types.Types;

/**
 * The half-open interval {@code [start, end)} on one source column of a table's partition spec that
 * one run owns. Bounds are kept in Iceberg's internal representation of the column (days since
 * epoch for {@code date}, microseconds since epoch UTC for timestamps), so the same slice drives
 * the overwrite filter, the row guard and the query parameters without conversions.
 *
 * @param column the source column, e.g. {@code order_date}
 * @param kind the column's temporal type
 * @param unit the slice's length
 * @param start the first instant of the slice, as a UTC wall time
 * @param end the first instant after the slice
 */
public record Slice(
    String column, ColumnKind kind, SliceUnit unit, LocalDateTime start, LocalDateTime end)
    implements Serializable {

  /** Slices in the order reports and plans list them: by column, then start, then end. */
  public static final Comparator<Slice> ORDER =
      Comparator.comparing(Slice::column).thenComparing(Slice::start).thenComparing(Slice::end);

  /** The temporal column types a slice can be cut on. */
  public enum ColumnKind {
    DATE,
    TIMESTAMP,
    TIMESTAMPTZ
  }

  public long startInternal() {
    return toInternal(start);
  }

  public long endInternal() {
    return toInternal(end);
  }

  /** True when a value of the column (internal representation) lies inside the slice. */
  public boolean contains(long internalValue) {
    return bounds().contains(internalValue);
  }

  /**
   * The slice's bounds in the column's internal representation, converted once: what a check of
   * every row holds on to ({@link #contains} converts them on each call).
   */
  public Bounds bounds() {
    return new Bounds(startInternal(), endInternal());
  }

  /**
   * The half-open interval {@code [start, end)} of a slice in its column's internal representation.
   *
   * @param start the first value inside
   * @param end the first value after
   */
  public record Bounds(long start, long end) implements Serializable {
    /** True when a value of the column (internal representation) lies inside. */
    public boolean contains(long internalValue) {
      return internalValue >= start && internalValue < end;
    }
  }

  /** The overwrite and conflict-detection filter: {@code column >= start AND column < end}. */
  public Expression toExpression() {
    if (kind == ColumnKind.DATE) {
      return Expressions.and(
          Expressions.greaterThanOrEqual(column, (int) startInternal()),
          Expressions.lessThan(column, (int) endInternal()));
    }
    return Expressions.and(
        Expressions.greaterThanOrEqual(column, startInternal()),
        Expressions.lessThan(column, endInternal()));
  }

  /**
   * True when every row inside the slice belongs to the same partition of {@code spec}: each
   * partition field is an order-preserving transform of the slice column (identity, year, month,
   * day, hour) or void, and gives the same value for the slice's first and last instant. Never for
   * a timestamp slice that starts before 1970, where Iceberg's time transforms are not monotone. A
   * writer given only rows of the slice can then take the partition of its first row for all of
   * them. True for an unpartitioned spec; false when the spec partitions by any other column, or
   * the column is not in its schema.
   */
  public boolean fitsOnePartition(PartitionSpec spec) {
    if (spec.isUnpartitioned()) {
      return true;
    }
    Types.NestedField field = spec.schema().findField(column);
    if (field == null || endInternal() <= startInternal()) {
      return false;
    }
    if (kind != ColumnKind.DATE && startInternal() < 0) {
      // Iceberg 1.11's hour/day/month/year of a timestamp before 1970 is one unit too low at
      // 0.999999 s past a unit's start: not monotone there, so the bounds cannot speak for the
      // rows.
      return false;
    }
    for (PartitionField partition : spec.fields()) {
      @SuppressWarnings("unchecked")
      Transform<Object, Object> transform = (Transform<Object, Object>) partition.transform();
      if (transform.isVoid()) {
        continue; // always null
      }
      if (partition.sourceId() != field.fieldId() || !transform.preservesOrder()) {
        return false;
      }
      var apply = transform.bind(field.type());
      if (!Objects.equals(
          apply.apply(internalValue(startInternal())),
          apply.apply(internalValue(endInternal() - 1)))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Where Iceberg 1.11 files this slice's instant 0.999999 s past its start, when that lies outside
   * the slice: for each hour, day, month or year partition field of the slice column in {@code
   * spec}, by position in the spec, the partition value Iceberg computes for that instant, when it
   * differs from the value of the slice's start. Only a timestamp slice that starts before 1970 has
   * any: there Iceberg puts a timestamp exactly 0.999999 s past the start of such a unit under the
   * unit before ({@code DateTimeUtil.convertMicros}), so a row at that instant lands outside the
   * slice and Iceberg refuses the overwrite. Rows at such instants further into a slice stay in it,
   * under the partition Iceberg computes.
   */
  public Map<Integer, Object> icebergMisplacedFirstInstant(PartitionSpec spec) {
    Types.NestedField field = spec.schema().findField(column);
    if (kind == ColumnKind.DATE || startInternal() >= 0 || field == null) {
      return Map.of();
    }
    Map<Integer, Object> misplaced = new TreeMap<>();
    List<PartitionField> fields = spec.fields();
    for (int i = 0; i < fields.size(); i++) {
      PartitionField partition = fields.get(i);
      if (partition.sourceId() != field.fieldId()
          || SliceUnit.ofTimeTransform(partition.transform().toString()) == null) {
        continue;
      }
      @SuppressWarnings("unchecked")
      var apply = ((Transform<Object, Object>) partition.transform()).bind(field.type());
      Object atStart = apply.apply(startInternal());
      Object icebergs = apply.apply(startInternal() + 999_999L);
      if (!Objects.equals(atStart, icebergs)) {
        misplaced.put(i, icebergs);
      }
    }
    return misplaced;
  }

  /** The instant 0.999999 s past the slice's start, as a user writes it (UTC for timestamptz). */
  public String firstMisplaceableInstant() {
    return start.plusNanos(999_999_000L) + (kind == ColumnKind.TIMESTAMPTZ ? "Z" : "");
  }

  /** A bound as Iceberg passes the column's values to a transform. */
  private Object internalValue(long value) {
    return kind == ColumnKind.DATE ? (Object) (int) value : (Object) value;
  }

  /**
   * The slice of one {@code unit} that starts at {@code start}: a day, an hour, a month, a year.
   */
  public static Slice of(String column, ColumnKind kind, SliceUnit unit, LocalDateTime start) {
    return new Slice(column, kind, unit, start, unit.next(start));
  }

  /** The value as the user wrote it, e.g. {@code 2026-10-03}. */
  public String value() {
    return switch (unit) {
      case HOUR -> start.format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH"));
      case DAY -> start.toLocalDate().toString();
      case MONTH -> start.format(DateTimeFormatter.ofPattern("yyyy-MM"));
      case YEAR -> String.format("%04d", start.getYear()); // 0999, as --slice takes it
    };
  }

  /**
   * The slice as recorded in lineage, e.g. {@code order_date=[2026-10-03,2026-10-04)}. Two runs own
   * the same slice exactly when their labels are equal.
   */
  public String label() {
    return column + "=[" + boundText(start) + "," + boundText(end) + ")";
  }

  /** True when every instant of {@code other} lies in this slice (same column). */
  public boolean covers(Slice other) {
    return column.equals(other.column) && !other.start.isBefore(start) && !end.isBefore(other.end);
  }

  /** True when the two slices share at least one instant of the same column. */
  public boolean overlaps(Slice other) {
    return column.equals(other.column) && start.isBefore(other.end) && other.start.isBefore(end);
  }

  /**
   * True when two slice labels (as recorded in lineage) share an instant of the same column. A
   * label that cannot be read counts as overlapping: when unsure, assume the slice was touched.
   */
  public static boolean labelsOverlap(String a, String b) {
    LabelBounds la = LabelBounds.of(a);
    LabelBounds lb = LabelBounds.of(b);
    if (la == null || lb == null) {
      return true;
    }
    if (!la.column().equals(lb.column())) {
      return false;
    }
    // In the order of the comparison: a bound that cannot be read counts as overlapping, but only
    // where the answer depends on it.
    if (la.start() == null || lb.end() == null) {
      return true;
    }
    if (!la.start().isBefore(lb.end())) {
      return false;
    }
    if (lb.start() == null || la.end() == null) {
      return true;
    }
    return lb.start().isBefore(la.end());
  }

  /**
   * A label's column and bounds, read once per distinct label: a walk back through a long history
   * (a backfill's thousand snapshots, before each of its commits) compares the same few labels
   * again and again, and reading one (a regular expression and two dates) cost more than the rest
   * of the walk's step.
   *
   * @param start null when it cannot be read
   * @param end null when it cannot be read
   */
  private record LabelBounds(String column, LocalDateTime start, LocalDateTime end) {
    private static final int MAX_REMEMBERED = 1 << 16;
    private static final Map<String, Optional<LabelBounds>> READ = new ConcurrentHashMap<>();

    /** The label's column and bounds, or null when it is not a label at all. */
    static LabelBounds of(String label) {
      if (label == null) {
        return null;
      }
      Optional<LabelBounds> known = READ.get(label);
      if (known == null) {
        known = read(label);
        if (READ.size() >= MAX_REMEMBERED) {
          READ.clear(); // labels are pure functions of their text: forgetting only costs a read
        }
        READ.put(label, known);
      }
      return known.orElse(null);
    }

    private static Optional<LabelBounds> read(String label) {
      Matcher m = LABEL.matcher(label);
      if (!m.matches()) {
        return Optional.empty();
      }
      return Optional.of(
          new LabelBounds(m.group(1), boundOrNull(m.group(2)), boundOrNull(m.group(3))));
    }

    private static LocalDateTime boundOrNull(String text) {
      try {
        return parseBound(text);
      } catch (DateTimeException e) {
        return null;
      }
    }
  }

  /**
   * The slice a lineage label names, read against the table's schema for the column's type: the
   * inverse of {@link #label()}. Empty when the label cannot be read, its column is gone or not
   * temporal, or its length is not one {@link SliceUnit}.
   */
  public static Optional<Slice> fromLabel(String label, Schema schema) {
    Matcher m = LABEL.matcher(label == null ? "" : label);
    if (!m.matches()) {
      return Optional.empty();
    }
    Optional<ColumnKind> kind = kindOf(schema, m.group(1));
    if (kind.isEmpty()) {
      return Optional.empty();
    }
    try {
      LocalDateTime start = parseBound(m.group(2));
      LocalDateTime end = parseBound(m.group(3));
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

  /**
   * The same interval on the same-named column of another schema, e.g. a source table's: empty when
   * that schema lacks the column or it is not a date or timestamp.
   */
  public Optional<Slice> onSchema(Schema schema) {
    return kindOf(schema, column).map(other -> new Slice(column, other, unit, start, end));
  }

  /**
   * The kind of slice a column of {@code schema} can be cut into: empty when the column is missing
   * or is not a date or timestamp.
   */
  public static Optional<ColumnKind> kindOf(Schema schema, String column) {
    Types.NestedField field = schema.findField(column);
    if (field == null) {
      return Optional.empty();
    }
    return switch (field.type().typeId()) {
      case DATE -> Optional.of(ColumnKind.DATE);
      case TIMESTAMP ->
          Optional.of(
              ((Types.TimestampType) field.type()).shouldAdjustToUTC()
                  ? ColumnKind.TIMESTAMPTZ
                  : ColumnKind.TIMESTAMP);
      default -> Optional.empty();
    };
  }

  private static final Pattern LABEL = Pattern.compile("(.+)=\\[([^,]+),([^)]+)\\)");

  private static LocalDateTime parseBound(String text) {
    return text.contains("T") ? LocalDateTime.parse(text) : LocalDate.parse(text).atStartOfDay();
  }

  private String boundText(LocalDateTime bound) {
    if (kind == ColumnKind.DATE || unit != SliceUnit.HOUR) {
      return bound.toLocalDate().toString();
    }
    return bound.format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm"));
  }

  private long toInternal(LocalDateTime bound) {
    if (kind == ColumnKind.DATE) {
      return bound.toLocalDate().toEpochDay();
    }
    long seconds = bound.toEpochSecond(ZoneOffset.UTC);
    return Math.addExact(Math.multiplyExact(seconds, 1_000_000L), bound.getNano() / 1000);
  }

  @Override
  public String toString() {
    return label();
  }
}
