package dev.floe.flink.sql;

import dev.floe.catalog.error.InvalidInputException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.catalog.CatalogManager;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.operations.CreateTableASOperation;
import org.apache.flink.table.operations.ReplaceTableAsOperation;
import org.apache.flink.table.operations.SinkModifyOperation;
import org.apache.flink.table.operations.ddl.CreateTableOperation;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/**
 * Refuses an {@code INSERT} whose values Flink would convert with a loss to the table's column
 * types (DESIGN rule 10: values are exact or refused). Flink casts each value of an {@code INSERT}
 * to its column's type without a word: {@code 1.005} into a {@code decimal(10,2)} becomes 1.01, a
 * decimal too large for its column becomes NULL, nanoseconds are cut to microseconds, and an int
 * past 2^24 into a float is rounded. A value may go into its column unchanged when the column's
 * type holds every value of the value's type: the same type, a longer string or binary, a wider
 * integer, a decimal with as many digits on both sides of the point, an int or float into a double,
 * a timestamp of the same kind with as many fractional digits. Anything else is refused, naming the
 * column and both types; an explicit {@code CAST} in the statement says the conversion is meant.
 * The same holds for a {@code CREATE [OR REPLACE] TABLE ... AS} (into its declared columns, or the
 * table that exists already with {@code IF NOT EXISTS}) and for a static partition's value ({@code
 * PARTITION (k = 1.005)}), which the planner casts from its text before the query sees it.
 */
final class LosslessInsert {
  /** How many columns a refusal names; 84 columns made a line of 5 KB. */
  private static final int LISTED = 5;

  private LosslessInsert() {}

  /**
   * @throws InvalidInputException when a column of {@code insert}'s table would get its value by a
   *     conversion that may change it
   */
  static void require(String source, SqlStatement statement, SinkModifyOperation insert) {
    if (insert.isDelete() || insert.isUpdate()) {
      return;
    }
    require(
        source,
        statement,
        insert.getContextResolvedTable().getIdentifier().asSummaryString(),
        insert.getContextResolvedTable().getResolvedSchema(),
        insert.getChild().getResolvedSchema(),
        insert.getStaticPartitions());
  }

  /** The same for a {@code CREATE OR REPLACE TABLE ... AS}: into the columns it declares. */
  static void require(String source, SqlStatement statement, ReplaceTableAsOperation replace) {
    CreateTableOperation table = replace.getCreateTableOperation();
    require(
        source,
        statement,
        table.getTableIdentifier().asSummaryString(),
        table.getCatalogTable().getResolvedSchema(),
        replace.getChild().getResolvedSchema(),
        Map.of());
  }

  /**
   * The same for a {@code CREATE TABLE ... AS}: its query's values go into the columns the
   * statement declares, or into the table that exists already ({@code IF NOT EXISTS}).
   */
  static void require(
      String source,
      SqlStatement statement,
      CreateTableASOperation create,
      CatalogManager catalogs) {
    CreateTableOperation table = create.getCreateTableOperation();
    Optional<ContextResolvedTable> existing =
        table.isIgnoreIfExists() ? catalogs.getTable(table.getTableIdentifier()) : Optional.empty();
    require(
        source,
        statement,
        table.getTableIdentifier().asSummaryString(),
        existing.isPresent()
            ? existing.get().getResolvedSchema()
            : table.getCatalogTable().getResolvedSchema(),
        create.getChild().getResolvedSchema(),
        create.getSinkModifyStaticPartitions());
  }

  private static void require(
      String source,
      SqlStatement statement,
      String tableName,
      ResolvedSchema table,
      ResolvedSchema given,
      Map<String, String> staticPartitions) {
    List<Column> target = table.getColumns().stream().filter(Column::isPhysical).toList();
    List<String> problems = new ArrayList<>();
    // A static partition's value is text the planner casts to the column's type before the query
    // sees it: it is checked as written.
    staticPartitions.forEach(
        (name, text) ->
            target.stream()
                .filter(column -> column.getName().equals(name))
                .findFirst()
                .flatMap(column -> textProblem(column, text))
                .ifPresent(problems::add));
    int partitionProblems = problems.size();
    if (given.getColumnCount() == target.size()) {
      for (int i = 0; i < target.size(); i++) {
        LogicalType from = given.getColumnDataTypes().get(i).getLogicalType();
        LogicalType to = target.get(i).getDataType().getLogicalType();
        if (!staticPartitions.containsKey(target.get(i).getName()) && !holds(from, to)) {
          problems.add(
              "column "
                  + target.get(i).getName()
                  + " is "
                  + to.copy(true).asSummaryString()
                  + " and the statement gives it "
                  + from.copy(true).asSummaryString());
        }
      }
    } // else: Flink's own validation names a column count that does not match
    if (!problems.isEmpty()) {
      throw new InvalidInputException(
          SqlErrors.prefix(source, statement)
              + "Cannot insert into "
              + tableName
              + " without changing values: "
              + listed(problems)
              + " (Flink would convert them without a word, and may round, cut or null a value or"
              + " read it in another time zone; "
              + (partitionProblems < problems.size() ? "CAST them in the statement" : "")
              + (partitionProblems > 0 && partitionProblems < problems.size() ? ", or " : "")
              + (partitionProblems > 0 ? "write a partition value as its column holds it" : "")
              + " if that is meant)");
    }
  }

