package dev.floe.flink.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backfill run again skips a slice it loaded only while what the slice's query reads is
 * unchanged. A query that reads the days before its slice (a rolling total) reads rows a test of
 * the slice's own days cannot see: after a row is appended to one day, every slice whose window
 * holds that day must be loaded again, as a run of each slice alone would.
 */
class BackfillResumeOfAWindowQueryITCase {
  private static final LocalDate OCT_3 = LocalDate.parse("2026-10-03");

  private static final String ROLLING =
      """
      job: rolling_3d
      target: sales.rolling_3d
      mode: overwrite
      slice: {column: order_date}
      query: |
        SELECT CAST(:slice_start AS DATE) AS order_date, COUNT(*) AS n
        FROM sales.staging_orders
        WHERE order_date >= :slice_start - INTERVAL '2' DAY AND order_date < :slice_end
      """;

  @TempDir Path home;

  @Test
  void rowsAppendedToADayBeforeASliceLoadTheSlicesWhoseWindowHoldsIt() throws Exception {
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    ExampleTables tables = new ExampleTables(config).createOrders(OCT_3, 5, 2);
    tables.sql(
        "CREATE TABLE sales.rolling_3d (order_date DATE NOT NULL, n BIGINT) PARTITIONED BY"
            + " (order_date)");
    BackfillRequest request =
        BackfillRequest.of(config, ExampleTables.backfillJob(ROLLING), "2026-10-03", "2026-10-08");
    assertThat(Backfill.run(request).exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(counts(tables)).containsExactly(2L, 4L, 6L, 6L, 6L);

    tables.sql("INSERT INTO sales.staging_orders VALUES (9001, 10, 1000.00, DATE '2026-10-04')");
    BackfillResult again = Backfill.run(request);

    assertThat(again.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(counts(tables)).containsExactly(2L, 5L, 7L, 7L, 6L);
  }

  @Test
  void aRunningTotalFromAFixedDayLoadsEverySliceAfterARowAppendedToThatDay() throws Exception {
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    ExampleTables tables = new ExampleTables(config).createOrders(OCT_3, 5, 2);
    tables.sql(
        "CREATE TABLE sales.rolling_3d (order_date DATE NOT NULL, n BIGINT) PARTITIONED BY"
            + " (order_date)");
    // The lower bound is a literal: it equals the slice's own bound for Oct 3 only.
    String runningTotal =
        ROLLING.replace(
            "order_date >= :slice_start - INTERVAL '2' DAY", "order_date >= DATE '2026-10-03'");
    BackfillRequest request =
        BackfillRequest.builder(
                config, ExampleTables.backfillJob(runningTotal), "2026-10-03", "2026-10-08")
            .sample("2026-10-03")
            .build();
    assertThat(Backfill.run(request).exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(counts(tables)).containsExactly(2L, 4L, 6L, 8L, 10L);

    tables.sql("INSERT INTO sales.staging_orders VALUES (9001, 10, 1000.00, DATE '2026-10-03')");

    assertThat(Backfill.run(request).exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(counts(tables)).containsExactly(3L, 5L, 7L, 9L, 11L);
  }

  private static List<Long> counts(ExampleTables tables) throws Exception {
    return tables.query("SELECT n FROM sales.rolling_3d ORDER BY order_date").stream()
        .map(row -> (Long) row.getField(0))
        .toList();
  }
}
