package dev.floe.catalog.lint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A folder of manifests for one test, linted as {@code floe lint FOLDER} would. */
final class LintFiles {
  /** A clean daily overwrite job (with a timeout, so missing-timeout stays quiet). */
  static final String DAILY_JOB =
      """
      job: fact_orders_daily
      target: sales.fact_orders
      mode: overwrite
      slice: {column: order_date}
      timeout: PT2H
      query: |
        SELECT order_id, customer_id, amount, order_date
        FROM sales.staging_orders
        WHERE order_date >= :slice_start AND order_date < :slice_end
      """;

  /** The table DAILY_JOB writes: partitioned by its slice column, with key and late_data. */
  static final String FACT_ORDERS =
      """
      table: sales.fact_orders
      schema:
        - {name: order_id,    type: long, required: true}
        - {name: customer_id, type: long}
        - {name: amount,      type: "decimal(10,2)"}
        - {name: order_date,  type: date, required: true}
      partition: [order_date]
      key: [order_id]
      late_data: {window: P3D}
      """;

  /** A clean merge job. */
  static final String MERGE_JOB =
      """
      job: dim_customer_merge
      target: sales.dim_customer
      mode: merge
      key: [customer_id]
      ordering: updated_at
      timeout: PT30M
      query: SELECT customer_id, tier, updated_at FROM sales.staging_customer
      """;

  /** The table MERGE_JOB writes: unpartitioned, with a key. */
  static final String DIM_CUSTOMER =
      """
      table: sales.dim_customer
      schema:
        - {name: customer_id, type: long, required: true}
        - {name: tier,        type: string}
        - {name: updated_at,  type: timestamptz, required: true}
      key: [customer_id]
      """;

  /** A clean backfill of DAILY_JOB written to jobs/daily.yaml. */
  static final String BACKFILL =
      """
      backfill: orders_january
      job: ../jobs/daily.yaml
      from: 2026-01-01
      to: 2026-02-01
      max_concurrency: 2
      """;

  private final Path dir;

  LintFiles(Path dir) {
    this.dir = dir;
  }

  Path write(String name, String text) {
    Path file = dir.resolve(name);
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  LintReport lint() {
    return Linter.lint(List.of(dir));
  }

  /** The findings of one rule in the whole folder. */
  List<Finding> findings(Rule rule) {
    return lint().findings().stream().filter(f -> f.rule().equals(rule.id())).toList();
  }
}
