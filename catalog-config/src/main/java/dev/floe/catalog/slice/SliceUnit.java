package dev.floe.catalog.slice;

import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;

/** How long one slice is. Ordered from finest to coarsest. */
public enum SliceUnit {
  HOUR(ChronoUnit.HOURS, "yyyy-MM-ddTHH, e.g. 2026-10-03T05"),
  DAY(ChronoUnit.DAYS, "yyyy-MM-dd, e.g. 2026-10-03"),
  MONTH(ChronoUnit.MONTHS, "yyyy-MM, e.g. 2026-10"),
  YEAR(ChronoUnit.YEARS, "yyyy, e.g. 2026");

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

  /** True when a slice of this unit covers whole partitions of {@code partitionUnit}. */
  public boolean alignsWith(SliceUnit partitionUnit) {
    return compareTo(partitionUnit) >= 0;
  }
}
