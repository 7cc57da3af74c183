package dev.floe.catalog.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** nondeterministic-query, query-without-slice-bounds and query-reads-target. */
class QueryRulesTest {
  @TempDir Path dir;

  private static final String WHERE =
      "WHERE order_date >= :slice_start AND order_date < :slice_end";

  private LintFiles jobWithQuery(String query) {
    LintFiles files = new LintFiles(dir);
    files.write(
        "jobs/daily.yaml",
        LintFiles.DAILY_JOB.replace(
            """
              SELECT order_id, customer_id, amount, order_date
              FROM sales.staging_orders
              WHERE order_date >= :slice_start AND order_date < :slice_end
            """,
            query.indent(2)));
    return files;
  }

  @Test
  void aWallClockFunctionIsAFindingOnItsLineOfTheQuery() {
    LintFiles files =
        jobWithQuery(
            """
            SELECT order_id, customer_id, amount, order_date
            FROM sales.staging_orders
            WHERE order_date = CURRENT_DATE AND order_date >= :slice_start
              AND order_date < :slice_end AND order_id < UNIX_TIMESTAMP()
            """);

    assertThat(files.findings(NondeterministicQuery.RULE))
        .extracting(Finding::line, Finding::message)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                9,
                "Cannot rerun safely: the query calls CURRENT_DATE, which reads the wall clock;"
                    + " take the slice from :slice_start and :slice_end (or set"
                    + " allow_nondeterministic: true)"),
            org.assertj.core.groups.Tuple.tuple(
                10,
                "Cannot rerun safely: the query calls UNIX_TIMESTAMP(), which reads the wall"
                    + " clock; take the slice from :slice_start and :slice_end (or set"
                    + " allow_nondeterministic: true)"));
  }

  @Test
  void aRandomFunctionIsAFindingThatSaysSo() {
    LintFiles files = jobWithQuery("SELECT order_id, rand() AS r, uuid() AS u FROM s " + WHERE);

    assertThat(files.findings(NondeterministicQuery.RULE))
        .extracting(Finding::message)
        .allMatch(m -> m.contains("returns other values on every run"))
        .anyMatch(m -> m.contains("RAND()"))
        .anyMatch(m -> m.contains("UUID()"));
  }

  @Test
  void functionsInCommentsStringsAndIdentifiersOrWithArgumentsAreNotFindings() {
    LintFiles files =
        jobWithQuery(
            """
            -- not NOW(): the slice is a parameter
            SELECT order_id, 'CURRENT_DATE' AS label, `now`, /* RAND() */ amount,
              UNIX_TIMESTAMP(created, 'yyyy-MM-dd') AS ts, t.current_date
            FROM s t
            """
                + WHERE);

    assertThat(files.findings(NondeterministicQuery.RULE)).isEmpty();
  }

  @Test
  void aFunctionCalledByItsQuotedNameIsAFindingAsFlinkResolvesIt() {
    LintFiles files =
        jobWithQuery(
            """
            SELECT order_id, CAST(`RAND`() * 100 AS DECIMAL(10,2)) AS r,
              `now` AS n, t.`uuid`() AS u, `Now` () AS loaded_at, "unix_timestamp"()
            FROM s t
            """
                + WHERE);

    assertThat(files.findings(NondeterministicQuery.RULE))
        .extracting(f -> f.line() + " " + f.message().split(", which")[0])
        .containsExactly(
            "7 Cannot rerun safely: the query calls RAND()",
            "8 Cannot rerun safely: the query calls NOW()",
            "8 Cannot rerun safely: the query calls UNIX_TIMESTAMP()");
  }

  @Test
  void aFindingInAFoldedOrPlainQueryIsOnItsLineOfTheFile() {
    String head = LintFiles.DAILY_JOB.substring(0, LintFiles.DAILY_JOB.indexOf("query:"));
    LintFiles files = new LintFiles(dir);
    files.write(
        "jobs/folded.yaml",
        head
            + """
            query: >
              SELECT order_id, amount

              FROM sales.staging_orders
              WHERE order_date = CURRENT_DATE
                AND order_date >= :slice_start AND order_date < :slice_end AND 1 < RAND()
            """);
    files.write(
        "jobs/plain.yaml",
        head
            + """
            query: SELECT order_id, amount
              FROM sales.staging_orders JOIN sales.fact_orders USING (order_id)
              WHERE order_date >= :slice_start AND order_date < :slice_end AND 1 < NOW()
            """);

    assertThat(files.lint().findings())
        .filteredOn(f -> f.rule().startsWith("query-reads") || f.rule().startsWith("nondet"))
        .extracting(f -> Path.of(f.file()).getFileName() + ":" + f.line() + " " + f.rule())
        .containsExactly(
            "folded.yaml:10 nondeterministic-query",
            "folded.yaml:11 nondeterministic-query",
            "plain.yaml:7 query-reads-target",
            "plain.yaml:8 nondeterministic-query");
  }

  @Test
  void aQuotedCallWithACommentBeforeItsParenthesisAndAnAnchoredPlainQueryAreOnTheirLines() {
    String head = LintFiles.DAILY_JOB.substring(0, LintFiles.DAILY_JOB.indexOf("query:"));
    LintFiles files = new LintFiles(dir);
    files.write(
        "jobs/anchored.yaml",
        head
            + """
            query: &q SELECT order_id, amount, `RAND` /* why */ () AS r
              FROM sales.staging_orders
              WHERE order_date >= :slice_start AND order_date < :slice_end AND 1 < NOW()
            """);

    assertThat(files.lint().findings())
        .filteredOn(f -> f.rule().startsWith("nondet"))
        .extracting(f -> f.line() + " " + f.message().split(", which")[0])
        .containsExactly(
            "6 Cannot rerun safely: the query calls RAND()",
            "8 Cannot rerun safely: the query calls NOW()");
  }

  @Test
  void aFindingInAQuotedQueryIsOnTheLineItStartsNeverPastTheFile() {
    String head = LintFiles.DAILY_JOB.substring(0, LintFiles.DAILY_JOB.indexOf("query:"));
    LintFiles files = new LintFiles(dir);
    files.write(
        "jobs/quoted.yaml",
        head
            + "query: \"SELECT order_id\\n\\n\\n\\n\\n\\nFROM sales.fact_orders\\nWHERE"
            + " order_date >= :slice_start AND order_date < :slice_end AND 1 < RAND()\"\n");

    assertThat(files.lint().findings())
        .filteredOn(f -> f.rule().startsWith("query-reads") || f.rule().startsWith("nondet"))
        .extracting(Finding::line)
        .containsExactly(6, 6);
  }

  @Test
  void allowNondeterministicSilencesTheRule() {
    String job =
        LintFiles.DAILY_JOB.replace("SELECT order_id,", "SELECT NOW() AS loaded_at, order_id,");
    LintFiles files = new LintFiles(dir);
    files.write("jobs/daily.yaml", job);
    assertThat(files.findings(NondeterministicQuery.RULE)).hasSize(1);

    files.write("jobs/daily.yaml", job + "allow_nondeterministic: true\n");

    assertThat(files.findings(NondeterministicQuery.RULE)).isEmpty();
  }

  @Test
  void aSlicedQueryWithoutSliceBoundsIsAFinding() {
    LintFiles files =
        jobWithQuery("SELECT * FROM sales.staging_orders -- :slice_start :slice_end\n");

    assertThat(files.findings(QueryWithoutSliceBounds.RULE))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.line()).isEqualTo(6);
              assertThat(f.message())
                  .isEqualTo(
                      "Cannot keep the query inside its slice: it never uses :slice_start or"
                          + " :slice_end, so it reads more than one slice of order_date; filter"
                          + " with order_date >= :slice_start AND order_date < :slice_end");
            });
  }

  @Test
  void aSlicedQueryMissingOnlyTheEndNamesIt() {
    LintFiles files =
        jobWithQuery("SELECT * FROM sales.staging_orders WHERE order_date >= :slice_start");

    assertThat(files.findings(QueryWithoutSliceBounds.RULE))
        .singleElement()
        .satisfies(f -> assertThat(f.message()).contains("never uses :slice_end,"));
  }

  @Test
  void aSlicedQueryUsingBothBoundsIsClean() {
    LintFiles files = new LintFiles(dir);
    files.write("jobs/daily.yaml", LintFiles.DAILY_JOB);

    assertThat(files.findings(QueryWithoutSliceBounds.RULE)).isEmpty();
  }

  @Test
  void aQueryReadingItsOwnTargetIsAFindingOnThatLine() {
    LintFiles files =
        jobWithQuery(
            """
            SELECT s.* FROM sales.staging_orders s
            LEFT JOIN floe.`sales`.`FACT_ORDERS` t ON s.order_id = t.order_id
            """
                + WHERE);

    assertThat(files.findings(QueryReadsTarget.RULE))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.line()).isEqualTo(8);
              assertThat(f.message())
                  .contains(
                      "reads its own target sales.fact_orders (written floe.sales.FACT_ORDERS,"
                          + " which is the same table where the catalog ignores case; floe run"
                          + " checks)");
            });
  }

  @Test
  void aQueryNamingItsTargetOnlyInACommentOrAsAPrefixIsClean() {
    LintFiles files =
        jobWithQuery(
            """
            -- loads sales.fact_orders
            SELECT * FROM sales.fact_orders_staging
            """
                + WHERE);

    assertThat(files.findings(QueryReadsTarget.RULE)).isEmpty();
  }

  @Test
  void boundsThatAreNotHalfOpenAreFindingsOnTheirLines() {
    LintFiles files =
        jobWithQuery(
            """
            SELECT order_id, customer_id, amount, order_date FROM sales.staging_orders
            WHERE order_date > :slice_start
              AND `s`.ORDER_DATE <= :slice_end
            UNION ALL SELECT order_id, customer_id, amount, order_date FROM sales.b
            WHERE order_date BETWEEN :slice_start AND :slice_end
            """);

    assertThat(files.findings(SliceBoundsNotHalfOpen.RULE))
        .extracting(Finding::line, Finding::message)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(
                8,
                "Cannot load the slice exactly: 'order_date > :slice_start' keeps the rows at the slice's"
                    + " start out (the slice is replaced without them); use >= :slice_start"),
            org.assertj.core.groups.Tuple.tuple(
                9,
                "Cannot load the slice exactly: '`s`.ORDER_DATE <= :slice_end' reads the rows at the slice's end,"
                    + " which belong to the next slice and fail the run; use < :slice_end"),
            org.assertj.core.groups.Tuple.tuple(
                11,
                "Cannot load the slice exactly: 'order_date BETWEEN :slice_start AND :slice_end'"
                    + " reads the"
                    + " rows at the slice's end (BETWEEN includes it), which belong to the next"
                    + " slice and fail the run; use >= :slice_start AND < :slice_end"));
  }

  @Test
  void halfOpenBoundsEitherWayRoundAndInCommentsAreClean() {
    LintFiles files =
        jobWithQuery(
            """
            -- not: order_date > :slice_start, BETWEEN :slice_start AND :slice_end
            SELECT order_id, customer_id, amount, order_date FROM sales.staging_orders s
            WHERE :slice_start <= s.order_date AND :slice_end > order_date
              AND order_id <> 0 AND note <> '<= :slice_end'
              AND valid_to > :slice_start AND valid_from <= :slice_end
              AND order_date BETWEEN :slice_start AND :slice_end - INTERVAL '1' DAY
              AND order_date > :slice_start - INTERVAL '7' DAY
            """);

    assertThat(files.findings(SliceBoundsNotHalfOpen.RULE)).isEmpty();
    assertThat(jobWithQuery("SELECT * FROM s " + WHERE).findings(SliceBoundsNotHalfOpen.RULE))
        .isEmpty();
  }
}
