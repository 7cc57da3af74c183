package dev.floe.flink.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The examples/ folder as bundled into the jar under {@code floe-examples/}. */
final class BundledExamples {
  static final String STAGING_SPEC = "tables/staging_orders.yaml";
  static final String FACT_SPEC = "tables/fact_orders.yaml";
  static final String FACT_JOB = "jobs/fact_orders_daily.yaml";
  static final String SEED_SQL = "sql/seed_staging.sql";

  static final String CUSTOMER_STAGING_SPEC = "tables/staging_customer.yaml";
  static final String DIM_SPEC = "tables/dim_customer.yaml";
  static final String DIM_JOB = "jobs/dim_customer_merge.yaml";
  static final String SEED_CUSTOMER_SQL = "sql/seed_staging_customer.sql";
  static final String REPLAY_CUSTOMER_SQL = "sql/replay_old_customer_batch.sql";

  /** Every table spec in examples/tables, as `floe tables apply examples/tables` reads them. */
  static final List<String> TABLE_SPECS =
      List.of(STAGING_SPEC, FACT_SPEC, CUSTOMER_STAGING_SPEC, DIM_SPEC);

  private BundledExamples() {}

  /** The text of {@code examples/<path>}. */
  static String read(String path) {
    try (InputStream in = BundledExamples.class.getResourceAsStream("/floe-examples/" + path)) {
      if (in == null) {
        throw new IllegalStateException("Cannot find examples/" + path + " in the Floe jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read examples/" + path + " from the Floe jar", e);
    }
  }
}
