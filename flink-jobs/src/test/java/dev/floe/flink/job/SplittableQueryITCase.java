package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Planning only (no job runs): which real Flink plans one job may load for several slices at once.
 * Every refused shape is one whose rows for a slice could differ when read with its neighbours.
 */
class SplittableQueryITCase {
  @TempDir static Path home;
  private static StreamTableEnvironment tableEnv;

  private static final String WHERE = " WHERE d >= :slice_start AND d < :slice_end";

  @BeforeAll
  static void createTables() throws Exception {
    tableEnv =
        FlinkSessions.tableEnvironment(
            FlinkSessions.batchEnvironment(1), CatalogConfigLoader.embedded(home));
    tableEnv.executeSql("CREATE DATABASE sales").await();
    tableEnv
        .executeSql(
            "CREATE TABLE sales.o (id BIGINT, d DATE, ts TIMESTAMP(6), tz TIMESTAMP_LTZ(6),"
                + " s STRING)")
        .await();
    tableEnv.executeSql("CREATE TABLE sales.c (id BIGINT, name STRING)").await();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT id, d FROM sales.o" + WHERE,
        "SELECT id, d, UPPER(s) AS s FROM sales.o" + WHERE + " AND s <> 'x'",
        "SELECT id, d FROM sales.o WHERE s IS NOT NULL AND (d >= :slice_start) AND d < :slice_end",
        "SELECT * FROM sales.o" + WHERE,
        "SELECT id, d FROM sales.o WHERE :slice_start <= d AND :slice_end > d",
        "SELECT o.id, o.s AS d2, o.d FROM sales.o o"
            + " WHERE o.d >= :slice_start AND o.d < :slice_end",
      })
  void aFilteredProjectionOfOneTableIsSplit(String query) {
    assertThat(whyNot(query, "d", Slice.ColumnKind.DATE, "overwrite")).isEmpty();
  }

  @Test
  void timestampAndTimestampWithTimeZoneSlicesAreSplit() {
    assertThat(
            whyNot(
                "SELECT id, ts FROM sales.o WHERE ts >= :slice_start AND ts < :slice_end",
                "ts",
                Slice.ColumnKind.TIMESTAMP,
                "overwrite"))
        .isEmpty();
    assertThat(
            whyNot(
                "SELECT id, tz FROM sales.o WHERE tz >= :slice_start AND tz < :slice_end",
                "tz",
                Slice.ColumnKind.TIMESTAMPTZ,
                "overwrite"))
        .isEmpty();
  }

  /**
   * A timestamptz bound prints with no type while its epoch milliseconds fit in an int (within some
   * 24.8 days of 1970-01-01) and as {@code :BIGINT} beyond; a range may have one of each.
   */
  @ParameterizedTest
  @CsvSource({
    "1969-12-31T22:00, 1970-01-01T02:00",
    "1969-12-31T00:00, 1970-01-02T00:00",
    "1970-01-25T00:00, 1970-01-27T00:00",
    "1969-12-01T00:00, 1969-12-31T00:00"
  })
  void timestampWithTimeZoneSlicesNearTheEpochAreSplit(String from, String to) {
    Slice range =
        new Slice(
            "tz",
            Slice.ColumnKind.TIMESTAMPTZ,
            SliceUnit.HOUR,
            LocalDateTime.parse(from),
            LocalDateTime.parse(to));
    assertThat(
            whyNot(
                "SELECT id, tz FROM sales.o WHERE tz >= :slice_start AND tz < :slice_end",
                "tz",
                "overwrite",
                range))
        .isEmpty();
    assertThat(
            whyNot(
                "SELECT id, tz, :slice_start AS x FROM sales.o"
                    + " WHERE tz >= :slice_start AND tz < :slice_end",
                "tz",
                "overwrite",
                range))
        .isPresent();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        // Several rows read together: aggregates, joins, subqueries, windows, sorts, limits.
        "SELECT MAX(id) AS id, d FROM sales.o" + WHERE + " GROUP BY d | not a SELECT",
        "SELECT DISTINCT id, d FROM sales.o" + WHERE + " | not a SELECT",
        "SELECT o.id, o.d FROM sales.o o JOIN sales.c c ON o.id = c.id"
            + " WHERE o.d >= :slice_start AND o.d < :slice_end | not a SELECT",
        "SELECT id, d FROM sales.o" + WHERE + " AND id IN (SELECT id FROM sales.c) | not a SELECT",
        "SELECT id, d FROM sales.o" + WHERE + " ORDER BY id LIMIT 5 | not a SELECT",
        "SELECT ROW_NUMBER() OVER (ORDER BY id) AS id, d FROM sales.o" + WHERE + " | window",
        "SELECT id, d FROM (SELECT id, d FROM sales.o" + WHERE + ") | not a SELECT",
        // The bounds used elsewhere, twice, or not as the slice's own filter.
        "SELECT id, d, :slice_start AS x FROM sales.o WHERE d >= DATE '2026-01-05'"
            + " AND d < :slice_end | elsewhere",
        "SELECT id, d FROM sales.o WHERE d >= :slice_start AND d < :slice_end"
            + " AND d <> :slice_start | :slice_start 2 times",
        "SELECT id, d FROM sales.o WHERE d >= :slice_start | :slice_end 0 times",
        "SELECT id, d FROM sales.o WHERE d >= :slice_start AND d <= :slice_end | does not hold",
        "SELECT id, d FROM sales.o WHERE d BETWEEN :slice_start AND :slice_end | does not hold",
        "SELECT id, d FROM sales.o WHERE (d >= :slice_start AND d < :slice_end) OR id = 1"
            + " | does not hold",
        "SELECT id, d FROM sales.o WHERE d > :slice_start AND d < :slice_end | does not hold",
        "SELECT id, d FROM sales.o WHERE :slice_start < d AND :slice_end > d | does not hold",
        "SELECT id, d FROM sales.o WHERE :slice_start <= d AND :slice_end >= d | does not hold",
        "SELECT id, d FROM sales.o WHERE d + INTERVAL '1' DAY >= :slice_start"
            + " AND d < :slice_end | does not hold",
        "SELECT id, d, DATE '2026-01-05' AS x FROM sales.o" + WHERE + " | elsewhere",
        "SELECT id, d FROM sales.o" + WHERE + " AND s <> '2026-01-09' | elsewhere",
        // The slice column computed, or filtered on another column.
        "SELECT id, CAST(ts AS DATE) AS d FROM sales.o WHERE CAST(ts AS DATE) >= :slice_start"
            + " AND CAST(ts AS DATE) < :slice_end | not a column of its table passed through",
        "SELECT id, d FROM sales.o WHERE CAST(ts AS DATE) >= :slice_start"
            + " AND CAST(ts AS DATE) < :slice_end | does not hold",
        "SELECT id, d FROM sales.o WHERE RAND() < 2 AND d >= :slice_start"
            + " AND d < :slice_end | calls RAND",
        // Read options act on the whole read: a limit would cap all slices together.
        "SELECT id, d FROM sales.o /*+ OPTIONS('limit'='3') */" + WHERE + " | OPTIONS",
        // A name that would read as another item of the printed projection.
        "SELECT id, d + INTERVAL '1' DAY AS d, d AS `x=[$0], d` FROM sales.o"
            + WHERE
            + " | not a column of its table passed through",
        "SELECT id, s AS d, d AS dd FROM sales.o WHERE d >= :slice_start AND d < :slice_end"
            + " | does not hold",
      })
  void everyOtherShapeRunsAJobPerSlice(String query, String reason) {
    assertThat(whyNot(query, "d", Slice.ColumnKind.DATE, "overwrite"))
        .hasValueSatisfying(why -> assertThat(why).contains(reason));
  }

  @Test
  void onlyTheOverwriteModeIsSplit() {
    assertThat(
            whyNot(
                "SELECT id, d FROM sales.o" + WHERE,
                "d",
                Slice.ColumnKind.DATE,
                "insert-if-absent\nkey: [id]"))
        .hasValueSatisfying(why -> assertThat(why).contains("mode insert-if-absent"));
  }

  /** The decision for the slices 2026-01-05 to 2026-01-09 (the union the job would bind). */
  private static Optional<String> whyNot(
      String query, String column, Slice.ColumnKind kind, String mode) {
    return whyNot(
        query,
        column,
        mode,
        new Slice(
            column,
            kind,
            SliceUnit.DAY,
            LocalDateTime.parse("2026-01-05T00:00"),
            LocalDateTime.parse("2026-01-09T00:00")));
  }

  private static Optional<String> whyNot(String query, String column, String mode, Slice range) {
    JobSpec spec =
        ExampleTables.job(
            "job: j\ntarget: sales.t\nmode: "
                + mode
                + "\nslice: {column: "
                + column
                + "}\nquery: |\n  "
                + query
                + "\n");
    String bound = QueryBinder.bind(spec.query(), range, spec.source());
    org.apache.flink.table.api.Table planned = tableEnv.sqlQuery(bound);
    return SplittableQuery.whyNot(
        spec, QueryInspector.inspect(planned), planned.getResolvedSchema().getColumnNames(), range);
  }
}
