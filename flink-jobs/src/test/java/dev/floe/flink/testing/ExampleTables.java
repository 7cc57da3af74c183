package dev.floe.flink.testing;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.catalog.testing.TableRows;
import dev.floe.flink.session.FlinkSessions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * The seed document's example tables on a real catalog, for tests: the fact example (staging_orders
 * → fact_orders, partitioned by order_date) and the dimension example (staging_customer →
 * dim_customer, keyed by customer_id). One instance per catalog; the static methods build
 * manifests, rows and filters.
 */
public final class ExampleTables {
  public static final String STAGING_ORDERS = "sales.staging_orders";
  public static final String FACT_ORDERS = "sales.fact_orders";

  /** staging_orders and fact_orders: order_id, customer_id, amount decimal(10,2), order_date. */
  public static final Schema ORDERS =
      new Schema(
          Types.NestedField.optional(1, "order_id", Types.LongType.get()),
          Types.NestedField.optional(2, "customer_id", Types.LongType.get()),
          Types.NestedField.optional(3, "amount", Types.DecimalType.of(10, 2)),
          Types.NestedField.optional(4, "order_date", Types.DateType.get()));

  /** dim_customer, keyed by customer_id. */
  public static final Schema DIM =
      new Schema(
          List.of(
              Types.NestedField.required(1, "customer_id", Types.LongType.get()),
              Types.NestedField.required(2, "tier", Types.StringType.get()),
              Types.NestedField.required(3, "updated_at", Types.TimestampType.withZone())),
          Set.of(1));

  /** staging_customer: dim_customer's columns, all optional, no key. */
  public static final Schema STAGING_CUSTOMER =
      new Schema(
          Types.NestedField.optional(1, "customer_id", Types.LongType.get()),
          Types.NestedField.optional(2, "tier", Types.StringType.get()),
          Types.NestedField.optional(3, "updated_at", Types.TimestampType.withZone()));

  /** The seed's daily fact job, with its three checks. */
  public static final String FACT_JOB =
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

  /** The fact job the backfill tests run ({@link #backfillJob}). */
  public static final String BACKFILL_JOB =
      """
      job: fact_orders_backfill
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
      """;

  /** The seed's MERGE: key from the table's identifier fields, ordering guard on updated_at. */
  public static final String MERGE_JOB =
      """
      job: dim_customer_merge
      target: sales.dim_customer
      mode: merge
      ordering: updated_at
      query: SELECT customer_id, tier, updated_at FROM sales.staging_customer
      """;

  /** The seed's three staging rows: customer 10 twice (free at 09:00, pro at 12:00), 11 once. */
  public static final String CUSTOMER_SEED_ROWS =
      "(10, 'free', "
          + ts("2026-10-03 09:00:00")
          + "), (10, 'pro', "
          + ts("2026-10-03 12:00:00")
          + "), (11, 'free', "
          + ts("2026-10-03 10:00:00")
          + ")";

  private final CatalogConfig config;
  private StreamTableEnvironment sql;

  public ExampleTables(CatalogConfig config) {
    this.config = config;
  }