  /** The first {@link #LISTED} problems, and how many more: one line, also for 500 columns. */
  private static String listed(List<String> problems) {
    String first = String.join("; ", problems.subList(0, Math.min(LISTED, problems.size())));
    return problems.size() <= LISTED
        ? first
        : first + "; and " + (problems.size() - LISTED) + " more columns";
  }

  /**
   * Why a static partition value written as {@code text} does not reach its column unchanged, if it
   * does not: a number its column cannot hold exactly, a date with a time, a timestamp with more
   * fractional digits than its column keeps, or any text for a timestamp with local time zone (the
   * session's zone would decide the instant).
   */
  private static Optional<String> textProblem(Column column, String text) {
    LogicalType type = column.getDataType().getLogicalType();
    String value = text.trim();
    BigDecimal number = parse(value);
    boolean fits =
        switch (type.getTypeRoot()) {
          case DECIMAL -> {
            DecimalType decimal = (DecimalType) type;
            BigDecimal exact = number == null ? null : number.stripTrailingZeros();
            yield exact != null
                && Math.max(exact.scale(), 0) <= decimal.getScale()
                && integerDigits(exact) <= decimal.getPrecision() - decimal.getScale();
          }
          case TINYINT, SMALLINT, INTEGER, BIGINT -> {
            long[] range = integerRange(type.getTypeRoot());
            yield number != null
                && number.stripTrailingZeros().scale() <= 0
                && number.compareTo(BigDecimal.valueOf(range[0])) >= 0
                && number.compareTo(BigDecimal.valueOf(range[1])) <= 0;
          }
          // Flink's cast of '-0' gives 0.0: a negative zero would lose its sign.
          case FLOAT ->
              number != null
                  && !negativeZero(number, value)
                  && Float.isFinite(Float.parseFloat(value))
                  && number.compareTo(new BigDecimal(Float.parseFloat(value))) == 0;
          case DOUBLE ->
              number != null
                  && !negativeZero(number, value)
                  && Double.isFinite(Double.parseDouble(value))
                  && number.compareTo(new BigDecimal(Double.parseDouble(value))) == 0;
          // A real date or time, strictly: Flink's cast moves 2026-04-31 to the 30th.
          case DATE -> parses(value, LocalDate::parse);
          case TIMESTAMP_WITHOUT_TIME_ZONE ->
              value.matches("[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?")
                  && parses(value.replace(' ', 'T'), LocalDateTime::parse)
                  && fractionDigits(value) <= LogicalTypeChecks.getPrecision(type);
          case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> false;
          // Padded with zeros or cut to the column's length.
          case BINARY ->
              value.getBytes(StandardCharsets.UTF_8).length == LogicalTypeChecks.getLength(type);
          case BOOLEAN -> value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false");
          default -> true; // text and variable-length binary: read as written
        };
    return fits
        ? Optional.empty()
        : Optional.of(
            "column "
                + column.getName()
                + " is "
                + type.copy(true).asSummaryString()
                + " and the statement gives it the partition value "
                + text);
  }

  private static boolean negativeZero(BigDecimal number, String text) {
    return number.signum() == 0 && text.startsWith("-");
  }

  /** Digits before the point: none for zero (0.00 fits a decimal(2,2)). */
  private static int integerDigits(BigDecimal stripped) {
    return stripped.signum() == 0 ? 0 : Math.max(stripped.precision() - stripped.scale(), 0);
  }

  private static boolean parses(String text, java.util.function.Function<String, ?> parser) {
    try {
      parser.apply(text);
      return true;
    } catch (java.time.format.DateTimeParseException e) {
      return false;
    }
  }

