package dev.floe.catalog.slice;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.Shown;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Turns {@code --slice 2026-10-03} into a {@link Slice} of a table, refusing anything that would
 * not replace whole partitions: a column that is not a partition source, a transform that is not
 * temporal, or a slice finer than the partitions (an hour on a day-partitioned table).
 */
public final class SliceResolver {
  private static final Pattern HOUR =
      Pattern.compile("(\\d{4})-(\\d{2})-(\\d{2})[T ](\\d{2})(?::00(?::00)?)?");
  private static final Pattern DAY = Pattern.compile("(\\d{4})-(\\d{2})-(\\d{2})");
  private static final Pattern MONTH = Pattern.compile("(\\d{4})-(\\d{2})");
  private static final Pattern YEAR = Pattern.compile("(\\d{4})");

  /** The first year a slice may start in: year 0000 is no calendar year for SQL engines. */
  public static final int FIRST_YEAR = 1;

  /**
   * The last year a slice may start in. A slice's end is the first instant after it, and SQL
   * engines (Flink's DATE and TIMESTAMP literals among them) stop at 9999-12-31, so a slice of
   * 9999-12-31 would end in year 10000; refusing all of 9999 keeps one rule for every unit.
   */
  public static final int LAST_YEAR = 9998;

  private SliceResolver() {}

  /**
   * @param tableName the table's name for messages
   * @param table the target table (its current schema and partition spec decide)
   * @param column the manifest's {@code slice.column}
   * @param value the {@code --slice} value
   */
  public static Slice resolve(String tableName, Table table, String column, String value) {
    Types.NestedField field = table.schema().findField(column);
    if (field == null) {
      throw InvalidInputException.of(
          "Cannot slice %s by '%s': no such column (columns: %s)",
          tableName, column, columnNames(table));
    }
    Slice.ColumnKind kind = kindOf(tableName, column, field.type());
    SliceUnit partitionUnit = partitionUnit(tableName, table.spec(), field);
    ParsedValue parsed = parse(value, column);
    if (!parsed.unit().alignsWith(partitionUnit)) {
      throw InvalidInputException.of(
          "Cannot use --slice %s on %s: %s slice does not cover whole partitions of spec %s;"
              + " give a %s (%s) or coarser",
          value,
          tableName,
          withArticle(parsed.unit()),
          describe(table.spec()),
          partitionUnit.name().toLowerCase(),
          partitionUnit.format());
    }
    requireAlignedWithLiveSpecs(tableName, table, field, value, parsed.unit());
    LocalDateTime end = parsed.unit().next(parsed.start());
    return new Slice(column, kind, parsed.unit(), parsed.start(), end);
  }

  /**
   * Data files written under an older partition spec stay in that spec. A day slice cannot be cut
   * out of a file of a month partition: Iceberg would refuse to delete it in part, on every rerun.
   * Refuse up front, naming the spec and the way out.
   */
  private static void requireAlignedWithLiveSpecs(
      String tableName, Table table, Types.NestedField field, String value, SliceUnit unit) {
    Snapshot current = table.currentSnapshot();
    if (current == null) {
      return;
    }
    Set<Integer> liveSpecs = new TreeSet<>();
    for (ManifestFile manifest : current.allManifests(table.io())) {
      if (manifest.hasAddedFiles() || manifest.hasExistingFiles()) {
        liveSpecs.add(manifest.partitionSpecId());
      }
    }
    for (int specId : liveSpecs) {
      PartitionSpec spec = table.specs().get(specId);
      if (specId == table.spec().specId()) {
        continue;
      }
      SliceUnit older = unitOrNull(spec, field);
      if (older == null || !unit.alignsWith(older)) {
        throw InvalidInputException.of(
            "Cannot use --slice %s on %s: files written under the older partition spec %s still"
                + " hold data, and %s slice does not cover whole partitions of it; rewrite"
                + " those files into the current spec %s first",
            value, tableName, describe(spec), withArticle(unit), describe(table.spec()));
      }
    }
  }

  private static SliceUnit unitOrNull(PartitionSpec spec, Types.NestedField field) {
    try {
      return partitionUnit("", spec, field);
    } catch (InvalidInputException e) {
      return null;
    }
  }

  /** "an hour", "a day", "a month", "a year". */
  private static String withArticle(SliceUnit unit) {
    String name = unit.name().toLowerCase();
    return (unit == SliceUnit.HOUR ? "an " : "a ") + name;
  }

  /** A partition spec in one line, e.g. {@code [day(order_ts), bucket[16](id)]}. */
  public static String describe(PartitionSpec spec) {
    if (spec.isUnpartitioned()) {
      return "[] (unpartitioned)";
    }
    return spec.fields().stream()
        .map(f -> f.transform() + "(" + spec.schema().findColumnName(f.sourceId()) + ")")
        .collect(Collectors.joining(", ", "[", "]"));
  }

