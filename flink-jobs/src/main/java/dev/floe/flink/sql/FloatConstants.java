package dev.floe.flink.sql;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.flink.job.QueryInspector;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
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
 * written or shown with a value other than the one written. Not seen: a constant that reaches the
 * cast through a subquery, a CTE or a view ({@code CAST(x AS FLOAT) FROM (SELECT 16777.217 AS x)}),
 * which the optimizer folds after this check.
 */
final class FloatConstants {
  private static final Pattern NUMBER =
      Pattern.compile("[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?");
  private static final Pattern NUMBER_AT =
      Pattern.compile("([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?");

  private FloatConstants() {}

  /**
   * @throws InvalidInputException naming the first FLOAT constant of the statement's query that
   *     rounding to 7 significant digits changes
   */
  static void requireExact(String source, SqlStatement statement, Operation operation) {
    QueryOperation query = queryOf(operation);
    if (query == null) {
      return;
    }
    Set<String> constants = new LinkedHashSet<>(QueryInspector.inspect(query).floatConstants());
    // A constant expression cast to FLOAT (CAST('16777.217' AS FLOAT), CAST(TRIM(' 1.5 ') AS
    // FLOAT)) is folded to 7 digits while the statement is converted, before the plan shows it
    // (1.677722E4:FLOAT there): those casts are read from the statement.
    for (String constant : constantsCastToFloat(statement.text())) {
      if (!NUMBER.matcher(constant).matches()) {
        throw new InvalidInputException(
            SqlErrors.prefix(source, statement)
                + String.format(
                    "Flink's planner folds the constant expression %s cast to FLOAT keeping 7"
                        + " significant digits, which may change the value; cast text that is not"
                        + " a constant, e.g. SELECT CAST(v AS FLOAT) FROM (VALUES ('1.5')) AS"
                        + " t(v), or use a DOUBLE column",
                    constant));
      }
      constants.add(constant);
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

  /** The query a statement runs (an INSERT's, a CREATE TABLE AS's, a SELECT), or null. */
  static QueryOperation queryOf(Operation operation) {
    return operation instanceof ModifyOperation modify
        ? modify.getChild()
        : operation instanceof QueryOperation q ? q : null;
  }

  /**
   * What Flink's planner may fold inside the {@code CAST(... AS FLOAT)} and {@code TRY_CAST} of
   * {@code sql} whose operand is a constant (no column in it; comments and text literals are not
   * read as SQL): a single number, bare or alone in a text literal, as itself; any other constant
   * expression, such as {@code 16777.2 + 0.017}, {@code PI()} or {@code TRIM(' 16777.217 ')}, as
   * its text, which Floe cannot evaluate as Flink would. A lone text that is no number and a lone
   * NULL are left to Flink.
   */
  static Set<String> constantsCastToFloat(String sql) {
    List<Token> tokens = Token.lex(sql);
    Set<String> found = new LinkedHashSet<>();
    for (int i = 0; i + 1 < tokens.size(); i++) {
      Token word = tokens.get(i);
      if (!word.isWord("CAST") && !word.isWord("TRY_CAST") || !tokens.get(i + 1).is("(")) {
        continue;
      }
      int depth = 0;
      int as = -1;
      int end = -1;
      for (int k = i + 1; k < tokens.size() && end < 0; k++) {
        Token t = tokens.get(k);
        if (t.is("(")) {
          depth++;
        } else if (t.is(")") && --depth == 0) {
          end = k;
        } else if (depth == 1 && t.isWord("AS")) {
          as = k;
        }
      }
      if (end < 0 || as < 0 || as + 2 != end || !tokens.get(as + 1).isWord("FLOAT")) {
        continue;
      }
      List<Token> operand = tokens.subList(i + 2, as);
      if (!constant(operand)) {
        continue;
      }
      Optional<String> single = singleNumber(operand);
      boolean lone =
          operand.size() == 1
              && (operand.get(0).kind() == Token.Kind.TEXT || operand.get(0).isWord("NULL"));
      if (single.isPresent()) {
        found.add(single.get());
      } else if (!lone) {
        // PI(), 16777.2 + 0.017, TRIM(' 1.5 '): folded as Flink computes it, which Floe cannot
        // repeat. A lone text that is no number ('NaN', 'abc') Flink refuses or computes itself.
        found.add(sql.substring(operand.get(0).start(), operand.get(operand.size() - 1).end()));
      }
    }
    return found;
  }

  /** No column in it: every word is a function called or a keyword, no quoted identifier. */
  private static boolean constant(List<Token> operand) {
    for (int k = 0; k < operand.size(); k++) {
      Token t = operand.get(k);
      boolean called = k + 1 < operand.size() && operand.get(k + 1).is("(");
      if (t.kind() == Token.Kind.QUOTED_NAME
          || t.kind() == Token.Kind.WORD && !called && !KEYWORDS.contains(t.upper())) {
        return false;
      }
    }
    return !operand.isEmpty();
  }

  /** {@code 1.5}, {@code -1.5} or {@code ' 1.5 '}: the number; else empty. */
  private static Optional<String> singleNumber(List<Token> operand) {
    String sign = "";
    List<Token> rest = operand;
    if (rest.size() == 2 && (rest.get(0).is("-") || rest.get(0).is("+"))) {
      sign = rest.get(0).text().equals("-") ? "-" : "";
      rest = rest.subList(1, 2);
    }
    if (rest.size() != 1) {
      return Optional.empty();
    }
    Token t = rest.get(0);
    if (t.kind() == Token.Kind.NUMBER) {
      return Optional.of(sign + t.text());
    }
    if (t.kind() == Token.Kind.TEXT && sign.isEmpty() && t.numeric()) {
      return Optional.of(t.text().trim());
    }
    return Optional.empty();
  }

  /** Words that are no column: literals, types and the operators spelled as words. */
  private static final Set<String> KEYWORDS =
      Set.of(
          "NULL",
          "TRUE",
          "FALSE",
          "UNKNOWN",
          "AND",
          "OR",
          "NOT",
          "IS",
          "CASE",
          "WHEN",
          "THEN",
          "ELSE",
          "END",
          "AS",
          "INTERVAL",
          "DATE",
          "TIME",
          "TIMESTAMP",
          "STRING",
          "VARCHAR",
          "CHAR",
          "DOUBLE",
          "FLOAT",
          "INT",
          "INTEGER",
          "BIGINT",
          "SMALLINT",
          "TINYINT",
          "DECIMAL",
          "BOOLEAN",
          "PRECISION",
          "DAY",
          "HOUR",
          "MINUTE",
          "SECOND",
          "MONTH",
          "YEAR",
          "LEADING",
          "TRAILING",
          "BOTH",
          "FROM",
          "FOR");

  /** A token of SQL text; comments are dropped, text literals keep their content. */
  private record Token(Kind kind, String text, int start, int end) {
    enum Kind {
      WORD,
      QUOTED_NAME,
      NUMBER,
      TEXT,
      SYMBOL
    }

    boolean is(String symbol) {
      return kind == Kind.SYMBOL && text.equals(symbol);
    }

    boolean isWord(String word) {
      return kind == Kind.WORD && text.equalsIgnoreCase(word);
    }

    String upper() {
      return text.toUpperCase(java.util.Locale.ROOT);
    }

    /** A number, or a text literal holding one (surrounding blanks aside). */
    boolean numeric() {
      return kind == Kind.NUMBER || kind == Kind.TEXT && NUMBER.matcher(text.trim()).matches();
    }

    /** {@code U&'...'}, a text literal with unicode escapes. */
    private static boolean unicodeText(String sql, int i) {
      return (sql.charAt(i) == 'U' || sql.charAt(i) == 'u')
          && sql.startsWith("&'", i + 1)
          && (i == 0 || !Character.isLetterOrDigit(sql.charAt(i - 1)));
    }

    static List<Token> lex(String sql) {
      List<Token> tokens = new ArrayList<>();
      int i = 0;
      int n = sql.length();
      while (i < n) {
        char c = sql.charAt(i);
        if (Character.isWhitespace(c)) {
          i++;
        } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
          int eol = sql.indexOf('\n', i);
          i = eol < 0 ? n : eol + 1;
        } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
          int close = sql.indexOf("*/", i + 2);
          i = close < 0 ? n : close + 2;
        } else if (c == '\'' || c == '`' || unicodeText(sql, i)) {
          int open = c == '\'' || c == '`' ? i : i + 2; // U&'...': a text, its escapes kept
          char quote = sql.charAt(open);
          StringBuilder text = new StringBuilder();
          int k = open + 1;
          while (k < n) {
            if (sql.charAt(k) == quote) {
              if (k + 1 < n && sql.charAt(k + 1) == quote) {
                text.append(quote);
                k += 2;
                continue;
              }
              break;
            }
            text.append(sql.charAt(k++));
          }
          int end = Math.min(k + 1, n);
          tokens.add(
              new Token(quote == '`' ? Kind.QUOTED_NAME : Kind.TEXT, text.toString(), i, end));
          i = end;
        } else if (Character.isDigit(c)
            || c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))) {
          Matcher number = NUMBER_AT.matcher(sql).region(i, n);
          int end = number.lookingAt() ? number.end() : i + 1;
          tokens.add(new Token(Kind.NUMBER, sql.substring(i, end), i, end));
          i = end;
        } else if (Character.isLetter(c) || c == '_' || c == '$') {
          int k = i + 1;
          while (k < n
              && (Character.isLetterOrDigit(sql.charAt(k))
                  || sql.charAt(k) == '_'
                  || sql.charAt(k) == '$')) {
            k++;
          }
          tokens.add(new Token(Kind.WORD, sql.substring(i, k), i, k));
          i = k;
        } else {
          tokens.add(new Token(Kind.SYMBOL, String.valueOf(c), i, i + 1));
          i++;
        }
      }
      return tokens;
    }
  }

  /** The 7-digit value when it is another float than {@code constant}'s; else empty. */
  static Optional<String> roundedByThePlanner(String constant) {
    BigDecimal value;
    try {
      value = new BigDecimal(constant);
    } catch (NumberFormatException e) {
      return Optional.empty(); // an exponent past any float: Flink refuses the infinity itself
    }
    BigDecimal rounded = value.round(MathContext.DECIMAL32);
    float exact = Float.parseFloat(constant);
    float planned = Float.parseFloat(rounded.toString());
    return Float.floatToIntBits(exact) == Float.floatToIntBits(planned)
        ? Optional.empty()
        : Optional.of(rounded.stripTrailingZeros().toString());
  }
}