  /**
   * Creates staging_orders and fact_orders (partitioned by order_date), with three staging rows.
   */
  public ExampleTables createOrders() throws Exception {
    Catalog catalog = Catalogs.open(config);
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
      catalog.createTable(TableIdentifier.of("sales", "staging_orders"), ORDERS);
      catalog.createTable(
          TableIdentifier.of("sales", "fact_orders"),
          ORDERS,
          PartitionSpec.builderFor(ORDERS).identity("order_date").build(),
          Map.of("format-version", "2"));
    } finally {
      Catalogs.close(catalog);
    }
    sql(
        "INSERT INTO sales.staging_orders VALUES (1, 10, 50.00, DATE '2026-10-03'),"
            + " (2, 11, 20.00, DATE '2026-10-03'), (3, 12, 75.00, DATE '2026-10-04')");
    return this;
  }

  /**
   * Creates staging_orders and fact_orders with {@code rowsPerDay} staging rows on each of {@code
   * days} days: the content of every loaded fact slice must hash exactly like the staging rows of
   * its day, which checks a backfill without trusting its lineage.
   */
  public ExampleTables createOrders(LocalDate first, int days, int rowsPerDay) {
    Catalog catalog = Catalogs.open(config);
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
      catalog.createTable(
          TableIdentifier.of("sales", "staging_orders"),
          ORDERS,
          PartitionSpec.unpartitioned(),
          Map.of("format-version", "2"));
      catalog.createTable(
          TableIdentifier.of("sales", "fact_orders"),
          ORDERS,
          PartitionSpec.builderFor(ORDERS).identity("order_date").build(),
          Map.of("format-version", "2"));
      Table source = Catalogs.loadTable(catalog, STAGING_ORDERS);
      List<Record> rows = new ArrayList<>();
      for (int d = 0; d < days; d++) {
        LocalDate day = first.plusDays(d);
        for (int i = 0; i < rowsPerDay; i++) {
          rows.add(
              TableRows.row(
                  source,
                  Map.of(
                      "order_id",
                      day.toEpochDay() * 100_000L + i,
                      "customer_id",
                      (long) (i % 97),
                      "amount",
                      BigDecimal.valueOf(i % 1000, 2).add(BigDecimal.ONE),
                      "order_date",
                      day)));
        }
      }
      TableRows.append(source, rows.toArray(Record[]::new));
    } finally {
      Catalogs.close(catalog);
    }
    return this;
  }

  /** Creates staging_customer and dim_customer (unpartitioned), with the seed's staging rows. */
  public ExampleTables createCustomers() throws Exception {
    Catalog catalog = Catalogs.open(config);
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
      catalog.createTable(TableIdentifier.of("sales", "staging_customer"), STAGING_CUSTOMER);
      catalog.createTable(
          TableIdentifier.of("sales", "dim_customer"),
          DIM,
          PartitionSpec.unpartitioned(),
          Map.of("format-version", "2"));
    } finally {
      Catalogs.close(catalog);
    }
    stagingCustomers(CUSTOMER_SEED_ROWS);
    return this;
  }

  /**
   * Replaces the staging_orders rows of {@code day} with {@code rows} other orders, the way an
   * {@code INSERT OVERWRITE} of the unpartitioned source does: one overwrite commit that rewrites
   * the whole table.
   */
  public void overwriteSourceDay(LocalDate day, int rows) {
    Catalog catalog = Catalogs.open(config);
    try {
      Table source = Catalogs.loadTable(catalog, STAGING_ORDERS);
      List<Record> kept = new ArrayList<>();
      try (CloseableIterable<Record> all = IcebergGenerics.read(source).build()) {
        for (Record row : all) {
          if (!day.equals(row.getField("order_date"))) {
            kept.add(row.copy());
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      for (int i = 0; i < rows; i++) {
        kept.add(
            TableRows.row(
                source,
                Map.of(
                    "order_id",
                    day.toEpochDay() * 100_000L + 50_000 + i,
                    "customer_id",
                    7L,
                    "amount",
                    new BigDecimal("99.99"),
                    "order_date",
                    day)));
      }
      source
          .newOverwrite()
          .overwriteByRowFilter(Expressions.alwaysTrue())
          .addFile(TableRows.write(source, kept.toArray(Record[]::new)))
          .commit();
    } finally {
      Catalogs.close(catalog);
    }
  }

  /** Replaces staging_customer's rows with SQL {@code values}, e.g. to replay an older batch. */
  public void stagingCustomers(String values) throws Exception {
    sql("INSERT OVERWRITE sales.staging_customer VALUES " + values);
  }

  /**
   * Empties staging_customer through Iceberg: Flink's INSERT OVERWRITE of an empty result leaves
   * the old rows (Iceberg's Flink sink replaces partitions, and an empty result has none) — the
   * very bug Floe's overwrite exists to avoid.
   */
  public void clearStagingCustomers() {
    Catalog catalog = Catalogs.open(config);
    try {
      Catalogs.loadTable(catalog, "sales.staging_customer")
          .newDelete()
          .deleteFromRowFilter(Expressions.alwaysTrue())
          .commit();
    } finally {
      Catalogs.close(catalog);
    }
  }

  /** Runs one Flink SQL statement on the catalog and waits for it. */
  public void sql(String statement) throws Exception {
    sqlEnv().executeSql(statement).await();
  }

  /** The rows of one Flink SQL query. */
  public List<Row> query(String statement) throws Exception {
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = sqlEnv().executeSql(statement).collect()) {
      it.forEachRemaining(rows::add);
    }
    return rows;
  }

  /** {rows_for_day, total} for one day of fact_orders. */
  public Object[] dayTotals(String day) throws Exception {
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

  /** dim_customer as the seed prints it: customer_id, tier, updated_at (UTC), by key. */
  public List<String> dimension() throws Exception {
    List<String> rows = new ArrayList<>();
    try (CloseableIterator<Row> it =
        sqlEnv()
            .executeSql(
                "SELECT customer_id, tier, CAST(updated_at AS TIMESTAMP(6)) FROM"
                    + " sales.dim_customer ORDER BY customer_id")
            .collect()) {
      it.forEachRemaining(
          row ->
              rows.add(
                  row.getField(0)
                      + " "
                      + row.getField(1)
                      + " "
                      + row.getField(2).toString().replace('T', ' ')));
    }
    return rows;
  }

  /** The table as the catalog holds it now. */
  public Table table(String name) {
    Catalog catalog = Catalogs.open(config);
    try {
      return Catalogs.loadTable(catalog, name);
    } finally {
      Catalogs.close(catalog);
    }
  }

  /** The content hash of one day of {@code table}, read from its files. */
  public ContentHash dayHash(String table, LocalDate day) {
    return TableContent.hash(table(table), day(day));
  }

  /** Per slice label, how many snapshots on fact_orders' main history carry {@code backfillId}. */
  public Map<String, Integer> backfillCommitsBySlice(String backfillId) {
    Map<String, Integer> counts = new TreeMap<>();
    Table target = table(FACT_ORDERS);
    for (Snapshot snapshot : SnapshotUtil.currentAncestors(target)) {
      Map<String, String> summary = snapshot.summary();
      if (backfillId.equals(summary.get(LineageKeys.BACKFILL_ID))) {
        counts.merge(summary.get(LineageKeys.SLICE), 1, Integer::sum);
      }
    }
    return counts;
  }

  /** A job manifest read as {@code jobs/test.yaml}. */
  public static JobSpec job(String yaml) {
    return JobSpecParser.parse(Manifests.parse("jobs/test.yaml", yaml), yaml);
  }

  /** A job manifest read as {@code jobs/backfill.yaml}, the name backfill messages show. */
  public static JobSpec backfillJob(String yaml) {
    return JobSpecParser.parse(Manifests.parse("jobs/backfill.yaml", yaml), yaml);
  }

  /** The rows of one order_date (Iceberg's internal date: days since epoch). */
  public static Expression day(String day) {
    return day(LocalDate.parse(day));
  }

  /** The rows of one order_date. */
  public static Expression day(LocalDate day) {
    return Expressions.equal("order_date", (int) day.toEpochDay());
  }

  /** A Flink SQL TIMESTAMP_LTZ(6) literal of a UTC time, e.g. {@code 2026-10-03 09:00:00}. */
  public static String ts(String utc) {
    return "CAST(TIMESTAMP '" + utc + "' AS TIMESTAMP_LTZ(6))";
  }

  /** A row of staging_orders or fact_orders, written through Iceberg. */
  public static Record order(Table table, long id, long customer, String amount, String day) {
    return TableRows.row(
        table,
        Map.of(
            "order_id",
            id,
            "customer_id",
            customer,
            "amount",
            new BigDecimal(amount).setScale(2),
            "order_date",
            LocalDate.parse(day)));
  }

  /** A row of staging_customer or dim_customer, written through Iceberg. */
  public static Record customer(Table table, long id, String tier, OffsetDateTime at) {
    return TableRows.row(table, Map.of("customer_id", id, "tier", tier, "updated_at", at));
  }

  /** Replaces every row of {@code table} with {@code rows} in one snapshot (none: emptied). */
  public static void replace(Table table, List<Record> rows) {
    replace(table, Expressions.alwaysTrue(), rows);
  }

  /** Replaces the rows {@code filter} selects with {@code rows} in one snapshot. */
  public static void replace(Table table, Expression filter, List<Record> rows) {
    var overwrite = table.newOverwrite().overwriteByRowFilter(filter);
    if (!rows.isEmpty()) {
      overwrite.addFile(TableRows.write(table, rows.toArray(Record[]::new)));
    }
    overwrite.commit();
  }

  private StreamTableEnvironment sqlEnv() {
    if (sql == null) {
      sql = FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config);
    }
    return sql;
  }
}
