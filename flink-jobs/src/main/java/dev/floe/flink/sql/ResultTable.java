package dev.floe.flink.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The text form of {@code floe sql} results: an aligned table with a row-count footer for rows,
 * {@code OK} otherwise. Numbers are right-aligned, SQL NULL reads {@code NULL}, a value spanning
 * several lines (EXPLAIN, SHOW CREATE TABLE) keeps its lines.
 */
public final class ResultTable {

  private static final String COLUMN_SEPARATOR = " | ";
  private static final Pattern TRAILING_LINE_BREAKS = Pattern.compile("\\R+$");

  private ResultTable() {}

  /** All results, separated by a blank line. */
  public static String render(List<? extends StatementResult> results) {
    return results.stream().map(ResultTable::render).collect(Collectors.joining("\n\n"));
  }

  /** One result, without a trailing newline. */
  public static String render(StatementResult result) {
    if (result instanceof QueryResult query) {
      return render(query);
    }
    if (result instanceof InsertResult) {
      return "OK (job finished)";
    }
    return "OK";
  }

  private static String render(QueryResult query) {
    return render(query.columnNames(), query.rows());
  }

  /** Any rows under a header (e.g. `floe snapshots`), in the same form as query results. */
  public static String render(List<String> columnNames, List<List<Object>> rows) {
    int columnCount = columnNames.size();
    List<List<String[]>> cells = new ArrayList<>();
    for (List<Object> row : rows) {
      cells.add(row.stream().map(ResultTable::lines).toList());
    }
    int[] widths = new int[columnCount];
    boolean[] numeric = new boolean[columnCount];
    for (int column = 0; column < columnCount; column++) {
      widths[column] = width(columnNames.get(column));
      numeric[column] = isNumeric(rows, column);
      for (List<String[]> row : cells) {
        for (String line : row.get(column)) {
          widths[column] = Math.max(widths[column], width(line));
        }
      }
    }

    StringBuilder out = new StringBuilder();
    appendLine(out, columnNames, widths, numeric);
    List<String> rules = new ArrayList<>();
    for (int width : widths) {
      rules.add("-".repeat(width));
    }
    out.append(String.join("-+-", rules)).append('\n');
    for (List<String[]> row : cells) {
      int height = row.stream().mapToInt(lines -> lines.length).max().orElse(1);
      for (int lineIndex = 0; lineIndex < height; lineIndex++) {
        List<String> line = new ArrayList<>();
        for (String[] lines : row) {
          line.add(lineIndex < lines.length ? lines[lineIndex] : "");
        }
        appendLine(out, line, widths, numeric);
      }
    }
    out.append(footer(rows.size()));
    return out.toString();
  }

  /** EXPLAIN's text ends with blank lines, which would only pad the table. */
  private static String[] lines(Object value) {
    return TRAILING_LINE_BREAKS.matcher(SqlValues.text(value)).replaceFirst("").split("\\R", -1);
  }

  static String footer(int rowCount) {
    return rowCount == 1 ? "(1 row)" : "(" + rowCount + " rows)";
  }

  private static void appendLine(
      StringBuilder out, List<String> values, int[] widths, boolean[] rightAligned) {
    List<String> padded = new ArrayList<>();
    for (int column = 0; column < values.size(); column++) {
      String value = values.get(column);
      String padding = " ".repeat(widths[column] - width(value));
      padded.add(rightAligned[column] ? padding + value : value + padding);
    }
    out.append(String.join(COLUMN_SEPARATOR, padded).stripTrailing()).append('\n');
  }

  /** A column is numeric when every non-NULL value in it is a number. */
  private static boolean isNumeric(List<List<Object>> rows, int column) {
    boolean anyNumber = false;
    for (List<Object> row : rows) {
      Object value = row.get(column);
      if (value != null && !(value instanceof Number)) {
        return false;
      }
      anyNumber |= value != null;
    }
    return anyNumber;
  }

  private static int width(String text) {
    return text.codePointCount(0, text.length());
  }
}