  /** Fractional digits of a timestamp's text, trailing zeros left out. */
  private static int fractionDigits(String timestamp) {
    int dot = timestamp.indexOf('.');
    if (dot < 0) {
      return 0;
    }
    return timestamp.substring(dot + 1).replaceFirst("0+$", "").length();
  }

  private static BigDecimal parse(String text) {
    try {
      return new BigDecimal(text.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static long[] integerRange(LogicalTypeRoot root) {
    return switch (root) {
      case TINYINT -> new long[] {Byte.MIN_VALUE, Byte.MAX_VALUE};
      case SMALLINT -> new long[] {Short.MIN_VALUE, Short.MAX_VALUE};
      case INTEGER -> new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE};
      default -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE};
    };
  }

  /** Whether every value of type {@code from} converts to type {@code to} unchanged. */
  static boolean holds(LogicalType from, LogicalType to) {
    if (from.copy(true).equals(to.copy(true)) || from.is(LogicalTypeRoot.NULL)) {
      return true;
    }
    return switch (to.getTypeRoot()) {
      case CHAR, VARCHAR ->
          from.is(LogicalTypeRoot.CHAR) || from.is(LogicalTypeRoot.VARCHAR)
              ? LogicalTypeChecks.getLength(from) <= LogicalTypeChecks.getLength(to)
                  && !to.is(LogicalTypeRoot.CHAR) // a shorter value would be padded
              : false;
      case VARBINARY ->
          (from.is(LogicalTypeRoot.BINARY) || from.is(LogicalTypeRoot.VARBINARY))
              && LogicalTypeChecks.getLength(from) <= LogicalTypeChecks.getLength(to);
      // A shorter value into a fixed length would be padded: only the same length (handled above).
      case BINARY -> from instanceof BinaryType b && b.getLength() == ((BinaryType) to).getLength();
      case SMALLINT -> from.is(LogicalTypeRoot.TINYINT);
      case INTEGER -> from.is(LogicalTypeRoot.TINYINT) || from.is(LogicalTypeRoot.SMALLINT);
      case BIGINT ->
          from.is(LogicalTypeRoot.TINYINT)
              || from.is(LogicalTypeRoot.SMALLINT)
              || from.is(LogicalTypeRoot.INTEGER);
      case FLOAT -> from.is(LogicalTypeRoot.TINYINT) || from.is(LogicalTypeRoot.SMALLINT);
      case DOUBLE ->
          from.is(LogicalTypeRoot.TINYINT)
              || from.is(LogicalTypeRoot.SMALLINT)
              || from.is(LogicalTypeRoot.INTEGER)
              || from.is(LogicalTypeRoot.FLOAT);
      case DECIMAL -> decimalHolds(from, (DecimalType) to);
      case TIMESTAMP_WITHOUT_TIME_ZONE ->
          from instanceof TimestampType t
              && t.getPrecision() <= ((TimestampType) to).getPrecision();
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
          from instanceof LocalZonedTimestampType t
              && t.getPrecision() <= ((LocalZonedTimestampType) to).getPrecision();
      case ARRAY ->
          from instanceof ArrayType a
              && holds(a.getElementType(), ((ArrayType) to).getElementType());
      case MAP ->
          from instanceof MapType m
              && holds(m.getKeyType(), ((MapType) to).getKeyType())
              && holds(m.getValueType(), ((MapType) to).getValueType());
      case ROW -> rowHolds(from, (RowType) to);
      default -> false;
    };
  }

  /** Digits before and after the point, each at least the value's. */
  private static boolean decimalHolds(LogicalType from, DecimalType to) {
    int integerDigits = to.getPrecision() - to.getScale();
    return switch (from.getTypeRoot()) {
      case DECIMAL -> {
        DecimalType d = (DecimalType) from;
        yield d.getScale() <= to.getScale() && d.getPrecision() - d.getScale() <= integerDigits;
      }
      case TINYINT -> integerDigits >= 3;
      case SMALLINT -> integerDigits >= 5;
      case INTEGER -> integerDigits >= 10;
      case BIGINT -> integerDigits >= 19;
      default -> false;
    };
  }

  private static boolean rowHolds(LogicalType from, RowType to) {
    if (!(from instanceof RowType row) || row.getFieldCount() != to.getFieldCount()) {
      return false;
    }
    for (int i = 0; i < to.getFieldCount(); i++) {
      if (!holds(row.getTypeAt(i), to.getTypeAt(i))) {
        return false;
      }
    }
    return true;
  }
}
