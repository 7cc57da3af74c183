package dev.floe.catalog.slice;

import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import org.apache.iceberg.types.Type;

/** How long one slice is. Ordered from finest to coarsest. */
public enum SliceUnit {
  HOUR(ChronoUnit.HOURS, "yyyy-MM-ddTHH, e.g. 2026-10-03T05"),
  DAY(ChronoUnit.DAYS, "yyyy-MM-dd, e.g. 2026-10-03"),
  MONTH(ChronoUnit.MONTHS, "yyyy-MM, e.g. 2026-10"),
  YEAR(ChronoUnit.YEARS, "yyyy, e.g. 2026");

  private static final LocalDateTime EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);

  private final ChronoUnit chronoUnit;
  private final String format;

  SliceUnit(ChronoUnit chronoUnit, String format) {
    this.chronoUnit = chronoUnit;
    this.format = format;
  }

  /** The format a {@code --slice} value of this unit is written in. */
  public String format() {
    return format;
  }

  public LocalDateTime next(LocalDateTime start) {
    return start.plus(1, chronoUnit);
  }

  /** {@code start} one unit earlier. */
  public LocalDateTime previous(LocalDateTime start) {
    return start.minus(1, chronoUnit);
  }

  /**
   * The unit an Iceberg time transform cuts into ({@code hour}, {@code day}, {@code month}, {@code
   * year}, as a transform's {@code toString()} names it), or null for any other transform.
   */
  public static SliceUnit ofTimeTransform(String transform) {
    return switch (transform) {
      case "hour" -> HOUR;
      case "day" -> DAY;
      case "month" -> MONTH;
      case "year" -> YEAR;
      default -> null;
    };
  }

  /**
   * The unit a partition field cuts its source column into, as every place that slices by a
   * partition decides it: Iceberg's hour, day, month and year transforms ({@link
   * #ofTimeTransform}), whatever the source type but hour on a date (which Iceberg refuses in a new
   * spec, but reads back from an old one unchecked), and identity on a date, whose partitions are
   * days. Null for any other transform, and for identity on any other type. Whether Floe can slice
   * the source type at all is a separate question ({@link SliceResolver}).
   *
   * @param transform the transform as its {@code toString()} names it, which is also how a table
   *     spec spells the time transforms and identity
   * @param sourceType the source column's type
   */
  public static SliceUnit ofPartitionField(String transform, Type sourceType) {
    if (transform.equals("identity")) {
      return sourceType.typeId() == Type.TypeID.DATE ? DAY : null;
    }
    SliceUnit unit = ofTimeTransform(transform);
    return unit == HOUR && sourceType.typeId() == Type.TypeID.DATE ? null : unit;
  }

  /**
   * The first instant of the unit an Iceberg hour, day, month or year partition value names: the
   * {@code ordinal}-th such unit after the one that starts at 1970-01-01T00:00 (negative before
   * it).
   */
  public LocalDateTime startOf(int ordinal) {
    return EPOCH.plus(ordinal, chronoUnit);
  }

  /**
   * The start of the unit that holds {@code time}: 2026-10-04T05:30 → 2026-10-01T00:00 by month.
   */
  public LocalDateTime floor(LocalDateTime time) {
    LocalDateTime day = time.truncatedTo(ChronoUnit.DAYS);
    return switch (this) {
      case HOUR -> time.truncatedTo(ChronoUnit.HOURS);
      case DAY -> day;
      case MONTH -> day.withDayOfMonth(1);
      case YEAR -> day.withDayOfYear(1);
    };
  }

  /** True when a slice of this unit covers whole partitions of {@code partitionUnit}. */
  public boolean alignsWith(SliceUnit partitionUnit) {
    return compareTo(partitionUnit) >= 0;
  }
}
