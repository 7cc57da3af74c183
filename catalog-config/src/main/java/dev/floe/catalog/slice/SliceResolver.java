package dev.floe.catalog.slice;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.Shown;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
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

  /** The first of the days the Julian calendar skipped, 1582-10-05 to 1582-10-14. */
  private static final LocalDateTime SKIPPED_DAYS_START = LocalDateTime.of(1582, 10, 5, 0, 0);

  /** The first day after them. */
  private static final LocalDateTime GREGORIAN_START = LocalDateTime.of(1582, 10, 15, 0, 0);

  private SliceResolver() {}

  /**
   * @param tableName the table's name for messages
   * @param table the target table (its current schema and partition spec decide)
   * @param column the manifest's {@code slice.column}
   * @param value the {@code --slice} value
   */
  public static Slice resolve(String tableName, Table table, String column, String value) {
    return resolve("--slice", tableName, table, column, value);
  }

  /**
   * The same for a value given as {@code what} (a flag such as {@code --sample}, or words such as
   * {@code range start}), which the messages name.
   */
  public static Slice resolve(
      String what, String tableName, Table table, String column, String value) {
    Types.NestedField field = table.schema().findField(column);
    if (field == null) {
      throw InvalidInputException.of(
          "Cannot slice %s by '%s': no such column (columns: %s)",
          tableName, column, columnNames(table));
    }
    Slice.ColumnKind kind = kindOf(tableName, column, field.type());
    SliceUnit partitionUnit = partitionUnit(tableName, table.spec(), field);
    ParsedValue parsed = parse(what, value, column);
    if (!parsed.unit().alignsWith(partitionUnit)) {
      throw InvalidInputException.of(
          "Cannot use %s %s on %s: %s slice does not cover whole partitions of spec %s;"
              + " give a %s (%s) or coarser",
          what,
          value,
          tableName,
          withArticle(parsed.unit()),
          describe(table.spec()),
          partitionUnit.name().toLowerCase(),
          partitionUnit.format());
    }
    LocalDateTime end = parsed.unit().next(parsed.start());
    Slice slice = new Slice(column, kind, parsed.unit(), parsed.start(), end);
    requireAlignedWithLiveSpecs(what, tableName, table, field, value, slice);
    Optional<String> unwritable = unwritable(slice);
    if (unwritable.isPresent()) {
      throw InvalidInputException.of(
          "Cannot use %s %s on %s: %s", what, value, tableName, unwritable.get());
    }
    return slice;
  }

  /**
   * Whether {@code --slice} could name {@code slice} and a job run it: its start lies in the years
   * {@value #FIRST_YEAR} to {@value #LAST_YEAR} and its bounds can be written ({@link
   * #unwritable}). A slice derived from a partition value (a year-9999 "valid until" sentinel) may
   * not be.
   */
  public static boolean isRunnable(Slice slice) {
    int year = slice.start().getYear();
    return year >= FIRST_YEAR && year <= LAST_YEAR && unwritable(slice).isEmpty();
  }

  /**
   * Why a job cannot bind {@code slice}'s bounds into its query, or empty when it can. A date or
   * timestamp bound is written as a SQL literal, and Flink's SQL parser refuses the ten days the
   * Julian calendar skipped in October 1582 (Iceberg and Floe count days without the gap); a slice
   * that starts or ends in them cannot run. A timestamptz bound is written as epoch milliseconds.
   */
  public static Optional<String> unwritable(Slice slice) {
    if (slice.kind() == Slice.ColumnKind.TIMESTAMPTZ) {
      return Optional.empty();
    }
    for (LocalDateTime bound : List.of(slice.start(), slice.end())) {
      if (!bound.isBefore(SKIPPED_DAYS_START) && bound.isBefore(GREGORIAN_START)) {
        return Optional.of(
            String.format(
                "its %s %s falls in 1582-10-05 to 1582-10-14, the days the Julian calendar"
                    + " skipped, which Flink's SQL cannot write as a %s literal; load that"
                    + " month (1582-10) as one slice instead",
                bound == slice.start() ? "start" : "end",
                bound.toLocalDate(),
                slice.kind() == Slice.ColumnKind.DATE ? "DATE" : "TIMESTAMP"));
      }
    }
    return Optional.empty();
  }

  /**
   * Data files written under an older partition spec stay in that spec. A day slice cannot be cut
   * out of a file of a month partition: Iceberg would refuse to delete it in part, on every rerun.
   * Refuse up front, naming the spec and the way out, when such a file holds rows of the slice
   * (older months do not stop new days).
   */
  private static void requireAlignedWithLiveSpecs(
      String what,
      String tableName,
      Table table,
      Types.NestedField field,
      String value,
      Slice slice) {
    Snapshot current = table.currentSnapshot();
    if (current == null) {
      return;
    }
    Set<Integer> olderSpecs = new TreeSet<>();
    for (ManifestFile manifest : current.allManifests(table.io())) {
      if ((manifest.hasAddedFiles() || manifest.hasExistingFiles())
          && manifest.partitionSpecId() != table.spec().specId()) {
        olderSpecs.add(manifest.partitionSpecId());
      }
    }
    olderSpecs.removeIf(
        specId -> {
          SliceUnit older = unitOrNull(table.specs().get(specId), field);
          return older != null && slice.unit().alignsWith(older);
        });
    if (olderSpecs.isEmpty()) {
      return;
    }
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().filter(slice.toExpression()).ignoreResiduals().planFiles()) {
      for (FileScanTask task : tasks) {
        if (olderSpecs.contains(task.file().specId())) {
          PartitionSpec spec = table.specs().get(task.file().specId());
          throw InvalidInputException.of(
              "Cannot use %s %s on %s: files written under the older partition spec %s still"
                  + " hold data of it (%s), and %s slice does not cover whole partitions of that"
                  + " spec; rewrite those files into the current spec %s first: %s",
              what,
              value,
              tableName,
              describe(spec),
              task.file().location(),
              withArticle(slice.unit()),
              describe(table.spec()),
              wayOut(slice, unitOrNull(spec, field)));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the files of " + tableName, e);
    }
  }

  /**
   * How an operator gets files of an older spec rewritten, which compaction leaves as they are: the
   * covering slice of the older unit, loaded once, replaces them; without such a unit (the older
   * spec was unpartitioned, or cut the column otherwise) only a load of the whole table does.
   */
  private static String wayOut(Slice slice, SliceUnit older) {
    String engine = "; Spark's rewrite_data_files does it too";
    if (older == null || !older.alignsWith(slice.unit())) {
      return "replace the whole table once (a job of mode swap; with --force-commit when its"
          + " result is unchanged)"
          + engine;
    }
    Slice covering = Slice.of(slice.column(), slice.kind(), older, older.floor(slice.start()));
    return "load the covering slice once with a job of mode overwrite (`floe run --slice "
        + covering.value()
        + "`, with --force-commit when its result is unchanged), which replaces them with files of"
        + " the current spec"
        + engine;
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
    return parse("--slice", value, column);
  }

  /** The same for a value given as {@code what}, which the messages name. */
  public static ParsedValue parse(String what, String value, String column) {
    if (value == null || value.isBlank()) {
      throw what.equals("--slice")
          ? InvalidInputException.of("Cannot run: missing --slice for slice column %s", column)
          : InvalidInputException.of(
              "Cannot use an empty %s: give a slice of column %s (%s)",
              what, column, SliceUnit.DAY.format());
    }
    Read read = read(value);
    if (read.problem() != null) {
      throw InvalidInputException.of(
          "Cannot parse %s '%s': %s", what, Shown.value(value), read.problem());
    }
    return read.parsed();
  }

  /**
   * Why {@code value} is not a slice value by its form, or empty when it is one: for callers that
   * report it their own way (a manifest names its file and key).
   */
  public static Optional<String> problem(String value) {
    return value == null || value.isBlank()
        ? Optional.of("no value")
        : Optional.ofNullable(read(value).problem());
  }

  /** A value read by its form: parsed, or the problem with it. */
  private record Read(ParsedValue parsed, String problem) {}

  private static Read read(String value) {
    String text = value.trim();
    SliceUnit unit = null;
    Matcher m = null;
    for (SliceUnit candidate :
        List.of(SliceUnit.HOUR, SliceUnit.DAY, SliceUnit.MONTH, SliceUnit.YEAR)) {
      Matcher matcher = pattern(candidate).matcher(text);
      if (matcher.matches()) {
        unit = candidate;
        m = matcher;
        break;
      }
    }
    if (unit == null) {
      return new Read(
          null,
          String.format(
              "expected %s, %s, %s or %s",
              SliceUnit.DAY.format(),
              SliceUnit.HOUR.format(),
              SliceUnit.MONTH.format(),
              SliceUnit.YEAR.format()));
    }
    int year = num(m, 1);
    if (year < FIRST_YEAR || year > LAST_YEAR) {
      return new Read(
          null,
          String.format(
              "year %s is outside the supported years %04d to %04d",
              m.group(1), FIRST_YEAR, LAST_YEAR));
    }
    try {
      LocalDateTime start =
          switch (unit) {
            case HOUR -> LocalDate.of(year, num(m, 2), num(m, 3)).atTime(num(m, 4), 0);
            case DAY -> LocalDate.of(year, num(m, 2), num(m, 3)).atStartOfDay();
            case MONTH -> LocalDate.of(year, num(m, 2), 1).atStartOfDay();
            case YEAR -> LocalDate.of(year, 1, 1).atStartOfDay();
          };
      return new Read(new ParsedValue(unit, start), null);
    } catch (DateTimeException e) {
      return new Read(null, e.getMessage());
    }
  }

  private static Pattern pattern(SliceUnit unit) {
    return switch (unit) {
      case HOUR -> HOUR;
      case DAY -> DAY;
      case MONTH -> MONTH;
      case YEAR -> YEAR;
    };
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
      // A void field (what format v1 keeps of a removed one) is always null: it splits nothing.
      if (partitionField.sourceId() != field.fieldId() || partitionField.transform().isVoid()) {
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
