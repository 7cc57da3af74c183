package dev.floe.flink.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResultTableTest {

  private static final SqlStatement STATEMENT = new SqlStatement(1, 1, "SELECT ...");

  private static QueryResult query(List<String> names, List<Object>... rows) {
    return new QueryResult(
        STATEMENT, names, names.stream().map(n -> "ANY").toList(), Arrays.asList(rows));
  }

  @Test
  void alignsColumnsRightAligningNumbersAndCountsRows() {
    QueryResult result =
        query(
            List.of("id", "customer", "amount"),
            List.of(1L, "ann", new BigDecimal("10.50")),
            Arrays.asList(20L, null, new BigDecimal("1234.00")));

    assertThat(ResultTable.render(result))
        .isEqualTo(
            String.join(
                "\n",
                "id | customer |  amount",
                "---+----------+--------",
                " 1 | ann      |   10.50",
                "20 | NULL     | 1234.00",
                "(2 rows)"));
  }

  @Test
  void rendersDecimalsWithTheirScaleAndNeverInScientificNotation() {
    QueryResult result =
        query(List.of("a", "b"), List.of(new BigDecimal("70.00"), new BigDecimal("1E+3")));

    assertThat(ResultTable.render(result)).contains("70.00 | 1000");
  }

  @Test
  void rendersDatesAndTimestampsInIsoOrderWithTimestampLtzInUtc() {
    QueryResult result =
        query(
            List.of("d", "ts", "ts_frac", "ltz"),
            List.of(
                LocalDate.of(2026, 10, 3),
                LocalDateTime.of(2026, 10, 3, 12, 0),
                LocalDateTime.of(2026, 10, 3, 12, 0, 0, 123_456_000),
                Instant.parse("2026-10-03T12:00:00Z")));

    assertThat(ResultTable.render(result))
        .contains(
            "2026-10-03 | 2026-10-03 12:00:00 | 2026-10-03 12:00:00.123456 |"
                + " 2026-10-03 12:00:00+00");
  }

  @Test
  void rendersTheSeedDimensionAsPostgreSqlPrintsIt() {
    QueryResult result =
        query(
            List.of("customer_id", "tier", "updated_at"),
            List.of(10L, "pro", Instant.parse("2026-10-03T12:00:00Z")),
            List.of(11L, "free", Instant.parse("2026-10-03T10:00:00Z")));

    assertThat(ResultTable.render(result))
        .isEqualTo(
            String.join(
                "\n",
                "customer_id | tier | updated_at",
                "------------+------+-----------------------",
                "         10 | pro  | 2026-10-03 12:00:00+00",
                "         11 | free | 2026-10-03 10:00:00+00",
                "(2 rows)"));
  }

  @Test
  void rendersBooleansBytesAndNestedValues() {
    QueryResult result =
        query(
            List.of("b", "bin", "arr"),
            List.of(true, new byte[] {1, (byte) 0xab}, new Integer[] {1, null}));

    assertThat(ResultTable.render(result)).contains("TRUE | 01ab | [1, NULL]");
  }

  @Test
  void keepsTheLinesOfAMultiLineValueButNotItsTrailingLineBreaks() {
    QueryResult result = query(List.of("result"), List.of("== Plan ==\nScan(t)\n\n"));

    assertThat(ResultTable.render(result))
        .isEqualTo(String.join("\n", "result", "----------", "== Plan ==", "Scan(t)", "(1 row)"));
  }

  @Test
  void anEmptyResultStillShowsTheHeader() {
    assertThat(ResultTable.render(query(List.of("table name"))))
        .isEqualTo("table name\n----------\n(0 rows)");
  }

  @Test
  void statementsWithoutRowsRenderAsOkSeparatedByBlankLines() {
    List<StatementResult> results =
        List.of(new OkResult(STATEMENT), new InsertResult(new SqlStatement(2, 2, "INSERT ...")));

    assertThat(ResultTable.render(results)).isEqualTo("OK\n\nOK (job finished)");
  }
}
