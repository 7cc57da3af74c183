package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceUnit;
import dev.floe.flink.session.FlinkSessions;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Optional;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which planned queries provably read only their slice's rows of their one table. */
class SliceReadsITCase {
  @TempDir static Path home;
  private static CatalogConfig config;

  private static final String WHERE = " WHERE d >= :slice_start AND d < :slice_end";

  @BeforeAll
  static void createTables() throws Exception {
    config = CatalogConfigLoader.embedded(home);
    StreamTableEnvironment tableEnv =
        FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config);
    tableEnv.executeSql("CREATE DATABASE sales").await();
    tableEnv.executeSql("CREATE TABLE sales.o (id BIGINT, d DATE, e DATE, s STRING)").await();
    tableEnv.executeSql("CREATE TABLE sales.c (id BIGINT, d DATE)").await();
    tableEnv.executeSql("CREATE TABLE sales.ev (id BIGINT, ts TIMESTAMP_LTZ(6))").await();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT id, d FROM sales.o" + WHERE,
        "SELECT id, e AS d FROM sales.o" + WHERE + " AND s <> 'x'",
        "SELECT CAST(:slice_start AS DATE) AS d, COUNT(*) AS n FROM sales.o" + WHERE,
        "SELECT d, SUM(id) AS total FROM sales.o WHERE :slice_start <= d AND :slice_end > d"
            + " GROUP BY d",
      })
  void aQueryThatFiltersItsOneTableByTheSliceReadsOnlyTheSlice(String query) {
    assertThat(whyItMayReadBeyond(query)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT id, d FROM sales.o WHERE d >= :slice_start - INTERVAL '2' DAY AND d < :slice_end",
        "SELECT id, d FROM sales.o WHERE e >= :slice_start AND e < :slice_end",
        // A bound written as a literal is the slice's bound for one slice only (a running total).
        "SELECT id, d FROM sales.o WHERE d >= DATE '2026-01-05' AND d < :slice_end",
        "SELECT id, d FROM sales.o WHERE d >= :slice_start AND d < DATE '2026-01-06'",
        "SELECT id, d FROM sales.gone" + WHERE,
        "SELECT id, d FROM sales.o WHERE d >= :slice_start AND d < :slice_end OR s = 'x'",
        "SELECT o.id, o.d FROM sales.o o JOIN sales.c c ON o.id = c.id"
            + " WHERE o.d >= :slice_start AND o.d < :slice_end",
        "SELECT id, d FROM sales.o" + WHERE + " UNION ALL SELECT id, d FROM sales.c" + WHERE,
        "SELECT id, d FROM sales.o /*+ OPTIONS('snapshot-id'='1') */" + WHERE,
        "SELECT id, d FROM (SELECT id, d, ROW_NUMBER() OVER (ORDER BY id) AS r FROM sales.o)"
            + WHERE,
      })
  void anyOtherQueryMayReadRowsOutsideItsSlice(String query) {
    assertThat(whyItMayReadBeyond(query)).isPresent();
  }

  /**
   * A timestamptz bound is bound as epoch milliseconds, which the plan prints with no type while
   * they fit in an int (within some 24.8 days of 1970-01-01) and as {@code :BIGINT} beyond: the
   * answer is the same on either side, and for a slice whose start is one and its end the other.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "1969-12-31T23:00",
        "1970-01-01T00:00",
        "1969-12-07T03:00",
        "1970-01-25T20:00",
        "1970-01-25T21:00",
        "2026-03-29T00:00"
      })
  void anHourOfATimestampWithTimeZoneColumnReadsOnlyTheSliceOnEitherSideOfTheEpoch(String start) {
    LocalDateTime from = LocalDateTime.parse(start);
    Slice hour =
        new Slice("ts", Slice.ColumnKind.TIMESTAMPTZ, SliceUnit.HOUR, from, from.plusHours(1));
    assertThat(
            whyItMayReadBeyond(
                "SELECT id, ts FROM sales.ev WHERE ts >= :slice_start AND ts < :slice_end",
                "ts",
                hour))
        .isEmpty();
    assertThat(
            whyItMayReadBeyond(
                "SELECT id, ts FROM sales.ev WHERE ts >= :slice_start - INTERVAL '1' HOUR"
                    + " AND ts < :slice_end",
                "ts",
                hour))
        .isPresent();
  }

  private static Optional<String> whyItMayReadBeyond(String query) {
    JobSpec spec =
        ExampleTables.job(
            "job: j\ntarget: sales.t\nmode: overwrite\nslice: {column: d}\nquery: |\n  "
                + query
                + "\n");
    Slice day =
        new Slice(
            "d",
            Slice.ColumnKind.DATE,
            SliceUnit.DAY,
            LocalDateTime.parse("2026-01-05T00:00"),
            LocalDateTime.parse("2026-01-06T00:00"));
    return SliceReads.whyItMayReadBeyond(spec, config, day);
  }

  private static Optional<String> whyItMayReadBeyond(String query, String column, Slice slice) {
    JobSpec spec =
        ExampleTables.job(
            "job: j\ntarget: sales.t\nmode: overwrite\nslice: {column: "
                + column
                + "}\nquery: |\n  "
                + query
                + "\n");
    return SliceReads.whyItMayReadBeyond(spec, config, slice);
  }
}
