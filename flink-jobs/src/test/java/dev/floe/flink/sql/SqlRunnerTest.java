package dev.floe.flink.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.flink.session.FlinkSessions;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs real Flink SQL on an embedded catalog; one table environment for all tests (≈ 8 s each). */
class SqlRunnerTest {

  private static final String SEED =
      """
      -- staging data shared by the tests
      CREATE DATABASE sales;
      CREATE TABLE sales.orders (
        id BIGINT,
        amount DECIMAL(10, 2),
        order_date DATE,
        note STRING
      );
      INSERT INTO sales.orders VALUES
        (1, 10.50, DATE '2026-10-03', 'first; with a semicolon'),
        (2, 9.50, DATE '2026-10-03', CAST(NULL AS STRING)),
        (3, 50.00, DATE '2026-10-04', 'it''s big');
      """;

  @TempDir static Path home;
  private static CatalogConfig config;
  private static org.apache.flink.table.api.TableEnvironment tableEnv;
  private static SqlRunner runner;
  private static List<StatementResult> seedResults;

  @BeforeAll
  static void seedTheCatalog() {
    config = CatalogConfigLoader.embedded(home);
    tableEnv = FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(2), config);
    runner = new SqlRunner(tableEnv, config);
    seedResults = runner.run(SqlScript.parse("-f seed.sql", SEED));
  }

  private static List<StatementResult> run(String sql) {
    return runner.run(SqlScript.fromCommandLine(sql));
  }

  @Test
  void ddlReportsOkAndInsertReportsItsFinishedJob() {
    assertThat(seedResults)
        .extracting(r -> r.getClass().getSimpleName(), r -> r.statement().line())
        .containsExactly(
            Tuple.tuple("OkResult", 2), Tuple.tuple("OkResult", 3), Tuple.tuple("InsertResult", 9));
    assertThat(ResultTable.render(seedResults)).isEqualTo("OK\n\nOK\n\nOK (job finished)");
  }

  @Test
  void aggregatesRenderAsAlignedTablesWithExactDecimals() {
    List<StatementResult> results =
        run(
            "SELECT count(*), sum(amount) FROM sales.orders;\n"
                + "SELECT order_date, sum(amount) AS total FROM sales.orders"
                + " GROUP BY order_date ORDER BY order_date");

    assertThat(ResultTable.render(results))
        .isEqualTo(
            String.join(
                "\n",
                "EXPR$0 | EXPR$1",
                "-------+-------",
                "     3 |  70.00",
                "(1 row)",
                "",
                "order_date | total",
                "-----------+------",
                "2026-10-03 | 20.00",
                "2026-10-04 | 50.00",
                "(2 rows)"));
    QueryResult totals = (QueryResult) results.get(0);
    assertThat(totals.columnTypes()).containsExactly("BIGINT NOT NULL", "DECIMAL(38, 2)");
    assertThat(totals.rows()).containsExactly(List.of(3L, new BigDecimal("70.00")));
  }

  @Test
  void jsonOutputParsesBackWithTheExactValues() throws Exception {
    List<StatementResult> results =
        run("SELECT id, amount, order_date, note FROM sales.orders ORDER BY id");

    JsonNode json = ResultJsonTest.EXACT.readTree(ResultJson.render(results));

    JsonNode rows = json.get(0).get("rows");
    assertThat(json.get(0).get("row_count").asInt()).isEqualTo(3);
    assertThat(rows.get(0).get("id").asLong()).isEqualTo(1L);
    assertThat(rows.get(0).get("amount").decimalValue()).isEqualTo(new BigDecimal("10.50"));
    assertThat(rows.get(0).get("order_date").asText()).isEqualTo("2026-10-03");
    assertThat(rows.get(0).get("note").asText()).isEqualTo("first; with a semicolon");
    assertThat(rows.get(1).get("note").isNull()).isTrue();
    assertThat(rows.get(2).get("amount").decimalValue()).isEqualTo(new BigDecimal("50.00"));
    assertThat(rows.get(2).get("note").asText()).isEqualTo("it's big");
  }

  @Test
  void showAndDescribeReturnRowsWithoutRunningAJob() {
    List<StatementResult> results = run("SHOW DATABASES; DESCRIBE sales.orders");

    assertThat(((QueryResult) results.get(0)).rows()).contains(List.of("sales"));
    QueryResult describe = (QueryResult) results.get(1);
    assertThat(describe.columnNames()).startsWith("name", "type");
    assertThat(describe.rows())
        .extracting(row -> row.get(0) + " " + row.get(1))
        .containsExactly("id BIGINT", "amount DECIMAL(10, 2)", "order_date DATE", "note STRING");
  }

  @Test
  void aSyntaxErrorNamesStatementAndLineAndStopsTheScript() {
    String script =
        "CREATE DATABASE before_error;\n\nSELECT id, FROM sales.orders;\nCREATE DATABASE after;";
    List<StatementResult> shown = new ArrayList<>();

    assertThatThrownBy(() -> runner.run(SqlScript.parse("-f bad.sql", script), shown::add))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot run SQL statement 2 (line 3 of -f bad.sql): SQL parse failed."
                + " Incorrect syntax near the keyword 'FROM' at line 1, column 12.");
    assertThat(shown).hasSize(1);
    assertThat(((QueryResult) run("SHOW DATABASES").get(0)).rows())
        .contains(List.of("before_error"))
        .doesNotContain(List.of("after"));
  }

  @Test
  void anUnknownTableIsInvalidInputNamingTheTable() {
    // Calcite itself only says "Object 'sales' not found" here.
    assertThatThrownBy(() -> run("SHOW DATABASES;\n  SELECT * FROM sales.nope"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot run SQL statement 2 (line 2 of the command line): ")
        .hasMessageContaining("'sales.nope'");
    assertThatThrownBy(() -> run("INSERT INTO sales.nope VALUES (1)"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("`sales`.`nope`");
  }

  @Test
  void anUnqualifiedUnknownTableSaysToQualifyIt() {
    // Calcite says "Object 'default' not found within 'floe'": a database nobody named.
    assertThatThrownBy(() -> run("SELECT * FROM nope_tbl"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("'nope_tbl'")
        .hasMessageEndingWith("; name the table as namespace.table, or USE a namespace first");
    assertThatThrownBy(() -> run("SELECT * FROM `sales.orders`"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageEndingWith("; quote the namespace and the table apart, as `namespace`.`table`");
    assertThatThrownBy(() -> run("SELECT * FROM `default`.t"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Object 'default' not found")
        .hasMessageNotContaining("name the table as namespace.table");
  }

  @Test
  void aNanOrInfiniteConstantIsInvalidInputAndTheColumnCastItSuggestsWorks() {
    for (String constant : List.of("CAST('NaN' AS FLOAT)", "CAST('-Infinity' AS FLOAT)")) {
      assertThatThrownBy(() -> run("SELECT " + constant + " AS f"))
          .as(constant)
          .isInstanceOf(InvalidInputException.class)
          .hasMessageStartingWith("Cannot run SQL statement 1 (line 1 of the command line): ")
          .hasMessageContaining("cannot fold a NaN or infinite constant");
    }
    QueryResult suggested =
        (QueryResult) run("SELECT CAST(v AS FLOAT) AS f FROM (VALUES ('NaN')) AS t(v)").get(0);
    assertThat(suggested.rows())
        .singleElement()
        .satisfies(row -> assertThat(row).containsExactly(Float.NaN));
    // A VALUES with an expression in a row is folded too: the hint says so.
    assertThatThrownBy(
            () ->
                run(
                    "SELECT CAST(a AS FLOAT) AS f, s FROM (VALUES ('NaN', 'x'), ('1', 'a' || 'b'))"
                        + " AS t(a, s)"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("where no row of the VALUES holds an expression");
  }

  @Test
  void aFloatConstantThePlannerWouldRoundIsRefusedAndTheColumnCastItSuggestsKeepsTheValue() {
    run("CREATE TABLE sales.floats (id INT, f FLOAT, d DOUBLE)");
    String rows =
        "VALUES (60, CAST(16777.217 AS FLOAT), 1.5E0), (61, CAST(16777.217 AS FLOAT), 0.25)";

    assertThatThrownBy(() -> run("INSERT INTO sales.floats " + rows))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot run SQL statement 1 (line 1 of the command line): ")
        .hasMessageContaining(
            "Flink's planner may round the FLOAT constant 16777.217 to 7 significant digits"
                + " (16777.22)");
    assertThatThrownBy(() -> run("SELECT CAST(f AS DOUBLE) FROM (" + rows + ") AS t(id, f, d)"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("the FLOAT constant 16777.217");
    assertThatThrownBy(
            () -> run("INSERT INTO sales.floats SELECT 4, CAST(' 16777.217' AS FLOAT), 0"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("the FLOAT constant 16777.217 to 7 significant digits (16777.22)");
    assertThatThrownBy(
            () -> run("INSERT INTO sales.floats SELECT 5, CAST(16777.2 + 0.017 AS FLOAT), 0"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("folds the constant expression 16777.2 + 0.017 cast to FLOAT");
    run("INSERT INTO sales.floats SELECT id, CAST(d * 0.45359237 AS FLOAT), d FROM sales.floats");
    assertThat(((QueryResult) run("SELECT count(*) FROM sales.floats").get(0)).rows())
        .containsExactly(List.of(0L));

    // A constant that 7 digits keep (0.1, 1.5) is written as before; the suggested cast is exact.
    run(
        "INSERT INTO sales.floats VALUES (1, CAST(0.1 AS FLOAT), 1.5E0), (2, CAST(1.5 AS FLOAT),"
            + " 0.25);\n"
            + "INSERT INTO sales.floats SELECT 3, CAST(v AS FLOAT), 0 FROM (VALUES ('16777.217'))"
            + " AS t(v)");
    QueryResult stored = (QueryResult) run("SELECT id, f FROM sales.floats ORDER BY id").get(0);
    assertThat(stored.rows()).extracting(row -> row.get(1)).containsExactly(0.1f, 1.5f, 16777.217f);
    run("DROP TABLE sales.floats");
  }

  @Test
  void theConstantsCastToFloatAreReadFromTheStatementAndColumnsCommentsAndTextAreNot() {
    assertThat(
            FloatConstants.constantsCastToFloat(
                "SELECT CAST('16777.217'AS FLOAT), try_cast(trim(' 1.25 ') as float),"
                    + " CAST(CAST(16777.217 AS STRING) AS FLOAT), CAST(-2.5 AS FLOAT),"
                    + " CAST(16777.2 + 0.017 AS FLOAT), CAST(w * 0.45359237 AS FLOAT),"
                    + " CAST(`a(b` * 3.14159265 AS FLOAT), CAST(CASE WHEN ymd >= 20240115 THEN 1"
                    + " ELSE 0 END AS FLOAT), 'CAST(16777.217 AS FLOAT)', CAST(NULL AS FLOAT),"
                    + " CAST(7 AS DOUBLE) -- CAST(1.23456789 AS FLOAT)\n"
                    + " /* CAST(9.87654321 AS FLOAT) */, CAST(PI() AS FLOAT),"
                    + " CAST(U&'16777.217' AS FLOAT), CAST('NaN' AS FLOAT) FROM t"))
        .containsExactly(
            "16777.217",
            "trim(' 1.25 ')",
            "CAST(16777.217 AS STRING)",
            "-2.5",
            "16777.2 + 0.017",
            "PI()");
  }

  @Test
  void theConstantsSevenDigitsKeepAreTheOnesTheyRoundToTheSameFloat() {
    assertThat(FloatConstants.roundedByThePlanner("16777.217")).contains("16777.22");
    assertThat(FloatConstants.roundedByThePlanner("1.2345678E10")).contains("1.234568E+10");
    assertThat(FloatConstants.roundedByThePlanner("0.1")).isEmpty();
    assertThat(FloatConstants.roundedByThePlanner("3.4028235E38")).contains("3.402824E+38");
    assertThat(FloatConstants.roundedByThePlanner("16777216")).contains("1.677722E+7");
    assertThat(FloatConstants.roundedByThePlanner("-0.5")).isEmpty();
    assertThat(FloatConstants.roundedByThePlanner("-1.4E-45")).isEmpty();
  }

  @Test
  void aCatalogRefusalIsInvalidInputWithTheCatalogsReason() {
    assertThatThrownBy(() -> run("CREATE DATABASE sales"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot run SQL statement 1 (line 1 of the command line):"
                + " Database sales already exists in Catalog floe.");
  }

  @Test
  void aValueTheQueryCannotComputeWhileItsJobRunsIsInvalidInput() {
    assertThatThrownBy(() -> run("SELECT CAST(note AS INT) FROM sales.orders WHERE id = 1"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot run SQL statement 1 (line 1 of the command line): ")
        .hasMessageContaining("first; with a semicolon");
    assertThatThrownBy(() -> run("SELECT 1 / (id - id) FROM sales.orders"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("Cannot run SQL statement 1 (line 1 of the command line): / by zero");
    assertThatThrownBy(() -> run("SELECT CAST(note AS BOOLEAN) FROM sales.orders WHERE id = 1"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("as BOOLEAN");
    assertThatThrownBy(() -> run("SELECT CAST(note AS TIMESTAMP) FROM sales.orders WHERE id = 1"))
        .isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(() -> run("SELECT CAST(note AS DOUBLE) FROM sales.orders WHERE id = 1"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("first; with a semicolon");
    assertThatThrownBy(
            () -> run("SELECT CAST(note AS DECIMAL(10, 2)) FROM sales.orders WHERE id = 1"))
        .isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(
            () ->
                run(
                    "SELECT CAST(CONCAT('1e', CAST(id + 2147483646 AS STRING)) AS DECIMAL(38, 2))"
                        + " FROM sales.orders WHERE id = 1"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageEndingWith("Underflow");
    assertThatThrownBy(
            () ->
                run(
                    "SELECT count(*) FROM sales.orders"
                        + " WHERE note LIKE CONCAT(note, '!') ESCAPE '!' AND id = 1"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Invalid escape sequence");
    assertThatThrownBy(() -> run("SELECT ELEMENT(ARRAY[id, id]) FROM sales.orders WHERE id = 1"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("more than one element");
    assertThatThrownBy(() -> run("SELECT FROM_UNIXTIME(id, note) FROM sales.orders WHERE id = 1"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Illegal pattern character");
    // SHA2 asks for the digest "SHA-" + its bit length, and "SHA-2" is none: with the length
    // from a row, and with a length the planner fixed (generated code that fails as it starts).
    assertThatThrownBy(
            () -> run("SELECT SHA2(note, CAST(amount AS INT) - 8) FROM sales.orders WHERE id = 1"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot run SQL statement 1 (line 1 of the command line): SHA-2 MessageDigest not"
                + " available");
    assertThatThrownBy(
            () -> run("SELECT SHA2(note, CAST(id AS INT) + 1) FROM sales.orders WHERE id = 1"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot run SQL statement 1 (line 1 of the command line): Unsupported algorithm.");
  }

  @Test
  void anIcebergTableIsNotNamedWithADotBecauseItsConnectorCouldNotLoadIt() {
    String refusal =
        "Cannot run SQL statement 1 (line 1 of the command line): the table name 'a.b' has a '.',"
            + " which Iceberg's Flink connector reads as a separator, so it could neither read nor"
            + " write the table; use a name without '.', e.g. 'a_b'";
    assertThatThrownBy(() -> run("CREATE TABLE sales.`a.b` (id BIGINT)"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(refusal);
    assertThatThrownBy(() -> run("CREATE TABLE sales.`a.b` AS SELECT 1 AS id"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(refusal);
    run("CREATE TABLE sales.renamed_not (id BIGINT)");
    assertThatThrownBy(() -> run("ALTER TABLE sales.renamed_not RENAME TO sales.`a.b`"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(refusal);
    assertThat(tableNames("sales")).contains("renamed_not").doesNotContain("a.b");
    // A JDBC catalog stores a namespace as its levels joined by '.': a database `x.y` is the
    // nested namespace a table spec x.y.t makes, and the connector finds its tables.
    run("CREATE DATABASE `x.y`");
    run("CREATE TABLE `x.y`.t (id BIGINT)");
    run("INSERT INTO `x.y`.t VALUES (7)");
    assertThat(run("SELECT id FROM `x.y`.t"))
        .singleElement()
        .isInstanceOfSatisfying(
            QueryResult.class, q -> assertThat(q.rows()).containsExactly(List.of(7L)));
    // An Iceberg catalog the session creates itself is checked as well.
    Path warehouse = home.resolve("session-catalog");
    run(
        "CREATE CATALOG session_ice WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop',"
            + " 'warehouse' = '"
            + warehouse.toUri()
            + "')");
    try {
      run("CREATE DATABASE session_ice.db");
      assertThatThrownBy(() -> run("CREATE TABLE session_ice.db.`a.b` (id BIGINT)"))
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("the table name 'a.b' has a '.'");
      // A catalog that keeps namespace levels apart would look `x.y` up as x, then y.
      assertThatThrownBy(() -> run("CREATE DATABASE session_ice.`x.y`"))
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("the database name 'x.y' has a '.'");
    } finally {
      run("DROP CATALOG session_ice");
    }

    // A temporary table lives in the session, which reads its name back as written.
    run(
        "CREATE TEMPORARY TABLE sales.`t.mp` (id STRING) WITH ('connector' = 'datagen',"
            + " 'number-of-rows' = '2')");
    try {
      assertThat(run("SELECT count(*) FROM sales.`t.mp`"))
          .singleElement()
          .isInstanceOfSatisfying(
              QueryResult.class, q -> assertThat(q.rows()).containsExactly(List.of(2L)));
    } finally {
      run("DROP TEMPORARY TABLE sales.`t.mp`");
    }
  }

  private static List<Object> tableNames(String database) {
    QueryResult tables = (QueryResult) run("SHOW TABLES FROM " + database).get(0);
    return tables.rows().stream().map(row -> row.get(0)).toList();
  }

  @Test
  void aRowLevelDeleteOrUpdateOfAnIcebergTableIsRefusedBeforeAnyClusterStarts() {
    java.util.concurrent.atomic.AtomicInteger starts =
        new java.util.concurrent.atomic.AtomicInteger();
    SqlRunner counting = new SqlRunner(tableEnv, config, starts::incrementAndGet);

    assertThatThrownBy(
            () -> counting.run(SqlScript.fromCommandLine("DELETE FROM sales.orders WHERE id = 1")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot run SQL statement 1 (line 1 of the command line): ")
        .hasMessageContaining("SupportsRowLevelDelete")
        .hasMessageEndingWith(
            "To remove rows, rewrite their slice with a floe run overwrite, which also empties a"
                + " slice; INSERT OVERWRITE replaces only the partitions its query writes rows to");
    assertThatThrownBy(
            () ->
                counting.run(
                    SqlScript.fromCommandLine("UPDATE sales.orders SET note = 'x' WHERE id = 1")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("SupportsRowLevelUpdate")
        .hasMessageEndingWith(
            "To change rows, rewrite their slice with a floe run overwrite, or merge them by key"
                + " with floe run");
    assertThat(starts).hasValue(0);
    counting.run(SqlScript.fromCommandLine("SELECT count(*) FROM sales.orders"));
    assertThat(starts).hasValue(1);
    assertThat(run("SELECT count(*) FROM sales.orders WHERE id = 1"))
        .singleElement()
        .isInstanceOfSatisfying(
            QueryResult.class, q -> assertThat(q.rows()).containsExactly(List.of(1L)));
  }

  @Test
  void aTemporaryTableThatShadowsAnIcebergTableIsNotTakenForIt() throws Exception {
    run("CREATE TABLE sales.shadowed (id STRING)");
    Path csv = java.nio.file.Files.createDirectories(home.resolve("shadow-csv"));
    run(
        "CREATE TEMPORARY TABLE sales.shadowed (id STRING) WITH ('connector' = 'filesystem',"
            + " 'path' = '"
            + csv.toUri()
            + "', 'format' = 'raw')");
    java.util.concurrent.atomic.AtomicInteger starts =
        new java.util.concurrent.atomic.AtomicInteger();
    SqlRunner counting = new SqlRunner(tableEnv, config, starts::incrementAndGet);
    try {
      assertThatThrownBy(
              () -> counting.run(SqlScript.fromCommandLine("DELETE FROM sales.shadowed")))
          .isInstanceOf(InvalidInputException.class)
          .hasMessageNotContaining("floe run");
      assertThat(starts).hasValue(1);
    } finally {
      run("DROP TEMPORARY TABLE sales.shadowed");
    }
  }

  @Test
  void icebergsFlinkSinkChangesNoSingleRows() {
    // What IcebergTables.refusedWhilePlanned relies on: a DELETE or UPDATE of an Iceberg table
    // never reaches a job, so floe sql starts no cluster for it.
    Class<?> sink = org.apache.iceberg.flink.IcebergTableSink.class;
    assertThat(org.apache.flink.table.connector.sink.DynamicTableSink.class.isAssignableFrom(sink))
        .isTrue();
    assertThat(
            List.of(
                org.apache.flink.table.connector.sink.abilities.SupportsRowLevelDelete.class,
                org.apache.flink.table.connector.sink.abilities.SupportsRowLevelUpdate.class,
                org.apache.flink.table.connector.sink.abilities.SupportsDeletePushDown.class))
        .noneMatch(ability -> ability.isAssignableFrom(sink));
  }

  @Test
  void aCommandOfFlinksSqlClientIsRefusedSayingWhatToUseInstead() {
    assertThatThrownBy(() -> run("SET 'parallelism.default' = '1'"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot run SQL statement 1 (line 1 of the command line): SET is a command of Flink's"
                + " SQL client, not of floe sql; the parallelism is --parallelism, and a table's"
                + " read or write options go in a /*+ OPTIONS('key'='value') */ hint");
    for (String command :
        List.of(
            "RESET",
            "HELP",
            "QUIT",
            "CLEAR",
            "SHOW JOBS",
            "STOP JOB 'abc'",
            "DESCRIBE JOB 'abc'",
            "REMOVE JAR '/tmp/nope.jar'")) {
      String keyword = command.replaceAll(" '.*", "");
      assertThatThrownBy(() -> run(command))
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining(keyword + " is a command of Flink's SQL client");
    }
  }

  @Test
  void aTableCreatedOrFilledFromAQueryIsCheckedForColumnsFlinkCannotCarry() {
    run("CREATE TABLE sales.times (t TIME(6))");
    String micros = "SELECT TIME '12:00:00.123456' AS t";

    assertThatThrownBy(() -> run("CREATE TABLE IF NOT EXISTS sales.times AS " + micros))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("column t of sales.times has type time");
    assertThatThrownBy(() -> run("REPLACE TABLE sales.orders_copy AS " + micros))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("column t of sales.orders_copy as created has type time");
    assertThatThrownBy(() -> run("CREATE TABLE sales.new_times AS " + micros))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("column t of sales.new_times as created has type time");
    assertThat(run("SHOW TABLES IN sales"))
        .singleElement()
        .isInstanceOfSatisfying(
            QueryResult.class,
            q -> assertThat(q.rows()).doesNotContain(List.of("new_times"), List.of("orders_copy")));
    run("CREATE TABLE sales.ctas AS SELECT id, note FROM sales.orders WHERE id = 1");
    assertThat(run("SELECT id, note FROM sales.ctas"))
        .singleElement()
        .isInstanceOfSatisfying(
            QueryResult.class,
            q -> assertThat(q.rows()).containsExactly(List.of(1L, "first; with a semicolon")));
  }

  @Test
  void anIcebergTableThatExistsIsNotReplacedByAQueryBecauseFlinkDropsItFirst() {
    List<List<Object>> before = rowsOf("SELECT id, note FROM sales.orders ORDER BY id");

    assertThatThrownBy(
            () -> run("REPLACE TABLE sales.orders AS SELECT id + 1 AS id FROM sales.orders"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot run SQL statement 1 (line 1 of the command line): REPLACE TABLE ... AS is not"
                + " run by floe sql on a table that exists (sales.orders): Flink drops the table (an"
                + " Iceberg table with its files) before the query runs, so a query that fails or"
                + " reads the table leaves it empty; write the rows to a new table with CREATE TABLE"
                + " ... AS and then drop the old one, or use floe run with mode: swap");
    assertThatThrownBy(() -> run("REPLACE TABLE `floe`.`sales`.`orders` AS SELECT 1 AS id"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("not run by floe sql on a table that exists (sales.orders)");
    assertThatThrownBy(
            () ->
                run(
                    "CREATE OR REPLACE TABLE sales.orders AS SELECT CAST(note AS INT) AS n"
                        + " FROM sales.orders"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("REPLACE TABLE ... AS is not run by floe sql");
    assertThat(rowsOf("SELECT id, note FROM sales.orders ORDER BY id")).isEqualTo(before);

    run("CREATE OR REPLACE TABLE sales.fresh AS SELECT 1 AS id");
    assertThat(rowsOf("SELECT id FROM sales.fresh")).containsExactly(List.of(1));
  }

  private static List<List<Object>> rowsOf(String query) {
    return ((QueryResult) run(query).get(0)).rows();
  }

  @Test
  void aConstraintFlinksValidatorRefusesIsInvalidInput() {
    assertThatThrownBy(() -> run("CREATE TABLE sales.pk (id INT PRIMARY KEY)"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot run SQL statement 1 (line 1 of the command line): ")
        .hasMessageContaining("ENFORCED");
  }

  @Test
  void statementsThatWouldPrintOrChangeTheCatalogsOptionsAreRefusedPointingToFloeYaml() {
    for (String statement :
        List.of(
            "DESCRIBE CATALOG floe",
            "SHOW CREATE CATALOG floe",
            "ALTER CATALOG floe SET ('k' = 'v')",
            "ALTER CATALOG floe RESET ('k')",
            "ALTER CATALOG floe COMMENT 'x'")) {
      assertThatThrownBy(() -> run(statement))
          .as(statement)
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("is not run by floe sql: it opens its catalog from the home's")
          .hasMessageNotContaining("\n");
    }
    assertThat(ResultTable.render(run("SHOW CATALOGS"))).contains("floe");
    assertThat(ResultTable.render(run("DESCRIBE sales.orders"))).contains("order_date");
  }

  @Test
  void aStatementSetOrACompiledPlanIsRefusedSoNoWriteSkipsTheTypeChecks() {
    assertThatThrownBy(
            () ->
                run(
                    "EXECUTE STATEMENT SET BEGIN INSERT INTO sales.orders SELECT * FROM"
                        + " sales.orders; END"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("EXECUTE STATEMENT SET is not run by floe sql");
    assertThatThrownBy(() -> run("ANALYZE TABLE sales.orders COMPUTE STATISTICS"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("ANALYZE TABLE is not run by floe sql");
    assertThatThrownBy(() -> run("BEGIN STATEMENT SET"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("BEGIN STATEMENT SET is not run by floe sql");
    assertThatThrownBy(() -> run("END"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("END is not run by floe sql");
    Path plan = home.resolve("plan.json");
    String insert = "INSERT INTO sales.orders VALUES (9, 1.00, DATE '2026-10-09', 'plan')";
    assertThatThrownBy(() -> run("COMPILE AND EXECUTE PLAN '" + plan.toUri() + "' FOR " + insert))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("COMPILE AND EXECUTE PLAN is not run by floe sql");
    assertThatThrownBy(() -> run("COMPILE PLAN '" + plan.toUri() + "' FOR " + insert))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("COMPILE PLAN is not run by floe sql");
    assertThatThrownBy(() -> run("EXECUTE PLAN '" + plan.toUri() + "'"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("EXECUTE PLAN is not run by floe sql");
    assertThat(plan).doesNotExist();
    assertThat(run("SELECT count(*) FROM sales.orders WHERE id = 9"))
        .singleElement()
        .isInstanceOfSatisfying(
            QueryResult.class, q -> assertThat(q.rows()).containsExactly(List.of(0L)));
  }

  @Test
  void onlyTheSinksRefusalOfARowLevelChangeIsTheStatementsFault() {
    UnsupportedOperationException bySink = new UnsupportedOperationException("no deletes");
    bySink.setStackTrace(
        new StackTraceElement[] {
          new StackTraceElement(
              "org.apache.flink.table.planner.connectors.DynamicSinkUtils",
              "convertDelete",
              null,
              1)
        });
    UnsupportedOperationException byAnotherPlannerClass =
        new UnsupportedOperationException("This is a bug, please file an issue.");
    byAnotherPlannerClass.setStackTrace(
        new StackTraceElement[] {
          new StackTraceElement(
              "org.apache.flink.table.planner.plan.nodes.exec.common.CommonExecTableSourceScan",
              "translateToPlanInternal",
              null,
              1),
          new StackTraceElement(
              "org.apache.flink.table.planner.connectors.DynamicSinkUtils",
              "convertDelete",
              null,
              1)
        });

    UnsupportedOperationException bySinkForMetadata =
        new UnsupportedOperationException("The table source don't support reading metadata");
    bySinkForMetadata.setStackTrace(
        new StackTraceElement[] {
          new StackTraceElement(
              "org.apache.flink.table.planner.connectors.DynamicSinkUtils",
              "getRequireColumnsIndexAndExtraMetaCols",
              null,
              1)
        });

    assertThat(SqlRunner.refusedByItsSink(bySink)).isTrue();
    assertThat(SqlRunner.refusedByItsSink(byAnotherPlannerClass)).isFalse();
    assertThat(SqlRunner.refusedByItsSink(bySinkForMetadata)).isFalse();
  }

  @Test
  void aConstantDivisionFlinksPlannerCannotFoldSaysHowToRewriteIt() {
    String rewrite =
        "Cannot run SQL statement 1 (line 1 of the command line): Flink's planner cannot compute a"
            + " constant division whose divisor is an expression (a Flink bug, e.g. 10 / (1 + 1),"
            + " or 10 / (id + 1) with WHERE id = 1); write the divisor as a number";
    assertThatThrownBy(() -> run("SELECT 10 / (1 + 1)"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(rewrite);
    assertThatThrownBy(() -> run("SELECT 10 / (id + 1) FROM sales.orders WHERE id = 1"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(rewrite);
    assertThat(run("SELECT 10 / 2, id / (1 + 1) FROM sales.orders WHERE id > 2"))
        .singleElement()
        .isInstanceOfSatisfying(
            QueryResult.class, q -> assertThat(q.rows()).containsExactly(List.of(5, 1L)));
  }

  @Test
  void aConstantThePlannerCannotFoldIsInvalidInput() {
    assertThatThrownBy(() -> run("SELECT 1 / 0"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("Cannot run SQL statement 1 (line 1 of the command line): Division by zero");
  }

  @Test
  void anInsertIntoATableWhosePropertyIsNotANumberIsRefusedNamingThePropertyNotTheStatement() {
    // Through Iceberg's API: floe sql refuses to give a table such a value (PropertyChangesTest).
    org.apache.iceberg.catalog.Catalog catalog = dev.floe.catalog.config.Catalogs.open(config);
    try {
      catalog.createTable(
          org.apache.iceberg.catalog.TableIdentifier.of("sales", "badprop"),
          new org.apache.iceberg.Schema(
              org.apache.iceberg.types.Types.NestedField.optional(
                  1, "id", org.apache.iceberg.types.Types.IntegerType.get())),
          org.apache.iceberg.PartitionSpec.unpartitioned(),
          java.util.Map.of("write.target-file-size-bytes", "abc"));
    } finally {
      dev.floe.catalog.config.Catalogs.close(catalog);
    }

    assertThatThrownBy(() -> run("INSERT INTO sales.badprop VALUES (1)"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot run SQL statement 1 (line 1 of the command line): property"
                + " write.target-file-size-bytes of sales.badprop: expected a whole number of bytes"
                + " above 0 for Iceberg's write.target-file-size-bytes, got 'abc' (Iceberg could"
                + " not write the table); set a valid value in the table's spec and run `floe"
                + " tables apply`");
    // A CREATE TABLE IF NOT EXISTS ... AS of the table writes into it too.
    assertThatThrownBy(() -> run("CREATE TABLE IF NOT EXISTS sales.badprop AS SELECT 1 AS id"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessageContaining("property write.target-file-size-bytes of sales.badprop");
    assertThat(((QueryResult) run("SELECT count(*) FROM sales.badprop").get(0)).rows())
        .containsExactly(List.of(0L));
  }

  @Test
  void aScriptWithoutStatementsIsInvalidInput() {
    assertThatThrownBy(() -> run("-- nothing to do\n"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("Cannot run SQL from the command line: it holds no statements");
  }

  @Test
  void anInsertThatWouldRoundCutOrNullAValueIsRefusedAndWritesNothing() {
    String count = "SELECT count(*) FROM sales.orders";
    Object before = ((QueryResult) run(count).get(0)).rows().get(0).get(0);

    assertThatThrownBy(
            () -> run("INSERT INTO sales.orders VALUES (4, 1.005, DATE '2026-10-05', 'x')"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot run SQL statement 1 (line 1 of the command line): Cannot insert into"
                + " floe.sales.orders without changing values: column amount is DECIMAL(10, 2)"
                + " and the statement gives it DECIMAL(4, 3) (Flink would convert them without a"
                + " word, and may round, cut or null a value or read it in another time zone; CAST"
                + " them in the statement if that is meant)");
    assertThatThrownBy(
            () ->
                run(
                    "INSERT INTO sales.orders VALUES"
                        + " (4, 123456789012.34, DATE '2026-10-05', 'too large')"))
        .hasMessageContaining(
            "column amount is DECIMAL(10, 2) and the statement gives it" + " DECIMAL(14, 2)");
    assertThatThrownBy(
            () -> run("INSERT INTO sales.orders VALUES (4, 5, DATE '2026-10-05', 'an int')"))
        .hasMessageContaining("column amount is DECIMAL(10, 2) and the statement gives it INT");
    assertThatThrownBy(() -> run("INSERT INTO sales.orders (id, amount) VALUES (4, 1.005)"))
        .as("a column list")
        .hasMessageContaining("column amount is DECIMAL(10, 2) and the statement gives it");
    assertThat(((QueryResult) run(count).get(0)).rows().get(0).get(0)).isEqualTo(before);
  }

  @Test
  void aRefusalOverManyColumnsNamesTheFirstFiveAndCountsTheRest() {
    run(
        "CREATE TABLE sales.many (a DOUBLE, b DOUBLE, c DOUBLE, d DOUBLE, e DOUBLE, f DOUBLE,"
            + " g DOUBLE)");

    assertThatThrownBy(
            () -> run("INSERT INTO sales.many VALUES (1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5)"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(
            "column e is DOUBLE and the statement gives it DECIMAL(2, 1); and 2 more columns (Flink")
        .message()
        .doesNotContain("column f");
  }

  @Test
  void aCreateTableAsAndAStaticPartitionAreCheckedLikeAnInsert() {
    assertThatThrownBy(
            () -> run("CREATE TABLE sales.ctas_round (a DECIMAL(10, 2)) AS SELECT 1.005 AS a"))
        .hasMessageContaining(
            "Cannot insert into floe.sales.ctas_round without changing values: column a is"
                + " DECIMAL(10, 2) and the statement gives it DECIMAL(4, 3)");
    run("CREATE TABLE sales.ctas_ok (a DECIMAL(10, 2)) AS SELECT 1.25 AS a");
    assertThatThrownBy(() -> run("CREATE TABLE IF NOT EXISTS sales.ctas_ok AS SELECT 2.005 AS a"))
        .as("into the table that exists")
        .hasMessageContaining(
            "column a is DECIMAL(10, 2) and the statement gives it DECIMAL(4, 3)");
    run("CREATE TABLE sales.by_k (v INT, k DECIMAL(10, 2)) PARTITIONED BY (k)");
    assertThatThrownBy(() -> run("INSERT INTO sales.by_k PARTITION (k = 1.005) SELECT 1"))
        .hasMessageContaining(
            "column k is DECIMAL(10, 2) and the statement gives it the partition value 1.005");
    assertThatThrownBy(() -> run("INSERT INTO sales.by_k PARTITION (k = 123456789012.5) SELECT 2"))
        .hasMessageContaining("the partition value 123456789012.5");
    run("INSERT INTO sales.by_k PARTITION (k = 1.500) SELECT 3"); // the value 1.5, exactly
    run("CREATE TABLE sales.by_f (v INT, f FLOAT, dt DATE) PARTITIONED BY (f, dt)");
    assertThatThrownBy(
            () ->
                run(
                    "INSERT INTO sales.by_f PARTITION (f = 16777217, dt = '2026-10-03') SELECT"
                        + " 1"))
        .hasMessageContaining("column f is FLOAT and the statement gives it the partition value");
    assertThatThrownBy(
            () ->
                run(
                    "INSERT INTO sales.by_f PARTITION (f = 0.5, dt = '2026-10-03 23:59:59')"
                        + " SELECT 1"))
        .hasMessageContaining("column dt is DATE and the statement gives it the partition value");
    assertThatThrownBy(
            () -> run("INSERT INTO sales.by_f PARTITION (f = '-0', dt = '2026-10-03') SELECT 1"))
        .as("Flink casts '-0' to a positive zero")
        .hasMessageContaining(
            "column f is FLOAT and the statement gives it the partition value -0");
    run(
        "CREATE TABLE sales.by_misc (v INT, ts TIMESTAMP(6), bin BINARY(4), z DECIMAL(2, 2))"
            + " PARTITIONED BY (ts, bin, z)");
    assertThatThrownBy(
            () ->
                run(
                    "INSERT INTO sales.by_misc PARTITION (ts = '2026-04-31 00:00:00', bin ="
                        + " 'abcd', z = 0.00) SELECT 1"))
        .as("a day April does not have")
        .hasMessageContaining("column ts is TIMESTAMP(6) and the statement gives it the partition");
    assertThatThrownBy(
            () ->
                run(
                    "INSERT INTO sales.by_misc PARTITION (ts = '2026-04-30 00:00:00', bin = 'a',"
                        + " z = 0.00) SELECT 1"))
        .as("padded with zeros")
        .hasMessageContaining("column bin is BINARY(4) and the statement gives it the partition");
    run(
        "INSERT INTO sales.by_misc PARTITION (ts = '2026-04-30 00:00:00.500', bin = 'abcd', z ="
            + " 0.00) SELECT 1");
    assertThatThrownBy(
            () ->
                run(
                    "CREATE OR REPLACE TABLE sales.rtas_round (a DECIMAL(10, 2)) AS SELECT 1.005"
                        + " AS a"))
        .hasMessageContaining(
            "Cannot insert into floe.sales.rtas_round without changing values: column a is"
                + " DECIMAL(10, 2)");

    assertThat(((QueryResult) run("SELECT a FROM sales.ctas_ok").get(0)).rows())
        .containsExactly(List.of(new BigDecimal("1.25")));
    assertThat(((QueryResult) run("SELECT v, k FROM sales.by_k").get(0)).rows())
        .containsExactly(List.of(3, new BigDecimal("1.50")));
  }

  @Test
  void aTextConstantThePlannerDecodesLossilyIsRefusedAndNothingIsWritten() {
    run("CREATE TABLE sales.texts (id BIGINT, s STRING)");
    // Bytes 61 62 ff 63: folded while planning, they would become 'ab\uFFFDc' without an error.
    for (String constant :
        List.of(
            "FROM_BASE64('YWL/Yw==')",
            "DECODE(X'6162FF63', 'UTF-8')",
            "CAST(X'6162FF63' AS STRING)",
            "CAST(UNHEX('6162FF63') AS STRING)",
            "URL_DECODE('ab%FFc')",
            "UPPER(FROM_BASE64(v))",
            // A FFFD elsewhere in the statement exempts nothing: X'61FFFD63', a comment.
            "CAST(X'61FFFD63' AS STRING)",
            "FROM_BASE64('YWL/Yw==') /* FFFD */",
            // A U+FFFD the statement writes exempts only itself.
            "CONCAT(U&'\\FFFD', FROM_BASE64('YWL/Yw=='))")) {
      String query =
          "SELECT CAST(1 AS BIGINT) AS id, " + constant + " AS s FROM (SELECT 'YWL/Yw==' AS v)";
      assertThatThrownBy(() -> run("INSERT INTO sales.texts " + query))
          .as(constant)
          .isInstanceOf(InvalidInputException.class)
          .hasMessageStartingWith("Cannot run SQL statement 1 (line 1 of the command line): ")
          .hasMessageContaining("replacing the bytes that are not UTF-8 with U+FFFD");
      assertThatThrownBy(() -> run(query)).as(constant).isInstanceOf(InvalidInputException.class);
    }
    assertThat(((QueryResult) run("SELECT COUNT(*) FROM sales.texts").get(0)).rows())
        .containsExactly(List.of(0L));
    // Well-formed bytes, and a U+FFFD the statement itself writes, are written as they are.
    run("INSERT INTO sales.texts VALUES (2, FROM_BASE64('YWJj')), (3, U&'ab\\FFFDc')");
    assertThat(((QueryResult) run("SELECT s FROM sales.texts ORDER BY id").get(0)).rows())
        .containsExactly(List.of("abc"), List.of("ab\uFFFDc"));
  }

  @Test
  void aCreateTableAsWhoseJobFailsLeavesNoTableBehindAndKeepsATableThatExisted() {
    String badBytes =
        " AS SELECT CAST(1 AS BIGINT) AS id, FROM_BASE64(b) AS s FROM (VALUES ('/w==')) AS v(b)";
    assertThatThrownBy(() -> run("CREATE TABLE sales.ctas_refused" + badBytes))
        .hasMessageContaining("Cannot write a string that is not UTF-8 into column s");
    assertThatThrownBy(() -> run("CREATE OR REPLACE TABLE sales.rtas_refused" + badBytes))
        .hasMessageContaining("Cannot write a string that is not UTF-8 into column s");
    assertThat(tableNames("sales")).doesNotContain("ctas_refused", "rtas_refused");
    run("CREATE TABLE sales.ctas_refused AS SELECT CAST(1 AS BIGINT) AS id, 'a' AS s");

    run("CREATE TABLE sales.ctas_kept (id BIGINT, s STRING)");
    assertThatThrownBy(() -> run("CREATE TABLE IF NOT EXISTS sales.ctas_kept" + badBytes))
        .hasMessageContaining("Cannot write a string that is not UTF-8 into column s");
    assertThat(tableNames("sales")).contains("ctas_kept", "ctas_refused");
    assertThat(((QueryResult) run("SELECT id, s FROM sales.ctas_refused").get(0)).rows())
        .containsExactly(List.of(1L, "a"));
  }

  @Test
  void aNullInARequiredNestedFieldIsRefusedByNameAndNothingIsWritten() {
    // Through Iceberg's API: Flink's DDL keeps NOT NULL of top-level columns only.
    org.apache.iceberg.catalog.Catalog catalog = dev.floe.catalog.config.Catalogs.open(config);
    try {
      catalog.createTable(
          org.apache.iceberg.catalog.TableIdentifier.of("sales", "nested"),
          new org.apache.iceberg.Schema(
              org.apache.iceberg.types.Types.NestedField.optional(
                  1, "id", org.apache.iceberg.types.Types.LongType.get()),
              org.apache.iceberg.types.Types.NestedField.optional(
                  2,
                  "s",
                  org.apache.iceberg.types.Types.StructType.of(
                      org.apache.iceberg.types.Types.NestedField.required(
                          3, "a", org.apache.iceberg.types.Types.IntegerType.get()),
                      org.apache.iceberg.types.Types.NestedField.optional(
                          4, "b", org.apache.iceberg.types.Types.StringType.get()))),
              org.apache.iceberg.types.Types.NestedField.optional(
                  5,
                  "xs",
                  org.apache.iceberg.types.Types.ListType.ofRequired(
                      6, org.apache.iceberg.types.Types.IntegerType.get())),
              org.apache.iceberg.types.Types.NestedField.optional(
                  7,
                  "m",
                  org.apache.iceberg.types.Types.MapType.ofRequired(
                      8,
                      9,
                      org.apache.iceberg.types.Types.StringType.get(),
                      org.apache.iceberg.types.Types.IntegerType.get()))));
    } finally {
      dev.floe.catalog.config.Catalogs.close(catalog);
    }
    assertThatThrownBy(
            () ->
                run(
                    "INSERT INTO sales.nested SELECT CAST(1 AS BIGINT), ROW(a, 'x'),"
                        + " ARRAY[1], MAP['k', 1] FROM (VALUES (CAST(NULL AS INT))) AS v(a)"))
        .hasMessageContaining(
            "Cannot write NULL into required field s.a of floe.sales.nested: the table declares"
                + " it NOT NULL");
    assertThatThrownBy(
            () ->
                run(
                    "INSERT INTO sales.nested SELECT CAST(2 AS BIGINT), ROW(1, CAST(NULL AS"
                        + " STRING)), ARRAY[a], MAP['k', 1] FROM (VALUES (CAST(NULL AS INT))) AS"
                        + " v(a)"))
        .hasMessageContaining("Cannot write NULL into required field xs.element");
    assertThatThrownBy(
            () ->
                run(
                    "INSERT INTO sales.nested SELECT CAST(3 AS BIGINT), ROW(1, 'x'), ARRAY[1],"
                        + " MAP['k', a] FROM (VALUES (CAST(NULL AS INT))) AS v(a)"))
        .hasMessageContaining("Cannot write NULL into required field m.value");
    // NULL where the table allows it is written.
    run(
        "INSERT INTO sales.nested SELECT CAST(4 AS BIGINT), ROW(1, CAST(NULL AS STRING)),"
            + " ARRAY[1], MAP['k', 1]");
    assertThat(((QueryResult) run("SELECT id, s.b FROM sales.nested").get(0)).rows())
        .containsExactly(java.util.Arrays.asList(4L, null));
  }

  @Test
  void losslessConversionsAreTheWideningsOnly() {
    var int32 = new org.apache.flink.table.types.logical.IntType();
    var int64 = new org.apache.flink.table.types.logical.BigIntType();
    var float32 = new org.apache.flink.table.types.logical.FloatType();
    var float64 = new org.apache.flink.table.types.logical.DoubleType();
    var micros = new org.apache.flink.table.types.logical.TimestampType(6);
    var nanos = new org.apache.flink.table.types.logical.TimestampType(9);
    var seconds = new org.apache.flink.table.types.logical.TimestampType(0);
    var money = new org.apache.flink.table.types.logical.DecimalType(10, 2);

    assertThat(LosslessInsert.holds(int32, int64)).isTrue();
    assertThat(LosslessInsert.holds(int64, int32)).isFalse();
    assertThat(LosslessInsert.holds(int32, float64)).isTrue();
    assertThat(LosslessInsert.holds(int32, float32)).isFalse(); // 16777217 becomes 16777216
    assertThat(LosslessInsert.holds(int64, float64)).isFalse();
    assertThat(LosslessInsert.holds(float32, float64)).isTrue();
    assertThat(LosslessInsert.holds(seconds, micros)).isTrue();
    assertThat(LosslessInsert.holds(nanos, micros)).isFalse();
    assertThat(
            LosslessInsert.holds(new org.apache.flink.table.types.logical.DecimalType(4, 2), money))
        .isTrue();
    assertThat(
            LosslessInsert.holds(new org.apache.flink.table.types.logical.DecimalType(4, 3), money))
        .isFalse();
    assertThat(
            LosslessInsert.holds(
                new org.apache.flink.table.types.logical.DecimalType(11, 2), money))
        .isFalse();
    assertThat(
            LosslessInsert.holds(
                int32, new org.apache.flink.table.types.logical.DecimalType(12, 2)))
        .isTrue();
    assertThat(
            LosslessInsert.holds(
                new org.apache.flink.table.types.logical.CharType(3),
                new org.apache.flink.table.types.logical.VarCharType(
                    org.apache.flink.table.types.logical.VarCharType.MAX_LENGTH)))
        .isTrue();
    assertThat(
            LosslessInsert.holds(
                new org.apache.flink.table.types.logical.BinaryType(1),
                new org.apache.flink.table.types.logical.BinaryType(16)))
        .as("padded with zeros")
        .isFalse();
    assertThat(
            LosslessInsert.holds(
                micros, new org.apache.flink.table.types.logical.LocalZonedTimestampType(6)))
        .as("another kind: the session's zone would decide")
        .isFalse();
  }
}
