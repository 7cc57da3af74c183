package dev.floe.flink.sql;

import dev.floe.catalog.error.CheckFailedException;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.flink.job.JobFailures;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Turns Flink's multi-line, nested failures into Floe's one-line messages. */
final class SqlErrors {

  // Calcite's position of the offending text, relative to the statement.
  private static final Pattern SPAN =
      Pattern.compile("From line (\\d+), column (\\d+) to line (\\d+), column (\\d+)");
  private static final int MAX_QUOTED_SPAN = 80;
  private static final int MAX_CONTINUATION = 300;

  private SqlErrors() {}

  /** The statement is wrong: exit code 2. */
  static InvalidInputException invalidStatement(
      String source, SqlStatement statement, Throwable failure) {
    String reason = statementReason(failure);
    String at = quotedSpan(reason, statement.text());
    return new InvalidInputException(
        prefix(source, statement) + reason + at + qualifyHint(reason, at), failure);
  }

  // An unqualified table name is looked up in the catalog's database "default", which a Floe
  // catalog does not have unless a namespace of that name was created.
  private static final String UNQUALIFIED_NOT_FOUND = "Object 'default' not found within";
  private static final String QUALIFY =
      "; name the table as namespace.table, or USE a namespace first";
  private static final String QUOTE_APART =
      "; quote the namespace and the table apart, as `namespace`.`table`";

  /**
   * For a table name of one part, looked up in database "default": how to name it. A name of two
   * parts ({@code `default`.t}) names a namespace, which does not exist: no hint.
   */
  private static String qualifyHint(String reason, String at) {
    if (!reason.contains(UNQUALIFIED_NOT_FOUND) || !at.startsWith(" (at '")) {
      return "";
    }
    String name = at.substring(" (at '".length(), at.length() - "')".length());
    boolean quoted = false;
    for (char c : name.toCharArray()) {
      if (c == '`') {
        quoted = !quoted;
      } else if (c == '.' && !quoted) {
        return ""; // namespace.table
      }
    }
    return name.contains(".") ? QUOTE_APART : QUALIFY; // `sales.fact_orders` is one name
  }

  /**
   * The planner refused a {@code DELETE} or {@code UPDATE} because the table's sink changes no
   * single rows: exit 2. For an Iceberg table the message says how its rows change instead.
   */
  static InvalidInputException rowLevelChangeRefused(
      String source, SqlStatement statement, Throwable failure, boolean iceberg, boolean delete) {
    String instead = !iceberg ? "" : delete ? REMOVE_ICEBERG_ROWS : CHANGE_ICEBERG_ROWS;
    return new InvalidInputException(
        prefix(source, statement) + oneLine(failure) + instead, failure);
  }

  // INSERT OVERWRITE is no way to delete: a partition its query leaves empty keeps its rows.
  private static final String REMOVE_ICEBERG_ROWS =
      " To remove rows, rewrite their slice with a floe run overwrite, which also empties a slice;"
          + " INSERT OVERWRITE replaces only the partitions its query writes rows to";
  private static final String CHANGE_ICEBERG_ROWS =
      " To change rows, rewrite their slice with a floe run overwrite, or merge them by key with"
          + " floe run";

  /**
   * Whether {@code e} is {@code new BigDecimal(double)} refusing a NaN or an infinity: Flink's
   * planner folds a constant such as {@code CAST('NaN' AS FLOAT)} through a BigDecimal.
   */
  static boolean isNonFiniteConstant(NumberFormatException e) {
    return "Infinite or NaN".equals(e.getMessage());
  }

  /** A NaN or infinite FLOAT or DOUBLE constant the planner could not fold: exit 2. */
  static InvalidInputException nonFiniteConstant(
      String source, SqlStatement statement, NumberFormatException e) {
    return new InvalidInputException(
        prefix(source, statement)
            + "Flink's planner cannot fold a NaN or infinite constant (such as CAST('NaN' AS"
            + " FLOAT)); cast a column instead, e.g. SELECT CAST(v AS FLOAT) FROM (VALUES"
            + " ('NaN')) AS t(v), where no row of the VALUES holds an expression (the planner"
            + " folds such a VALUES too), or read the text from a table",
        e);
  }

  /**
   * Running the statement failed: exit 2 when the statement's own expressions could not be computed
   * (a constant the planner folds, {@code 1 / 0}; a value a task cannot cast), as {@code floe run}
   * reports such a query, or when Iceberg refused one of its read options ({@link
   * JobFailures#causedByTheQuery}); otherwise exit 1 with the root cause.
   */
  static RuntimeException failed(String source, SqlStatement statement, Throwable failure) {
    if (JobFailures.findFloeException(failure) instanceof CheckFailedException refused) {
      // A value the table's files cannot hold exactly (GuardedSinks): exit 3, nothing committed.
      return new CheckFailedException(prefix(source, statement) + refused.getMessage());
    }
    Optional<String> queryError = JobFailures.causedByTheQuery(failure);
    if (queryError.isPresent()) {
      return new InvalidInputException(prefix(source, statement) + queryError.get(), failure);
    }
    Optional<String> rowTooLarge = rowTooLarge(failure);
    if (rowTooLarge.isPresent()) {
      return new InvalidInputException(prefix(source, statement) + rowTooLarge.get(), failure);
    }
    return statementFailed(source, statement, failure);
  }

