package dev.floe.flink.sql;

import dev.floe.catalog.error.InvalidInputException;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits SQL text on {@code ;} the way Flink's lexer would read it: a semicolon inside a string
 * literal, a backtick identifier or a comment does not end a statement.
 */
final class SqlStatementSplitter {

  private final String source;
  private final String text;
  private final List<SqlStatement> statements = new ArrayList<>();
  private int position;
  private int line = 1;
  // Where the current statement's first token is; -1 while only blanks and comments were seen.
  private int statementStart = -1;
  private int statementLine;

  private SqlStatementSplitter(String source, String text) {
    this.source = source;
    this.text = text;
  }

  static List<SqlStatement> split(String source, String text) {
    SqlStatementSplitter splitter = new SqlStatementSplitter(source, text);
    splitter.splitAll();
    return splitter.statements;
  }

  private void splitAll() {
    while (position < text.length()) {
      char c = text.charAt(position);
      if (c == ';') {
        endStatement(position);
        position++;
      } else if (c == '\n') {
        line++;
        position++;
      } else if (c == '-' && next() == '-') {
        skipLineComment();
      } else if (c == '/' && next() == '*') {
        skipBlockComment();
      } else if (c == '\'' || c == '`') {
        markStatementStart();
        skipQuoted(c);
      } else {
        if (!Character.isWhitespace(c)) {
          markStatementStart();
        }
        position++;
      }
    }
    endStatement(text.length());
  }

  private char next() {
    return position + 1 < text.length() ? text.charAt(position + 1) : '\0';
  }

  private void markStatementStart() {
    if (statementStart < 0) {
      statementStart = position;
      statementLine = line;
    }
  }

  private void endStatement(int end) {
    if (statementStart >= 0) {
      // Trailing blanks go, trailing comments stay: Flink ignores them, and a `--` comment
      // without its newline still ends at the end of the text.
      String statement = text.substring(statementStart, end).strip();
      statements.add(new SqlStatement(statements.size() + 1, statementLine, statement));
    }
    statementStart = -1;
  }

  /** Leaves the newline in place: it ends the comment, not the statement. */
  private void skipLineComment() {
    int newline = text.indexOf('\n', position);
    position = newline < 0 ? text.length() : newline;
  }

  private void skipBlockComment() {
    int startLine = line;
    int end = text.indexOf("*/", position + 2);
    if (end < 0) {
      throw unterminated("block comment", startLine);
    }
    countLines(position, end + 2);
    position = end + 2;
  }

  /** A quote inside is written twice ({@code 'it''s'}, {@code `a``b`}), which this reads as two. */
  private void skipQuoted(char quote) {
    int startLine = line;
    int end = text.indexOf(quote, position + 1);
    if (end < 0) {
      throw unterminated(quote == '\'' ? "string literal" : "backtick identifier", startLine);
    }
    countLines(position, end + 1);
    position = end + 1;
  }

  private void countLines(int from, int to) {
    for (int i = from; i < to; i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
  }

  private InvalidInputException unterminated(String what, int startLine) {
    return InvalidInputException.of(
        "Cannot split the SQL of %s into statements: the %s starting on line %d is not closed",
        source, what, startLine);
  }
}
