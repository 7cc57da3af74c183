package dev.floe.catalog.job;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Reads a manifest query the way Flink's SQL lexer splits statements: a {@code ;} inside a string
 * literal, a quoted identifier or a comment does not end the statement. A query is one statement; a
 * trailing {@code ;} (with blanks and comments after it) is allowed. Its parameters ({@code
 * :slice_start}, {@code :slice_end}) are found the same way: one inside a literal, a quoted
 * identifier or a comment is text, not a parameter.
 */
public final class QueryText {
  /** The parameter bound to the slice's first instant, inclusive. */
  public static final String SLICE_START = "slice_start";

  /** The parameter bound to the slice's end, exclusive. */
  public static final String SLICE_END = "slice_end";

  private QueryText() {}

  /**
   * The names (without the colon) of the parameters the query uses, outside string literals, quoted
   * identifiers and comments, in order of first use.
   */
  public static Set<String> parameters(String query) {
    Set<String> names = new LinkedHashSet<>();
    replaceParameters(
        query,
        name -> {
          names.add(name);
          return ":" + name;
        });
    return names;
  }

  /**
   * The query with each parameter outside string literals, quoted identifiers and comments replaced
   * by what {@code replacement} gives for its name (without the colon); everything else is kept as
   * written.
   */
  public static String replaceParameters(String query, UnaryOperator<String> replacement) {
    StringBuilder out = new StringBuilder(query.length() + 64);
    int i = 0;
    int n = query.length();
    while (i < n) {
      char c = query.charAt(i);
      if (c == '\'' || c == '`' || c == '"') {
        int close = closing(query, i, c);
        int end = close < 0 ? n : close + 1;
        out.append(query, i, end);
        i = end;
      } else if (c == '-' && i + 1 < n && query.charAt(i + 1) == '-') {
        int end = query.indexOf('\n', i);
        end = end < 0 ? n : end; // the newline itself is kept, so the comment ends where it did
        out.append(query, i, end);
        i = end;
      } else if (c == '/' && i + 1 < n && query.charAt(i + 1) == '*') {
        int end = query.indexOf("*/", i + 2);
        end = end < 0 ? n : end + 2;
        out.append(query, i, end);
        i = end;
      } else if (c == ':' && i + 1 < n && Character.isJavaIdentifierStart(query.charAt(i + 1))) {
        int end = i + 1;
        while (end < n && Character.isJavaIdentifierPart(query.charAt(end))) {
          end++;
        }
        out.append(replacement.apply(query.substring(i + 1, end)));
        i = end;
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  /**
   * The line (1-based, within the query) where a second statement starts, or 0 when the query is
   * one statement. Text that does not lex (an unclosed literal or comment) is left to the planner.
   */
  static int secondStatementLine(String query) {
    int n = query.length();
    int line = 1;
    boolean ended = false; // a ';' ended the first statement
    int i = 0;
    while (i < n) {
      char c = query.charAt(i);
      if (c == '\n') {
        line++;
        i++;
      } else if (c == '-' && i + 1 < n && query.charAt(i + 1) == '-') {
        int newline = query.indexOf('\n', i);
        i = newline < 0 ? n : newline;
      } else if (c == '/' && i + 1 < n && query.charAt(i + 1) == '*') {
        int close = query.indexOf("*/", i + 2);
        if (close < 0) {
          return 0;
        }
        line += lines(query, i, close);
        i = close + 2;
      } else if (Character.isWhitespace(c)) {
        i++;
      } else if (ended && c != ';') {
        return line;
      } else if (c == ';') {
        ended = true;
        i++;
      } else if (c == '\'' || c == '`' || c == '"') {
        int close = closing(query, i, c);
        if (close < 0) {
          return 0;
        }
        line += lines(query, i, close);
        i = close + 1;
      } else {
        i++;
      }
    }
    return 0;
  }

  /** The index of the quote closing the one at {@code open}; a doubled quote is an escape. */
  private static int closing(String query, int open, char quote) {
    int i = open + 1;
    while (i < query.length()) {
      if (query.charAt(i) == quote) {
        if (i + 1 < query.length() && query.charAt(i + 1) == quote) {
          i += 2;
          continue;
        }
        return i;
      }
      i++;
    }
    return -1;
  }

  private static int lines(String text, int from, int to) {
    int count = 0;
    for (int i = from; i < to; i++) {
      count += text.charAt(i) == '\n' ? 1 : 0;
    }
    return count;
  }
}