  // Flink's collect sink, which brings a query's rows to floe sql, refuses a row over its batch.
  private static final Pattern ROW_TOO_LARGE =
      Pattern.compile(
          "Record size is too large for CollectSinkFunction\\. Record size is (\\d+) bytes, but"
              + " max bytes per batch is only (\\d+) bytes");

  /**
   * A result row larger than Flink's collect sink takes: Flink's own advice (set {@code
   * collect-sink.batch-size.max}) names a SET that floe sql refuses, so the reason says what to do
   * instead. Exit 2: the statement asks for more than floe sql shows, nothing failed.
   */
  private static Optional<String> rowTooLarge(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      Matcher m = t.getMessage() == null ? null : ROW_TOO_LARGE.matcher(t.getMessage());
      if (m != null && m.find()) {
        return Optional.of(
            String.format(
                "a result row is %s bytes, more than the %s bytes floe sql shows in one row;"
                    + " select a part of the long values (e.g. SUBSTRING(v, 1, 1000) or"
                    + " CHAR_LENGTH(v)) or fewer columns",
                m.group(1), m.group(2)));
      }
    }
    return Optional.empty();
  }

  /**
   * The statement was accepted but running it failed; the root cause is what the user can act on (a
   * cast that fails on a value, an unreachable file system).
   */
  private static IllegalStateException statementFailed(
      String source, SqlStatement statement, Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return new IllegalStateException(prefix(source, statement) + oneLine(root), failure);
  }

  /** {@code Cannot run SQL statement N (line L of <source>): }, in front of every reason. */
  static String prefix(String source, SqlStatement statement) {
    return "Cannot " + action(source, statement) + ": ";
  }

  /**
   * {@code run SQL statement N (line L of <source>)}: what a check of catalog-config refuses
   * ({@code Cannot <action>: ...}).
   */
  static String action(String source, SqlStatement statement) {
    return String.format(
        "run SQL statement %d (line %d of %s)", statement.number(), statement.line(), source);
  }

  /**
   * Flink's "Could not execute CreateTable in path ..." wrappers say which operation failed, which
   * the user knows already; the reason is in the cause.
   */
  private static String statementReason(Throwable failure) {
    String message = failure.getMessage();
    Throwable cause = failure.getCause();
    if (message != null
        && message.startsWith("Could not execute")
        && cause != null
        && cause.getMessage() != null) {
      return oneLine(cause);
    }
    return oneLine(failure);
  }

  /**
   * The first line of the message; when that line only introduces what follows (ends with ':'), the
   * following lines are joined on, within limits (parser errors list every expected token).
   */
  static String oneLine(Throwable failure) {
    String message = failure.getMessage();
    if (message == null || message.isBlank()) {
      return failure.getClass().getSimpleName();
    }
    String[] lines = message.strip().split("\\R");
    StringBuilder result = new StringBuilder(lines[0].strip());
    for (int i = 1; i < lines.length && result.toString().endsWith(":"); i++) {
      String line = lines[i].strip();
      if (!line.isEmpty()) {
        if (result.length() + line.length() > MAX_CONTINUATION) {
          break;
        }
        result.append(' ').append(line);
      }
    }
    return result.toString();
  }

  /**
   * Calcite names only the first unresolved part of an identifier ("Object 'sales' not found" for
   * {@code sales.nope}), so the text at the reported position is added when the message lacks it.
   */
  private static String quotedSpan(String reason, String statementText) {
    Matcher matcher = SPAN.matcher(reason);
    if (!matcher.find()) {
      return "";
    }
    String span =
        textBetween(
            statementText,
            Integer.parseInt(matcher.group(1)),
            Integer.parseInt(matcher.group(2)),
            Integer.parseInt(matcher.group(3)),
            Integer.parseInt(matcher.group(4)));
    if (span == null || span.length() > MAX_QUOTED_SPAN || reason.contains("'" + span + "'")) {
      return "";
    }
    return " (at '" + span + "')";
  }

  /** 1-based, end column inclusive; null when the position does not fit the text. */
  private static String textBetween(
      String text, int fromLine, int fromColumn, int toLine, int toColumn) {
    int from = offset(text, fromLine, fromColumn);
    int to = offset(text, toLine, toColumn);
    if (from < 0 || to < from || to >= text.length()) {
      return null;
    }
    return text.substring(from, to + 1).replaceAll("\\s+", " ").strip();
  }

  private static int offset(String text, int line, int column) {
    int lineStart = 0;
    for (int current = 1; current < line; current++) {
      lineStart = text.indexOf('\n', lineStart) + 1;
      if (lineStart == 0) {
        return -1;
      }
    }
    int lineEnd = text.indexOf('\n', lineStart);
    int offset = lineStart + column - 1;
    return column < 1 || offset >= (lineEnd < 0 ? text.length() : lineEnd) ? -1 : offset;
  }
}
