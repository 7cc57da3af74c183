package dev.floe.flink.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqlScriptTest {

  private static List<String> texts(String sql) {
    return SqlScript.fromCommandLine(sql).statements().stream().map(SqlStatement::text).toList();
  }

  @Test
  void splitsOnSemicolonsAndDropsEmptyStatements() {
    assertThat(texts("SELECT 1;  ;\n;SELECT 2;")).containsExactly("SELECT 1", "SELECT 2");
  }

  @Test
  void keepsTheLastStatementWhenItHasNoSemicolon() {
    assertThat(texts("CREATE DATABASE d;\nSELECT 2\n"))
        .containsExactly("CREATE DATABASE d", "SELECT 2");
  }

  @Test
  void aSemicolonInsideAStringLiteralDoesNotEndTheStatement() {
    assertThat(texts("INSERT INTO t VALUES ('a;b'); SELECT 1"))
        .containsExactly("INSERT INTO t VALUES ('a;b')", "SELECT 1");
  }

  @Test
  void aDoubledQuoteInsideAStringLiteralIsAnEscapeNotTheEnd() {
    assertThat(texts("SELECT 'it''s; fine', ''';'; SELECT 2"))
        .containsExactly("SELECT 'it''s; fine', ''';'", "SELECT 2");
  }

  @Test
  void aSemicolonInsideABacktickIdentifierDoesNotEndTheStatement() {
    assertThat(texts("SELECT `a;b`, `x``;y` FROM t; SELECT 2"))
        .containsExactly("SELECT `a;b`, `x``;y` FROM t", "SELECT 2");
  }

  @Test
  void semicolonsAndQuotesInsideCommentsAreIgnored() {
    String sql =
        "SELECT 1 -- not the end; it's a comment\n"
            + "  + 1 /* nor; this 'one' */ ;\n"
            + "SELECT 2";
    assertThat(texts(sql))
        .containsExactly(
            "SELECT 1 -- not the end; it's a comment\n  + 1 /* nor; this 'one' */", "SELECT 2");
  }

  @Test
  void aCommentLineBeforeAStatementDoesNotSwallowTheNextLine() {
    SqlScript script =
        SqlScript.fromCommandLine(
            "-- seed the staging table\nINSERT INTO t\n-- two rows\nVALUES (1), (2);");

    assertThat(script.statements())
        .containsExactly(new SqlStatement(1, 2, "INSERT INTO t\n-- two rows\nVALUES (1), (2)"));
  }

  @Test
  void aScriptOfOnlyCommentsHasNoStatements() {
    assertThat(texts("-- nothing here;\n/* nor ; here */\n  ;\n")).isEmpty();
  }

  @Test
  void remembersTheLineEachStatementStartsOn() {
    String sql =
        "CREATE DATABASE d;\n"
            + "\n"
            + "/* a block\n"
            + "   comment; over lines */\n"
            + "CREATE TABLE d.t (s STRING); INSERT INTO d.t VALUES ('multi\n"
            + "line');\n"
            + "  SELECT *\n"
            + "  FROM d.t";

    assertThat(SqlScript.fromCommandLine(sql).statements())
        .extracting(SqlStatement::number, SqlStatement::line)
        .containsExactly(
            Tuple.tuple(1, 1), Tuple.tuple(2, 5), Tuple.tuple(3, 5), Tuple.tuple(4, 7));
  }

  @Test
  void anUnclosedStringLiteralIsReportedWithItsLine() {
    assertThatThrownBy(() -> SqlScript.fromCommandLine("SELECT 1;\nSELECT 'oops;\nSELECT 3"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot split the SQL of the command line into statements: the string literal"
                + " starting on line 2 is not closed");
  }

  @Test
  void readsAFileAndNamesItAsTheSource(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("seed.sql");
    Files.writeString(file, "SELECT 1;\nSELECT 2;\n");

    SqlScript script = SqlScript.fromFile(file);

    assertThat(script.source()).isEqualTo("-f " + file);
    assertThat(script.statements()).hasSize(2);
  }

  @Test
  void aByteOrderMarkAtTheStartOfAFileIsNotPartOfTheFirstStatement(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("windows.sql");
    Files.write(
        file, ("\uFEFFSELECT 1;\nSELECT 2;\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));

    SqlScript script = SqlScript.fromFile(file);

    assertThat(script.statements())
        .extracting(SqlStatement::text)
        .containsExactly("SELECT 1", "SELECT 2");
  }

  @Test
  void aMissingFileIsInvalidInputNamingTheFile(@TempDir Path dir) {
    Path missing = dir.resolve("missing.sql");

    assertThatThrownBy(() -> SqlScript.fromFile(missing))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("Cannot read SQL file " + missing + ": no such file");
  }
}
