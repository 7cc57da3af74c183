package dev.floe.catalog.lint;

import java.util.List;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * The line of a YAML file that holds a character of a scalar's value. A literal block ({@code |})
 * keeps its lines, so the line is exact; a folded block ({@code >}) or a plain scalar only turns
 * line breaks and indentation into spaces, so the value's other characters are the file's, in
 * order, and the line is exact too; a quoted scalar's escapes ({@code \n}, {@code ''}) change its
 * characters, so any of them is on the line where the value starts.
 */
final class ScalarLines {
  private ScalarLines() {}

  /**
   * @param file the file's lines, as SnakeYAML counts them
   * @param index a position in {@code scalar}'s value
   * @return the line, counted from 1, never past the scalar's end
   */
  static int line(ScalarNode scalar, List<String> file, int index) {
    Mark start = scalar.getStartMark();
    int lastLine = Math.min(scalar.getEndMark().getLine() + 1, file.size());
    String value = scalar.getValue();
    int at = Math.max(0, Math.min(index, value.length()));
    return switch (scalar.getScalarStyle()) {
      case LITERAL -> Math.min(start.getLine() + 2 + count(value, at, '\n'), Math.max(lastLine, 1));
      case FOLDED -> scan(file, start.getLine() + 1, 0, lastLine, nonWhitespace(value, at));
      case PLAIN ->
          scan(
              file,
              start.getLine(),
              valueColumn(file, start.getLine(), start.getColumn()),
              lastLine,
              nonWhitespace(value, at));
      default -> start.getLine() + 1;
    };
  }

  /**
   * The column where a plain scalar's value starts: past an anchor ({@code &q}) and a tag ({@code
   * !!str}) the node's start mark may stand on.
   */
  private static int valueColumn(List<String> file, int line, int column) {
    if (line >= file.size()) {
      return column;
    }
    String text = file.get(line);
    int i = Math.min(column, text.length());
    while (i < text.length() && (text.charAt(i) == '&' || text.charAt(i) == '!')) {
      while (i < text.length() && !Character.isWhitespace(text.charAt(i))) {
        i++;
      }
      while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
        i++;
      }
    }
    return i;
  }

  /**
   * The line of the {@code wanted}-th (from 0) character other than white space from line {@code
   * fromLine} (from 0), column {@code fromColumn} on; the last such line when there are fewer.
   */
  private static int scan(
      List<String> file, int fromLine, int fromColumn, int lastLine, int wanted) {
    int seen = 0;
    int found = Math.min(fromLine + 1, Math.max(lastLine, 1));
    for (int line = fromLine; line < lastLine; line++) {
      String text = file.get(line);
      int from =
          line == fromLine
              ? text.offsetByCodePoints(
                  0, Math.min(fromColumn, text.codePointCount(0, text.length())))
              : 0;
      for (int i = from; i < text.length(); i++) {
        if (!Character.isWhitespace(text.charAt(i))) {
          if (seen == wanted) {
            return line + 1;
          }
          seen++;
          found = line + 1;
        }
      }
    }
    return found;
  }

  private static int nonWhitespace(String value, int before) {
    int count = 0;
    for (int i = 0; i < before; i++) {
      if (!Character.isWhitespace(value.charAt(i))) {
        count++;
      }
    }
    return count;
  }

  private static int count(String value, int before, char c) {
    int count = 0;
    for (int i = 0; i < before; i++) {
      if (value.charAt(i) == c) {
        count++;
      }
    }
    return count;
  }
}
