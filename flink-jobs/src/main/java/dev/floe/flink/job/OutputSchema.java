package dev.floe.flink.job;

import static org.apache.flink.table.api.Expressions.$;

import dev.floe.catalog.error.InvalidInputException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

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
                + " (CAST it in the query)");
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

  private static String hintForCase(String name, RowType target) {
    return target.getFieldNames().stream()
        .filter(n -> n.equalsIgnoreCase(name))
        .findFirst()
        .map(n -> " (did you mean " + n + "?)")
        .orElse("");
  }
}
