package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.flink.session.FlinkSessions;
import java.nio.file.Path;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Planning only (no job runs): what the inspector finds in real Flink plans. */
class QueryInspectorITCase {
  @TempDir static Path home;
  private static StreamTableEnvironment tableEnv;

  @BeforeAll
  static void createTables() throws Exception {
    tableEnv =
        FlinkSessions.tableEnvironment(
            FlinkSessions.batchEnvironment(1), CatalogConfigLoader.embedded(home));
    tableEnv.executeSql("CREATE DATABASE sales").await();
    tableEnv.executeSql("CREATE TABLE sales.orders (id BIGINT, d DATE, s STRING)").await();
    tableEnv
        .executeSql(
            "CREATE TEMPORARY VIEW sales.recent AS SELECT id, d FROM sales.orders WHERE d > CURRENT_DATE")
        .await();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "SELECT id FROM sales.orders WHERE d = CURRENT_DATE | CURRENT_DATE",
        "SELECT id, NOW() AS t FROM sales.orders | NOW",
        "SELECT id FROM sales.orders WHERE RAND() < 0.5 | RAND",
        "SELECT UUID() AS u FROM sales.orders | UUID",
        "SELECT id, LOCALTIMESTAMP AS t FROM sales.orders | LOCALTIMESTAMP",
        "SELECT id, UNIX_TIMESTAMP() AS t FROM sales.orders | UNIX_TIMESTAMP()",
        "SELECT id FROM sales.recent | CURRENT_DATE",
        "SELECT id, 1 AS `it's`, RAND() AS r, 'a' AS z FROM sales.orders | RAND",
        "SELECT id, 1 AS `'x`, RAND() AS r, 'a' AS z FROM sales.orders | RAND",
        "SELECT id, 1 AS `rock 'n roll`, RAND() AS r FROM sales.orders WHERE s LIKE '%x%' | RAND",
        "SELECT id, 1 AS `x '`, RAND() AS r, '-' AS z FROM sales.orders | RAND",
      })
  void findsNondeterministicCallsInThePlannedQuery(String query, String expected) {
    assertThat(QueryInspector.inspect(tableEnv.sqlQuery(query)).nondeterministicCalls())
        .containsExactly(expected);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "SELECT id FROM sales.orders -- NOW()",
        "SELECT id, 'RAND()' AS s FROM sales.orders /* CURRENT_DATE */",
        "SELECT id, UNIX_TIMESTAMP('2026-10-03 00:00:00') AS t FROM sales.orders",
        "SELECT id AS `now` FROM sales.orders WHERE s <> 'it''s UUID()'",
        "SELECT id FROM sales.orders WHERE s = 'a' AND CAST(s AS BYTES) = X'00' AND s <> 'RAND()'",
      })
  void commentsLiteralsAliasesAndDeterministicOverloadsAreNotCalls(String query) {
    assertThat(QueryInspector.inspect(tableEnv.sqlQuery(query)).nondeterministicCalls()).isEmpty();
  }

  @Test
  void namesEveryScannedTableAndReadsCalcitesPlanDirectly() {
    QueryInspector.Inspection inspection =
        QueryInspector.inspect(
            tableEnv.sqlQuery(
                "SELECT o.id FROM sales.orders o JOIN sales.recent r ON o.id = r.id WHERE o.d >= DATE '2026-10-03'"));

    assertThat(inspection.scannedTables()).containsExactly("floe.sales.orders");
    // Read through the planner's classes, not Table#explain (which also optimizes: seconds).
    assertThat(inspection.plan())
        .contains("LogicalTableScan")
        .doesNotContain("== Abstract Syntax Tree ==");
  }

  @Test
  void aLongStringLiteralIsReadWithoutOverflowingTheStack() {
    // 100,000 characters, with an escaped quote and a call's name inside: still a literal.
    String text = "x".repeat(50_000) + "''NOW()" + "y".repeat(50_000);

    QueryInspector.Inspection inspection =
        QueryInspector.inspect(
            tableEnv.sqlQuery("SELECT id, '" + text + "' AS s FROM sales.orders"));

    assertThat(inspection.nondeterministicCalls()).isEmpty();
    assertThat(inspection.scannedTables()).containsExactly("floe.sales.orders");
  }

  @Test
  void aQuoteInAnAliasDoesNotHideAScannedTable() throws Exception {
    tableEnv.executeSql("CREATE TABLE IF NOT EXISTS sales.other (id BIGINT, s STRING)").await();

    QueryInspector.Inspection inspection =
        QueryInspector.inspect(
            tableEnv.sqlQuery(
                "SELECT o.id, 1 AS `rock 'n roll` FROM sales.orders o JOIN (SELECT * FROM"
                    + " sales.other WHERE s LIKE '%x') t ON o.id = t.id"));

    assertThat(inspection.scannedTables())
        .containsExactlyInAnyOrder("floe.sales.orders", "floe.sales.other");
  }

  @Test
  void aBinaryLiteralIsStrippedLikeAnyOtherAndNamesNoTable() {
    QueryInspector.Inspection inspection =
        QueryInspector.inspect(
            tableEnv.sqlQuery(
                "SELECT id FROM sales.orders WHERE CAST(s AS BYTES) = X'00'"
                    + " AND s <> 'x table=[[floe, sales, ghost]] y'"));

    assertThat(inspection.scannedTables()).containsExactly("floe.sales.orders");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "orders,v2 | orders,v2",
        "k=v | k=v",
        "x]y | x]y",
        "x]] | x]]",
        "a, b | a, b",
        "'src, project=[x' | src, project=[x",
      })
  void aTableWhoseNameCannotBeToldFromThePlanIsRefusedNotReadAsAnother(String name, String printed)
      throws Exception {
    // s.orders exists: the name 'orders,v2' was read as it, and a run recorded the wrong source.
    tableEnv.executeSql("CREATE TABLE IF NOT EXISTS sales.`" + name + "` (id BIGINT)").await();

    assertThatThrownBy(
            () -> QueryInspector.inspect(tableEnv.sqlQuery("SELECT id FROM sales.`" + name + "`")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith(
            "Cannot read the tables of the query: the plan names one as table=[[floe, sales, "
                + printed
                + "]]")
        .hasMessageContaining("rename the table");
  }

  @Test
  void aTableNameInATextLiteralBesideAQuotedAliasIsNoTableAndRefusesNothing() {
    // The raw second reading found table=[[old]] in the literal and refused the query.
    QueryInspector.Inspection inspection =
        QueryInspector.inspect(
            tableEnv.sqlQuery(
                "SELECT id AS `it's`, d FROM sales.orders WHERE s <> 'see table=[[old]]'"));

    assertThat(inspection.scannedTables()).containsExactly("floe.sales.orders");
  }

  @Test
  void namesWithSpacesQuotesAndDotsAreReadWhole() throws Exception {
    tableEnv.executeSql("CREATE TABLE IF NOT EXISTS sales.`Order Facts` (id BIGINT)").await();
    tableEnv.executeSql("CREATE TABLE IF NOT EXISTS sales.`it's.x` (id BIGINT)").await();

    QueryInspector.Inspection inspection =
        QueryInspector.inspect(
            tableEnv.sqlQuery(
                "SELECT a.id FROM sales.`Order Facts` a JOIN sales.`it's.x` b ON a.id = b.id"));

    assertThat(inspection.scannedTables())
        .containsExactlyInAnyOrder("floe.sales.Order Facts", "floe.sales.it's.x");
  }
}
