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
  private static final Pattern CAST = Pattern.compile("(?i)\\bCAST\\s*\\(");
  private static final Pattern AS_FLOAT = Pattern.compile("(?is)(.*)\\bAS\\s+FLOAT\\s*");
  private static final Pattern NUMBER =
      Pattern.compile("[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?");
  private static final Pattern NUMBER_IN_TEXT =
      Pattern.compile("(?<![\\w.])[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?(?![\\w.])");

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
    // A constant expression cast to FLOAT (CAST('16777.217' AS FLOAT), CAST(TRIM(' 1.5 ') AS
    // FLOAT)) is folded to 7 digits while the statement is converted, before the plan shows it
    // (1.677722E4:FLOAT there): the numbers inside such a cast are read from the statement. One
    // in a comment is read too, which errs on the safe side.
    constants.addAll(numbersCastToFloat(statement.text()));
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

  /**
   * The numbers written inside the operand of each {@code CAST(... AS FLOAT)} of {@code sql}: bare,
   * or alone in a string literal (surrounding blanks aside).
   */
  static Set<String> numbersCastToFloat(String sql) {
    Set<String> numbers = new LinkedHashSet<>();
    Matcher cast = CAST.matcher(sql);
    while (cast.find()) {
      int end = closingParenthesis(sql, cast.end());
      if (end < 0) {
        continue;
      }
      Matcher asFloat = AS_FLOAT.matcher(sql.substring(cast.end(), end));
      if (!asFloat.matches()) {
        continue;
      }
      String operand = asFloat.group(1);
      StringBuilder bare = new StringBuilder();
      for (int i = 0; i < operand.length(); i++) {
        char c = operand.charAt(i);
        if (c != '\'') {
          bare.append(c);
          continue;
        }
        int close = i + 1;
        StringBuilder literal = new StringBuilder();
        while (close < operand.length()) {
          if (operand.charAt(close) == '\'') {
            if (close + 1 < operand.length() && operand.charAt(close + 1) == '\'') {
              literal.append('\'');
              close += 2;
              continue;
            }
            break;
          }
          literal.append(operand.charAt(close++));
        }
        String text = literal.toString().trim();
        if (NUMBER.matcher(text).matches()) {
          numbers.add(text);
        }
        bare.append(' ');
        i = close;
      }
      Matcher number = NUMBER_IN_TEXT.matcher(bare);
      while (number.find()) {
        numbers.add(number.group());
      }
    }
    return numbers;
  }

  /** The index of the ')' closing the '(' before {@code from}, past quotes; -1 when none. */
  private static int closingParenthesis(String sql, int from) {
    int depth = 1;
    boolean quoted = false;
    for (int i = from; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c == '\'') {
        quoted = !quoted; // '' inside a literal flips twice
      } else if (!quoted && c == '(') {
        depth++;
      } else if (!quoted && c == ')' && --depth == 0) {
        return i;
      }
    }
    return -1;
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
