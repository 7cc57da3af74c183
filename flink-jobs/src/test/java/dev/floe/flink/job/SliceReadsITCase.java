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
}
