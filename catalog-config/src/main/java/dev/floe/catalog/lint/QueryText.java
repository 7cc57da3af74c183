package dev.floe.catalog.lint;

import java.util.regex.Pattern;

/**
 * A job's SQL with what cannot call a function or name a table blanked out: comments ({@code --
 * ...}, {@code /* ... *}{@code /}, hints included) and string literals. Blanks keep every
 * character's place, so a position in the text is one in the query ({@link KeyLines#valueLine}
 * finds its line in the manifest).
 */
final class QueryText {
  private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final String code;
  private final String codeWithoutIdentifiers;

  private QueryText(String code, String codeWithoutIdentifiers) {
    this.code = code;
    this.codeWithoutIdentifiers = codeWithoutIdentifiers;
  }

  static QueryText of(String sql) {
    StringBuilder code = new StringBuilder(sql);
    StringBuilder bare = new StringBuilder(sql);
    int i = 0;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      int end;
      boolean identifier = false;
      if (c == '-' && sql.startsWith("--", i)) {
        end = sql.indexOf('\n', i);
        end = end < 0 ? sql.length() : end;
      } else if (c == '/' && sql.startsWith("/*", i)) {
        end = sql.indexOf("*/", i + 2);
        end = end < 0 ? sql.length() : end + 2;
      } else if (c == '\'') {
        end = closing(sql, i, '\'');
      } else if (c == '`' || c == '"') {
        end = closing(sql, i, c);
        identifier = true;
      } else {
        i++;
        continue;
      }
      blank(bare, i, end);
      if (!identifier) {
        blank(code, i, end);
      } else if (isCall(sql, end)) {
        unquote(bare, sql, i, end);
      }
      i = end;
    }
    return new QueryText(code.toString(), bare.toString());
  }

  /** The SQL without comments and string literals; quoted identifiers kept. */
  String code() {
    return code;
  }

  /**
   * {@link #code()} without quoted identifiers either, but for the name of a quoted function call
   * ({@code `RAND`()} reads {@code RAND ()}, as Flink resolves it): where a function call can be.
   */
  String codeWithoutIdentifiers() {
    return codeWithoutIdentifiers;
  }

  /** The index just past the quote that closes the one at {@code start} (doubled quotes escape). */
  private static int closing(String sql, int start, char quote) {
    int i = start + 1;
    while (i < sql.length()) {
      if (sql.charAt(i) == quote) {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      i++;
    }
    return sql.length();
  }

  /** True when a parenthesis follows {@code end}, white space aside: a function call. */
  private static boolean isCall(String sql, int end) {
    int i = end;
    while (i < sql.length()) {
      if (Character.isWhitespace(sql.charAt(i))) {
        i++;
      } else if (sql.startsWith("/*", i)) { // `RAND` /* why */ () is a call too
        int close = sql.indexOf("*/", i + 2);
        i = close < 0 ? sql.length() : close + 2;
      } else if (sql.startsWith("--", i)) {
        int newline = sql.indexOf('\n', i);
        i = newline < 0 ? sql.length() : newline + 1;
      } else {
        break;
      }
    }
    return i < sql.length() && sql.charAt(i) == '(';
  }

  /**
   * Writes the name quoted from {@code from} to {@code to} at {@code from}, without its quotes,
   * when it is a plain name; a name that is not ({@code `my fn`}) is no built-in function and stays
   * blank.
   */
  private static void unquote(StringBuilder text, String sql, int from, int to) {
    if (to - from < 3 || sql.charAt(to - 1) != sql.charAt(from)) {
      return;
    }
    String name = sql.substring(from + 1, to - 1);
    if (PLAIN_NAME.matcher(name).matches()) {
      text.replace(from, from + name.length(), name);
    }
  }

  private static void blank(StringBuilder text, int from, int to) {
    for (int i = from; i < to; i++) {
      if (text.charAt(i) != '\n') {
        text.setCharAt(i, ' ');
      }
    }
  }
}
