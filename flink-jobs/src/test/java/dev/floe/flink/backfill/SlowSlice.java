package dev.floe.flink.backfill;

/**
 * A job over {@link ExampleTables} that is slow on purpose for one slice, for timeout tests: every
 * row of {@link #DAY} goes through a regular expression that backtracks for about half a second to
 * a second (a minute or more for 100 rows), while every other slice plans the expression away and
 * runs as fast as the plain job. Row by row, the slow slice stays quick to cancel.
 */
public final class SlowSlice {
  public static final String DAY = "2026-01-02";

  public static final String JOB =
      """
      job: slow_orders
      target: sales.fact_orders
      mode: overwrite
      slice: {column: order_date}
      query: |
        SELECT order_id, customer_id, amount, order_date
        FROM sales.staging_orders
        WHERE order_date >= :slice_start AND order_date < :slice_end
          AND (:slice_start <> DATE '2026-01-02'
            OR NOT REGEXP(CONCAT(REPEAT('a', 21 + CAST(MOD(order_id, 2) AS INT)), 'c'),
                          '((a+)+)+b'))
      """;

  private SlowSlice() {}
}
