package dev.floe.flink.job;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.flink.session.FlinkSessions;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;

/** The seed document's fact example: staging_orders and fact_orders, on a real catalog. */
final class SeedTables {
  static final Schema ORDERS =
      new Schema(
          Types.NestedField.optional(1, "order_id", Types.LongType.get()),
          Types.NestedField.optional(2, "customer_id", Types.LongType.get()),
          Types.NestedField.optional(3, "amount", Types.DecimalType.of(10, 2)),
          Types.NestedField.optional(4, "order_date", Types.DateType.get()));

  static final String FACT_JOB =
      """
      job: fact_orders_daily
      target: sales.fact_orders
      mode: overwrite
      slice: {column: order_date}
      query: |
        SELECT order_id, customer_id, amount, order_date
        FROM sales.staging_orders
        WHERE order_date >= :slice_start AND order_date < :slice_end
      checks:
        - not_null: [order_id, amount]
        - unique: [order_id]
        - row_count: {min: 0}
      """;

  private final CatalogConfig config;
  private StreamTableEnvironment sql;

  SeedTables(CatalogConfig config) {
    this.config = config;
  }

  /** Creates both tables (fact partitioned by order_date) and the three staging rows. */
  SeedTables create() throws Exception {
    Catalog catalog = Catalogs.open(config);
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
      catalog.createTable(TableIdentifier.of("sales", "staging_orders"), ORDERS);
      catalog.createTable(
          TableIdentifier.of("sales", "fact_orders"),
          ORDERS,
          PartitionSpec.builderFor(ORDERS).identity("order_date").build(),
          java.util.Map.of("format-version", "2"));
    } finally {
      Catalogs.close(catalog);
    }
    sql(
        "INSERT INTO sales.staging_orders VALUES (1, 10, 50.00, DATE '2026-10-03'),"
            + " (2, 11, 20.00, DATE '2026-10-03'), (3, 12, 75.00, DATE '2026-10-04')");
    return this;
  }

  void sql(String statement) throws Exception {
    sqlEnv().executeSql(statement).await();
  }

  List<Row> query(String statement) throws Exception {
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = sqlEnv().executeSql(statement).collect()) {
      it.forEachRemaining(rows::add);
    }
    return rows;
  }

  /** {rows_for_day, total} for one day of fact_orders. */
  Object[] dayTotals(String day) throws Exception {
    Row row =
        query(
                "SELECT count(*), sum(amount) FROM sales.fact_orders WHERE order_date = DATE '"
                    + day
                    + "'")
            .get(0);
    return new Object[] {
      row.getField(0), row.getField(1) == null ? null : (BigDecimal) row.getField(1)
    };
  }

  Table table(String name) {
    Catalog catalog = Catalogs.open(config);
    try {
      return Catalogs.loadTable(catalog, name);
    } finally {
      Catalogs.close(catalog);
    }
  }

  /** The filter of one day of order_date (Iceberg's internal date: days since epoch). */
  static org.apache.iceberg.expressions.Expression day(String day) {
    return org.apache.iceberg.expressions.Expressions.equal(
        "order_date", (int) java.time.LocalDate.parse(day).toEpochDay());
  }

  static JobSpec job(String yaml) {
    return JobSpecParser.parse(Manifests.parse("jobs/test.yaml", yaml), yaml);
  }

  private StreamTableEnvironment sqlEnv() {
    if (sql == null) {
      sql = FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config);
    }
    return sql;
  }
}
