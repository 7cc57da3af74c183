package dev.floe.flink.sql;

import dev.floe.catalog.error.InvalidInputException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.operations.SinkModifyOperation;
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
 */
final class LosslessInsert {
  private LosslessInsert() {}

  /**
   * @throws InvalidInputException when a column of {@code insert}'s table would get its value by a
   *     conversion that may change it
   */
  static void require(String source, SqlStatement statement, SinkModifyOperation insert) {
    if (insert.isDelete() || insert.isUpdate()) {
      return;
    }
    List<Column> target =
        insert.getContextResolvedTable().getResolvedSchema().getColumns().stream()
            .filter(Column::isPhysical)
            .toList();
    ResolvedSchema given = insert.getChild().getResolvedSchema();
    if (given.getColumnCount() != target.size()) {
      return; // Flink's own validation names a column count that does not match
    }
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < target.size(); i++) {
      LogicalType from = given.getColumnDataTypes().get(i).getLogicalType();
      LogicalType to = target.get(i).getDataType().getLogicalType();
      if (!holds(from, to)) {
        problems.add(
            "column "
                + target.get(i).getName()
                + " is "
                + to.copy(true).asSummaryString()
                + " and the statement gives it "
                + from.copy(true).asSummaryString());
      }
    }
    if (!problems.isEmpty()) {
      throw new InvalidInputException(
          SqlErrors.prefix(source, statement)
              + "Cannot insert into "
              + insert.getContextResolvedTable().getIdentifier().asSummaryString()
              + " without changing values: "
              + String.join("; ", problems)
              + " (Flink would round, cut or null such values; CAST them in the statement if"
              + " that is meant)");
    }
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
