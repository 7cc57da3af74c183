package dev.floe.flink.cli;

import java.util.List;

/** Renders rows as an aligned text table: numbers right-aligned, everything else left. */
final class TextTable {

  private TextTable() {}

  static String render(List<String> header, List<List<Object>> rows) {
    int[] widths = new int[header.size()];
    for (int i = 0; i < header.size(); i++) {
      widths[i] = header.get(i).length();
      for (List<Object> row : rows) {
        widths[i] = Math.max(widths[i], String.valueOf(row.get(i)).length());
      }
    }
    StringBuilder out = new StringBuilder();
    appendLine(out, header.stream().map(h -> (Object) h).toList(), widths, true);
    for (int i = 0; i < widths.length; i++) {
      out.append(i == 0 ? "" : "  ").append("-".repeat(widths[i]));
    }
    out.append('\n');
    for (List<Object> row : rows) {
      appendLine(out, row, widths, false);
    }
    return out.toString();
  }

  private static void appendLine(
      StringBuilder out, List<Object> cells, int[] widths, boolean header) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < widths.length; i++) {
      Object cell = cells.get(i);
      String text = String.valueOf(cell);
      boolean right = !header && cell instanceof Number;
      line.append(i == 0 ? "" : "  ");
      line.append(
          right
              ? " ".repeat(widths[i] - text.length()) + text
              : text + " ".repeat(widths[i] - text.length()));
    }
    out.append(line.toString().stripTrailing()).append('\n');
  }
}
