package dev.floe.it.spark;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.catalog.config.ListeningSockets;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark (an engine that shares no code with Floe) reads every table Floe writes and gets exactly
 * the rows Iceberg's generic reader gets: every write mode (overwrite, merge, insert-if-absent,
 * swap, a published audit) and every column type Floe accepts that Spark 4.0 has (all but {@code
 * time}: Spark 4.0 has no TIME type, and Iceberg's Spark runtime refuses such a table), with the
 * edge values that break lossy paths: NaN and -0.0, the extreme ints and longs, decimal(38,10),
 * dates and timestamps before 1970, microseconds, non-ASCII text, uuid, fixed and binary bytes.
 */
@ExtendWith(SharedSpark.class)
class SparkReadsFloeTablesITCase {
  private static final String DAY = "2026-10-03";

  @Test
  void sparkListensOnLoopbackOnly(SparkEngine spark) {
    List<InetSocketAddress> sockets = ListeningSockets.of(spark.pid());
    System.out.println("spark listens on " + sockets);
    // At least the driver's RPC endpoint and its block manager.
    assertThat(sockets)
        .isNotEmpty()
        .allSatisfy(socket -> assertThat(socket.getAddress().isLoopbackAddress()).isTrue());
  }

  @Test
  void sparkReadsTheRowsFloeWroteInEveryWriteMode(@TempDir Path work, SparkEngine spark) {
    FloeHome home = new FloeHome(work, spark);
    Path examples = FloeHome.examples();
    home.ok("tables", "apply", examples.resolve("tables").toString());
    home.file(
        "tables/order_events.yaml",
        """
        table: sales.order_events
        schema:
          - {name: order_id,    type: long, required: true}
          - {name: customer_id, type: long}
          - {name: amount,      type: "decimal(10,2)"}
          - {name: order_date,  type: date, required: true}
        partition: [order_date]
        key: [order_id]
        """);
    home.file(
        "tables/customer_copy.yaml",
        """
        table: sales.customer_copy
        schema:
          - {name: customer_id, type: long}
          - {name: tier,        type: string}
          - {name: updated_at,  type: timestamptz}
        """);
    Path events =
        home.file(
            "jobs/events_insert.yaml",
            """
            job: order_events_insert
            target: sales.order_events
            mode: insert-if-absent
            slice: {column: order_date}
            query: |
              SELECT order_id, customer_id, amount, order_date
              FROM sales.staging_orders
              WHERE order_date >= :slice_start AND order_date < :slice_end
            """);
    Path swap =
        home.file(
            "jobs/customer_swap.yaml",
            """
            job: customer_copy_swap
            target: sales.customer_copy
            mode: swap
            query: SELECT customer_id, tier, updated_at FROM sales.staging_customer
            """);
    home.ok("tables", "apply", work.resolve("tables").toString());
    home.ok("sql", "-f", examples.resolve("sql/seed_staging.sql").toString());
    home.ok("sql", "-f", examples.resolve("sql/seed_staging_customer.sql").toString());
    String fact = examples.resolve("jobs/fact_orders_daily.yaml").toString();

    home.ok("run", fact, "--slice", DAY);
    home.ok("run", fact, "--slice", "2026-10-04");
    home.ok("run", examples.resolve("jobs/dim_customer_merge.yaml").toString());
    home.ok("run", events.toString(), "--slice", DAY);
    home.ok("run", swap.toString());
    // A published audit: the run commits to its audit branch, publish moves main to it.
    home.ok(
        "sql",
        "INSERT INTO sales.staging_orders VALUES (5, 14, 12.34, DATE '2026-10-05'),"
            + " (6, 10, 0.01, DATE '2026-10-05')");
    JsonNode audited = home.okJson("run", fact, "--slice", "2026-10-05", "--publish", "manual");
    String runId = audited.get("run_id").asText();
    assertThat(home.sparkRows("sales.fact_orders", "order_date = DATE '2026-10-05'")).isEmpty();
    assertThat(
            FloeHome.sorted(
                spark.sql(
                    "SELECT * FROM "
                        + home.inSpark("sales.fact_orders")
                        + " VERSION AS OF 'audit-"
                        + runId
                        + "' WHERE order_date = DATE '2026-10-05'")))
        .hasSize(2);
    home.ok("publish", "sales.fact_orders", "--run", runId);

    for (String table :
        List.of(
            "sales.fact_orders",
            "sales.dim_customer",
            "sales.order_events",
            "sales.customer_copy")) {
      List<String> floeRows = home.floeRows(table);
      assertThat(floeRows).as(table).isNotEmpty();
      assertThat(home.sparkRows(table)).as(table).isEqualTo(floeRows);
    }
    assertThat(home.sparkRows("sales.fact_orders"))
        .containsExactly(
            "long:1|long:10|decimal:5000e-2|date:2026-10-03",
            "long:2|long:11|decimal:2000e-2|date:2026-10-03",
            "long:3|long:12|decimal:7500e-2|date:2026-10-04",
            "long:5|long:14|decimal:1234e-2|date:2026-10-05",
            "long:6|long:10|decimal:1e-2|date:2026-10-05");
    assertThat(home.sparkRows("sales.dim_customer"))
        .containsExactly(
            "long:10|s'pro'|timestamptz:2026-10-03T12:00:00Z",
            "long:11|s'free'|timestamptz:2026-10-03T10:00:00Z");
  }

  @Test
  void sparkReadsEveryTypeFloeCopiedExactlyAsSparkWroteIt(@TempDir Path work, SparkEngine spark) {
    FloeHome home = new FloeHome(work, spark);
    String columns =
        """
          - {name: id,    type: long, required: true}
          - {name: b,     type: boolean}
          - {name: i,     type: int}
          - {name: l,     type: long}
          - {name: f,     type: float}
          - {name: d,     type: double}
          - {name: small, type: "decimal(9,2)"}
          - {name: big,   type: "decimal(38,10)"}
          - {name: dt,    type: date, required: true}
          - {name: born,  type: date}
          - {name: ts,    type: timestamp}
          - {name: tstz,  type: timestamptz}
          - {name: s,     type: string}
          - {name: u,     type: uuid}
          - {name: fx,    type: "fixed(4)"}
          - {name: bin,   type: binary}
        """;
    home.file("types/src.yaml", "table: types.src\nschema:\n" + columns + "partition: [dt]\n");
    home.file("types/dst.yaml", "table: types.dst\nschema:\n" + columns + "partition: [dt]\n");
    Path job =
        home.file(
            "jobs/types_copy.yaml",
            """
            job: types_copy
            target: types.dst
            mode: overwrite
            slice: {column: dt}
            query: |
              SELECT id, b, i, l, f, d, small, big, dt, born, ts, tstz, s, u, fx, bin
              FROM types.src
              WHERE dt >= :slice_start AND dt < :slice_end
            """);
    home.ok("tables", "apply", work.resolve("types").toString());
    spark.sql(
        "INSERT INTO "
            + home.inSpark("types.src")
            + " VALUES (1, true, -2147483648, -9223372036854775808, CAST('NaN' AS FLOAT),"
            + " CAST('-0.0' AS DOUBLE), CAST(1234567.89 AS DECIMAL(9,2)),"
            + " CAST('1234567890123456789012345678.0123456789' AS DECIMAL(38,10)),"
            + " DATE '2026-10-03', DATE '1969-07-20', TIMESTAMP_NTZ '2026-10-03 08:30:00.123456',"
            + " TIMESTAMP '1969-12-31 23:59:59.999999', 'héllo|wörld ☃ \\'q\\'',"
            + " '6ba7b810-9dad-11d1-80b4-00c04fd430c8', X'00FF10AB', X''),"
            + " (2, false, 2147483647, 9223372036854775807, CAST('-0.0' AS FLOAT),"
            + " CAST('Infinity' AS DOUBLE), CAST(-0.01 AS DECIMAL(9,2)),"
            + " CAST('-9999999999999999999999999999.9999999999' AS DECIMAL(38,10)),"
            + " DATE '2026-10-03', DATE '1900-01-01', TIMESTAMP_NTZ '1900-01-01 00:00:00.000001',"
            + " TIMESTAMP '2026-10-03 23:59:59.999999', '', 'ffffffff-ffff-ffff-ffff-ffffffffffff',"
            + " X'00000000', X'DEADBEEF00'),"
            + " (3, NULL, NULL, NULL, CAST(1.17549435E-38 AS FLOAT), CAST(4.9E-324 AS DOUBLE),"
            + " NULL, CAST('0.0000000001' AS DECIMAL(38,10)), DATE '2026-10-03', NULL, NULL, NULL,"
            + " NULL, NULL, NULL, NULL),"
            + " (4, true, 0, 0, 0.0, 0.0, 0.00, 0, DATE '2026-10-04', NULL, NULL, NULL, 'other day',"
            + " NULL, NULL, NULL)");
    List<String> written = home.sparkRows("types.src", "dt = DATE '2026-10-03'");
    assertThat(written).hasSize(3);
    assertThat(home.floeRows("types.src")).isEqualTo(home.sparkRows("types.src"));

    home.ok("run", job.toString(), "--slice", DAY);

    List<String> copied = home.floeRows("types.dst");
    assertThat(home.sparkRows("types.dst")).isEqualTo(copied);
    assertThat(copied).isEqualTo(written);
    assertThat(String.join("\n", copied))
        .contains("float:NaN/7fc00000", "float:-0.0/80000000", "double:-0.0/8000000000000000")
        .contains("decimal:12345678901234567890123456780123456789e-10")
        .contains("timestamptz:1969-12-31T23:59:59.999999Z", "timestamp:2026-10-03T08:30:00.123456")
        .contains("date:1969-07-20", "binary:00ff10ab", "s'6ba7b810-9dad-11d1-80b4-00c04fd430c8'");
    // A rerun of the same slice changes nothing, as Spark sees it too.
    assertThat(home.ok("run", job.toString(), "--slice", DAY)).contains("no-op");
    assertThat(home.sparkRows("types.dst")).isEqualTo(copied);
  }
}
