package dev.floe.flink.sql;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.flink.job.QueryInspector;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.table.operations.ModifyOperation;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.operations.QueryOperation;

/**
 * FLOAT constants Flink's planner may change. When it folds one (a {@code VALUES} row, a union of
 * rows of different types, a cast of text such as {@code CAST('16777.217' AS FLOAT)}) Calcite keeps
 * it to 7 significant digits ({@code RexBuilder} cleans a FLOAT value with {@code
 * MathContext.DECIMAL32}), while a float needs up to 9 to be told apart: {@code CAST(16777.217 AS
 * FLOAT)} is then stored as 16777.220703125, not 16777.216796875, and a query shows it so. A
 * statement with a constant that 7 digits change is refused (exit 2) before it runs: nothing is
 * written or shown with a value other than the one written.
 */
final class FloatConstants {
  private static final Pattern TEXT_CAST =
      Pattern.compile("(?i)CAST\\s*\\(\\s*'([^']*)'\\s+AS\\s+FLOAT\\s*\\)");
  private static final Pattern NUMBER =
      Pattern.compile("[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?");

  private FloatConstants() {}

  /**
   * @throws InvalidInputException naming the first FLOAT constant of the statement's query that
   *     rounding to 7 significant digits changes
   */
  static void requireExact(String source, SqlStatement statement, Operation operation) {
    QueryOperation query =
        operation instanceof ModifyOperation modify
            ? modify.getChild()
            : operation instanceof QueryOperation q ? q : null;
    if (query == null) {
      return;
    }
    Set<String> constants = new LinkedHashSet<>(QueryInspector.inspect(query).floatConstants());
    // The text form is folded to 7 digits while the statement is converted, before the plan shows
    // it (CAST('16777.217' AS FLOAT) is 1.677722E4:FLOAT there): read it from the statement. A
    // comment or a string that holds such a cast is refused too, which errs on the safe side.
    Matcher text = TEXT_CAST.matcher(statement.text());
    while (text.find()) {
      String value = text.group(1).trim();
      if (NUMBER.matcher(value).matches()) {
        constants.add(value);
      }
    }
    for (String constant : constants) {
      Optional<String> rounded = roundedByThePlanner(constant);
      if (rounded.isPresent()) {
        throw new InvalidInputException(
            SqlErrors.prefix(source, statement)
                + String.format(
                    "Flink's planner may round the FLOAT constant %s to 7 significant digits (%s)"
                        + " when it folds it, which changes the value; cast text that is not a"
                        + " constant, e.g. SELECT CAST(v AS FLOAT) FROM (VALUES ('%s')) AS t(v),"
                        + " or use a DOUBLE column",
                    constant, rounded.get(), constant));
      }
    }
  }

  /** The 7-digit value when it is another float than {@code constant}'s; else empty. */
  static Optional<String> roundedByThePlanner(String constant) {
    BigDecimal value = new BigDecimal(constant);
    BigDecimal rounded = value.round(MathContext.DECIMAL32);
    float exact = Float.parseFloat(constant);
    float planned = Float.parseFloat(rounded.toString());
    return Float.floatToIntBits(exact) == Float.floatToIntBits(planned)
        ? Optional.empty()
        : Optional.of(rounded.stripTrailingZeros().toString());
  }
}
