package dev.floe.flink.job;

import static org.apache.flink.table.api.Expressions.$;

import dev.floe.catalog.error.InvalidInputException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.table.types.logical.utils.LogicalTypeCasts;

/**
 * Checks that a query's output matches the target table column for column (names and types) and
 * puts its columns in the table's order. Types must be equal, not merely castable: a silent
 * narrowing cast is how a decimal loses its cents. Nullability is checked on the data instead (a
 * NULL into a required column fails the run), because Flink rarely infers NOT NULL for columns a
 * query filters.
 */
final class OutputSchema {

  private OutputSchema() {}

  static Table align(Table query, RowType target, String targetName, String source) {
    ResolvedSchema schema = query.getResolvedSchema();
    List<String> names = schema.getColumnNames();
    List<String> problems = new ArrayList<>();
    for (String name : names) {
      if (!target.getFieldNames().contains(name)) {
        problems.add("column " + name + " is not in " + targetName + hintForCase(name, target));
      }
    }
    for (RowType.RowField field : target.getFields()) {
      int index = names.indexOf(field.getName());
      if (index < 0) {
        problems.add("column " + field.getName() + " of " + targetName + " is missing");
        continue;
      }
      Column column = schema.getColumns().get(index);
      LogicalType actual = column.getDataType().getLogicalType().copy(true);
      LogicalType expected = field.getType().copy(true);
      if (!actual.equals(expected) && !isLosslessStringWidening(actual, expected)) {
        problems.add(
            "column "
                + field.getName()
                + " is "
                + actual.asSummaryString()
                + ", "
                + targetName
                + " expects "
                + expected.asSummaryString()
                + castHint(actual, expected));
      }
    }
    if (!problems.isEmpty()) {
      throw InvalidInputException.of(
          "Cannot write the query result of %s to %s: %s",
          source, targetName, String.join("; ", problems));
    }
    if (names.equals(target.getFieldNames())) {
      return query;
    }
    Expression[] ordered =
        target.getFieldNames().stream().map(n -> $(n)).toArray(Expression[]::new);
    return query.select(ordered);
  }

  /** A literal like 'eu' is CHAR(2) in Flink; into a STRING column it loses nothing. */
  private static boolean isLosslessStringWidening(LogicalType actual, LogicalType expected) {
    return expected.equals(new VarCharType(true, VarCharType.MAX_LENGTH))
        && (actual instanceof VarCharType || actual instanceof CharType);
  }

  /**
   * A widening cast loses nothing; a narrowing one, in Flink, changes a value that does not fit
   * without an error: 1234567890.12 into DECIMAL(10, 2) becomes NULL, 1.005 into DECIMAL(10, 2)
   * 1.01, a TIMESTAMP(6) loses its microseconds.
   */
  private static String castHint(LogicalType actual, LogicalType expected) {
    return isWidening(actual, expected)
        ? " (CAST it in the query)"
        : " (a narrowing CAST in the query changes values that do not fit without an error: they"
            + " wrap around, become NULL or Infinity, or lose digits; check them first)";
  }

  /** Whether every value of {@code actual} has an exact value of {@code expected}. */
  static boolean isWidening(LogicalType actual, LogicalType expected) {
    if (!LogicalTypeCasts.supportsImplicitCast(actual, expected)) {
      return false;
    }
    if (actual instanceof DecimalType from && expected instanceof DecimalType to) {
      return to.getScale() >= from.getScale()
          && to.getPrecision() - to.getScale() >= from.getPrecision() - from.getScale();
    }
    if ((actual instanceof TimestampType || actual instanceof LocalZonedTimestampType)
        && (expected instanceof DateType || expected instanceof TimeType)) {
      return false; // drops the time of day, or the date
    }
    if (expected instanceof DecimalType to) {
      // An integer type fits when the decimal has its digits before the point.
      return to.getPrecision() - to.getScale() >= integerDigits(actual);
    }
    if (expected instanceof FloatType || expected instanceof DoubleType) {
      // Not every value has an exact binary fraction: INT into FLOAT, BIGINT into DOUBLE.
      return !(actual instanceof DecimalType
          || actual instanceof BigIntType
          || (actual instanceof IntType && expected instanceof FloatType));
    }
    if (actual instanceof BinaryType from && expected instanceof BinaryType to) {
      return from.getLength() == to.getLength(); // a longer BINARY pads the value
    }
    return size(expected) >= size(actual);
  }

  /** The decimal digits an integer type's values need; a large number for any other type. */
  private static int integerDigits(LogicalType type) {
    if (type instanceof TinyIntType) {
      return 3;
    }
    if (type instanceof SmallIntType) {
      return 5;
    }
    if (type instanceof IntType) {
      return 10;
    }
    if (type instanceof BigIntType) {
      return 19;
    }
    return Integer.MAX_VALUE;
  }

  /** A timestamp's or time's digits of a second, a string's or binary's length; else 0. */
  private static int size(LogicalType type) {
    if (type instanceof TimestampType t) {
      return t.getPrecision();
    }
    if (type instanceof LocalZonedTimestampType t) {
      return t.getPrecision();
    }
    if (type instanceof TimeType t) {
      return t.getPrecision();
    }
    if (type instanceof VarCharType t) {
      return t.getLength();
    }
    if (type instanceof CharType t) {
      return t.getLength();
    }
    if (type instanceof VarBinaryType t) {
      return t.getLength();
    }
    if (type instanceof BinaryType t) {
      return t.getLength();
    }
    return 0;
  }

  private static String hintForCase(String name, RowType target) {
    return target.getFieldNames().stream()
        .filter(n -> n.equalsIgnoreCase(name))
        .findFirst()
        .map(n -> " (did you mean " + n + "?)")
        .orElse("");
  }
}
