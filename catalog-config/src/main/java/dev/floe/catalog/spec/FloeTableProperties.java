package dev.floe.catalog.spec;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.TableProperties;

/**
 * The table properties through which a table spec's {@code late_data} and {@code retention} reach
 * the table. {@code floe tables apply} writes them; commands that only get a table name ({@code
 * floe maintain}, {@code floe report}, {@code floe late}) read them back, so the table itself
 * carries its policy and no spec file has to be found again at 02:00.
 */
public final class FloeTableProperties {
  public static final String RETENTION_KEEP_LAST = "floe.retention.keep-last";
  public static final String RETENTION_MAX_AGE = "floe.retention.max-age";
  public static final String LATE_DATA_WINDOW = "floe.late-data.window";
  public static final String LATE_DATA_AFTER_WINDOW = "floe.late-data.after-window";

  /**
   * The sealing marker {@code floe late apply} writes (never a spec): an ISO date such as {@code
   * 2026-10-05}, or an instant such as {@code 2026-10-05T06:00:00Z} for hour slices. Every slice
   * that ends at or before it is sealed: {@code floe late} reruns it no more (an explicit {@code
   * floe run} or {@code floe backfill} of it still replaces it, as an operator's correction); it
   * never moves backwards. A scheduler reads it from Iceberg's {@code table.properties()}, or from
   * the WITH clause of {@code floe sql "SHOW CREATE TABLE ..."}.
   */
  public static final String SEALED_THROUGH = "floe.sealed-through";

  /**
   * The keys a spec's {@code properties:} set at its last apply, comma-separated and sorted: a key
   * the spec no longer declares is removed from the table (other tools' properties stay).
   */
  public static final String SPEC_PROPERTIES = "floe.spec-properties";

  private FloeTableProperties() {}

  /**
   * The spec block that sets {@code property} when it is one of Floe's own ({@code maintenance},
   * {@code retention} or {@code late_data}; {@code floe.sealed-through}, which only {@code floe
   * late apply} writes, counts as {@code late_data}), or empty for any other property.
   */
  public static Optional<String> specKeyOf(String property) {
    if (property.startsWith("floe.maintain.")) {
      return Optional.of("maintenance");
    }
    if (property.startsWith("floe.retention.")) {
      return Optional.of("retention");
    }
    if (property.startsWith("floe.late-data.") || property.equals(SEALED_THROUGH)) {
      return Optional.of("late_data");
    }
    return Optional.empty();
  }

  /**
   * True for a property {@code floe tables apply} owns through a spec block ({@code maintenance:},
   * {@code retention:}, {@code late_data:}): one the spec no longer declares is removed from the
   * table. {@code floe.sealed-through} is not: {@code floe late seal} sets it.
   */
  public static boolean managedFromSpec(String property) {
    return property.startsWith("floe.maintain.")
        || property.startsWith("floe.retention.")
        || property.startsWith("floe.late-data.")
        || property.equals(SPEC_PROPERTIES);
  }

  /** The keys {@link #SPEC_PROPERTIES} lists on a table: what its spec's properties set. */
  public static Set<String> specPropertyKeys(Map<String, String> tableProperties) {
    String listed = tableProperties.get(SPEC_PROPERTIES);
    Set<String> keys = new TreeSet<>();
    if (listed != null) {
      for (String key : listed.split(",")) {
        String trimmed = key.trim();
        // Never Floe's own or Iceberg's reserved ones, whatever a hand-edited marker says.
        if (!trimmed.isEmpty()
            && !trimmed.startsWith("floe.")
            && !TableProperties.RESERVED_PROPERTIES.contains(trimmed)) {
          keys.add(trimmed);
        }
      }
    }
    return keys;
  }

  /** The properties a spec manages: its own {@code properties} plus the policies above. */
  public static Map<String, String> of(TableSpec spec) {
    Map<String, String> properties = new LinkedHashMap<>(spec.properties());
    if (!spec.properties().isEmpty()) {
      properties.put(SPEC_PROPERTIES, String.join(",", new TreeSet<>(spec.properties().keySet())));
    }
    spec.retention()
        .ifPresent(
            retention -> {
              if (retention.keepLast() != null) {
                properties.put(RETENTION_KEEP_LAST, String.valueOf(retention.keepLast()));
              }
              if (retention.maxAge() != null) {
                properties.put(RETENTION_MAX_AGE, iso(retention.maxAge()));
              }
            });
    spec.maintenance().ifPresent(policy -> properties.putAll(policy.toProperties()));
    spec.lateData()
        .ifPresent(
            late -> {
              properties.put(LATE_DATA_WINDOW, iso(late.window()));
              properties.put(
                  LATE_DATA_AFTER_WINDOW, late.afterWindow().name().toLowerCase(Locale.ROOT));
            });
    return properties;
  }

  /**
   * The retention a table carries, if any.
   *
   * @throws IllegalArgumentException when a property holds a value that cannot be read
   */
  public static Optional<RetentionSpec> retention(Map<String, String> properties) {
    String keepLast = properties.get(RETENTION_KEEP_LAST);
    String maxAge = properties.get(RETENTION_MAX_AGE);
    if (keepLast == null && maxAge == null) {
      return Optional.empty();
    }
    Integer count = null;
    if (keepLast != null) {
      long parsed;
      try {
        parsed = Long.parseLong(keepLast.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "Cannot read table property "
                + RETENTION_KEEP_LAST
                + "="
                + keepLast
                + ": not a whole number");
      }
      if (parsed < 1 || parsed > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "Cannot read table property "
                + RETENTION_KEEP_LAST
                + "="
                + keepLast
                + ": expected a positive number of snapshots up to "
                + Integer.MAX_VALUE);
      }
      count = (int) parsed;
    }
    return Optional.of(
        new RetentionSpec(count, maxAge == null ? null : duration(RETENTION_MAX_AGE, maxAge)));
  }

  /**
   * The late-data policy a table carries, if any.
   *
   * @throws IllegalArgumentException when a property holds a value that cannot be read
   */
  public static Optional<LateDataSpec> lateData(Map<String, String> properties) {
    String window = properties.get(LATE_DATA_WINDOW);
    if (window == null) {
      return Optional.empty();
    }
    String after = properties.getOrDefault(LATE_DATA_AFTER_WINDOW, "report");
    LateDataSpec.AfterWindow afterWindow;
    try {
      afterWindow = LateDataSpec.AfterWindow.valueOf(after.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Cannot read table property "
              + LATE_DATA_AFTER_WINDOW
              + "="
              + after
              + ": expected report or reopen");
    }
    return Optional.of(new LateDataSpec(duration(LATE_DATA_WINDOW, window), afterWindow));
  }

  /** {@code P7D} rather than Java's {@code PT168H}, so the property reads as the spec wrote it. */
  public static String iso(Duration duration) {
    boolean wholeDays =
        !duration.isNegative() && duration.equals(Duration.ofDays(duration.toDays()));
    return wholeDays && !duration.isZero() ? "P" + duration.toDays() + "D" : duration.toString();
  }

  /** A positive duration, as the table spec requires one for the property it declares. */
  private static Duration duration(String property, String value) {
    Duration duration;
    try {
      duration = Duration.parse(value.trim());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "Cannot read table property "
              + property
              + "="
              + value
              + ": expected an ISO-8601 duration such as P7D");
    }
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(
          "Cannot read table property "
              + property
              + "="
              + value
              + ": expected a positive duration such as P7D");
    }
    return duration;
  }
}
