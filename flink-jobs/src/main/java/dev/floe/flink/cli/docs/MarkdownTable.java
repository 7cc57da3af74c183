package dev.floe.flink.cli.docs;

import java.util.ArrayList;
import java.util.List;

/**
 * A GitHub-flavoured Markdown table. Cells hold Markdown; a {@code |} or a line break in a cell is
 * escaped here, because either would end the cell early and shift the rest of the row.
 */
final class MarkdownTable {
  private final List<String> headers;
  private final List<List<String>> rows = new ArrayList<>();

  MarkdownTable(String... headers) {
    this.headers = List.of(headers);
  }

  MarkdownTable row(String... cells) {
    if (cells.length != headers.size()) {
      throw new IllegalArgumentException(
          "Cannot add a row of "
              + cells.length
              + " cells to a table with columns "
              + headers
              + ": "
              + List.of(cells));
    }
    rows.add(List.of(cells));
    return this;
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  String render() {
    StringBuilder out = new StringBuilder();
    line(out, headers);
    line(out, headers.stream().map(header -> "---").toList());
    rows.forEach(row -> line(out, row));
    return out.toString();
  }

  static String escape(String cell) {
    return cell.replace("|", "\\|").replaceAll("\\s*\\R\\s*", " ");
  }

  private static void line(StringBuilder out, List<String> cells) {
    out.append('|');
    for (String cell : cells) {
      String text = escape(cell);
      out.append(text.isEmpty() ? " " : " " + text + " ").append('|');
    }
    out.append('\n');
  }
}
