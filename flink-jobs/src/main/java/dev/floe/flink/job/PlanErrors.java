package dev.floe.flink.job;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns Flink's planning errors into what a user needs to fix the query. Flink names only the first
 * part of a table it cannot find ({@code Object 'sales' not found} for a misspelt {@code
 * sales.staging_ordrs}), with the position of the whole name: the name is read back from there.
 */
final class PlanErrors {
  private static final Pattern NOT_FOUND =
      Pattern.compile(
          "From line (\\d+), column (\\d+) to line (\\d+), column (\\d+): Object '[^']*' not found");

  private PlanErrors() {}

  /**
   * @param query the query as it was planned (slice parameters bound)
   * @param firstLine the first line of Flink's message
   */
  static String describe(String query, String firstLine) {
    Matcher m = NOT_FOUND.matcher(firstLine);
    if (!m.find()) {
      return firstLine;
    }
    int line = Integer.parseInt(m.group(1));
    int column = Integer.parseInt(m.group(2));
    String name =
        text(query, line, column, Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)));
    if (name == null) {
      return firstLine;
    }
    return String.format("table %s does not exist (line %d, column %d)", name, line, column)
        + (unquotedParts(name) > 2 ? NESTED : "");
  }

  // Flink reads a.b.c as catalog a, database b, table c: a nested namespace is one quoted name.
  private static final String NESTED =
      "; a table in a nested namespace is named with the namespace quoted as one name, e.g."
          + " `team.sub`.events";

  /** How many parts Flink reads in {@code name}: dots inside backticks do not separate. */
  private static int unquotedParts(String name) {
    int parts = 1;
    boolean quoted = false;
    for (char c : name.toCharArray()) {
      if (c == '`') {
        quoted = !quoted;
      } else if (c == '.' && !quoted) {
        parts++;
      }
    }
    return parts;
  }

  /** The query's text between two 1-based positions (inclusive), or null if out of range. */
  private static String text(String query, int fromLine, int fromColumn, int toLine, int toColumn) {
    if (fromLine != toLine) {
      return null;
    }
    String[] lines = query.split("\n", -1);
    if (fromLine < 1 || fromLine > lines.length) {
      return null;
    }
    String text = lines[fromLine - 1];
    if (fromColumn < 1 || toColumn > text.length() || fromColumn > toColumn) {
      return null;
    }
    return text.substring(fromColumn - 1, toColumn);
  }
}