  /**
   * A {@code --slice} value read without a table: its unit and its first instant.
   *
   * @param unit the slice's length, from the value's form (2026-10-03 is a day)
   * @param start the first instant of the slice, as a UTC wall time
   */
  public record ParsedValue(SliceUnit unit, LocalDateTime start) {}

  /**
   * Reads a {@code --slice} value by its form alone. {@link #resolve} does this first, then checks
   * the value against the table; a caller without the table (rendering a Kubernetes manifest) gets
   * the same unit and start.
   *
   * @throws InvalidInputException when the value is missing or not one of the four forms
   */
  public static ParsedValue parse(String value, String column) {
    if (value == null || value.isBlank()) {
      throw InvalidInputException.of("Cannot run: missing --slice for slice column %s", column);
    }
    String text = value.trim();
    try {
      Matcher m;
      if ((m = HOUR.matcher(text)).matches()) {
        return new ParsedValue(
            SliceUnit.HOUR,
            LocalDate.of(year(m, value), num(m, 2), num(m, 3)).atTime(num(m, 4), 0));
      } else if ((m = DAY.matcher(text)).matches()) {
        return new ParsedValue(
            SliceUnit.DAY, LocalDate.of(year(m, value), num(m, 2), num(m, 3)).atStartOfDay());
      } else if ((m = MONTH.matcher(text)).matches()) {
        return new ParsedValue(
            SliceUnit.MONTH, LocalDate.of(year(m, value), num(m, 2), 1).atStartOfDay());
      } else if ((m = YEAR.matcher(text)).matches()) {
        return new ParsedValue(SliceUnit.YEAR, LocalDate.of(year(m, value), 1, 1).atStartOfDay());
      }
    } catch (DateTimeException e) {
      throw InvalidInputException.of(
          "Cannot parse --slice '%s': %s", Shown.value(value), e.getMessage());
    }
    throw InvalidInputException.of(
        "Cannot parse --slice '%s': expected %s, %s, %s or %s",
        Shown.value(value),
        SliceUnit.DAY.format(),
        SliceUnit.HOUR.format(),
        SliceUnit.MONTH.format(),
        SliceUnit.YEAR.format());
  }

  /** The value's year (group 1), refused outside {@link #FIRST_YEAR} to {@link #LAST_YEAR}. */
  private static int year(Matcher m, String value) {
    int year = num(m, 1);
    if (year < FIRST_YEAR || year > LAST_YEAR) {
      throw InvalidInputException.of(
          "Cannot parse --slice '%s': year %s is outside the supported years %04d to %04d",
          value, m.group(1), FIRST_YEAR, LAST_YEAR);
    }
    return year;
  }

  private static int num(Matcher m, int group) {
    return Integer.parseInt(m.group(group));
  }

  private static Slice.ColumnKind kindOf(String tableName, String column, Type type) {
    if (type.typeId() == Type.TypeID.DATE) {
      return Slice.ColumnKind.DATE;
    } else if (type.typeId() == Type.TypeID.TIMESTAMP) {
      return ((Types.TimestampType) type).shouldAdjustToUTC()
          ? Slice.ColumnKind.TIMESTAMPTZ
          : Slice.ColumnKind.TIMESTAMP;
    }
    throw InvalidInputException.of(
        "Cannot slice %s by '%s': its type is %s; a slice column must be a date or timestamp",
        tableName, column, type);
  }

  private static SliceUnit partitionUnit(
      String tableName, PartitionSpec spec, Types.NestedField field) {
    List<SliceUnit> units = new ArrayList<>();
    for (PartitionField partitionField : spec.fields()) {
      if (partitionField.sourceId() != field.fieldId()) {
        continue;
      }
      String transform = partitionField.transform().toString();
      SliceUnit unit = SliceUnit.ofPartitionField(transform, field.type());
      if (unit == null) {
        throw InvalidInputException.of(
            "Cannot slice %s by '%s': its partition transform %s does not cut time into"
                + " slices; partition spec is %s",
            tableName, field.name(), transform, describe(spec));
      }
      units.add(unit);
    }
    if (units.isEmpty()) {
      throw InvalidInputException.of(
          "Cannot slice %s by '%s': it is not a partition source column; partition spec is %s",
          tableName, field.name(), describe(spec));
    }
    // With two transforms on one column (e.g. day and hour) the finest one decides alignment.
    return units.stream().min(SliceUnit::compareTo).orElseThrow();
  }

  private static String columnNames(Table table) {
    return table.schema().columns().stream()
        .map(Types.NestedField::name)
        .collect(Collectors.joining(", "));
  }
}
