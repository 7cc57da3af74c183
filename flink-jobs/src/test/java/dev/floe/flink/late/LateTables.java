package dev.floe.flink.late;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.catalog.testing.TableRows;
import dev.floe.catalog.window.LoadedSlices;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.RunResult;
import dev.floe.flink.job.SliceJob;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;

/**
 * The seed's orders, a day at a time: {@code sales.staging_orders} (the source, unpartitioned) and
 * {@code sales.fact_orders} (partitioned by order_date, with a late-data policy as {@code floe
 * tables apply} writes it). Days are loaded by real Floe runs, so lineage is what the committer
 * writes. Public for the CLI tests.
 */
public final class LateTables {
  public static final Schema ORDERS =
      new Schema(
          Types.NestedField.optional(1, "order_id", Types.LongType.get()),
          Types.NestedField.optional(2, "customer_id", Types.LongType.get()),
          Types.NestedField.optional(3, "amount", Types.DecimalType.of(10, 2)),
          Types.NestedField.optional(4, "order_date", Types.DateType.get()));

  public static final String JOB =
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
      """;

  private final CatalogConfig config;
  private long nextOrderId = 1;

  private LateTables(CatalogConfig config) {
    this.config = config;
  }

  /** Creates both tables; the fact carries {@code late_data: {window, after_window}}. */
  public static LateTables create(CatalogConfig config, String window, String afterWindow) {
    Catalog catalog = Catalogs.open(config);
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
      catalog.createTable(TableIdentifier.of("sales", "staging_orders"), ORDERS);
      Map<String, String> properties = new HashMap<>();
      properties.put("format-version", "2");
      properties.put(FloeTableProperties.LATE_DATA_WINDOW, window);
      properties.put(FloeTableProperties.LATE_DATA_AFTER_WINDOW, afterWindow);
      catalog.createTable(
          TableIdentifier.of("sales", "fact_orders"),
          ORDERS,
          PartitionSpec.builderFor(ORDERS).identity("order_date").build(),
          properties);
    } finally {
      Catalogs.close(catalog);
    }
    return new LateTables(config);
  }

  public static JobSpec job() {
    return JobSpecParser.parse(Manifests.parse("jobs/fact_orders_daily.yaml", JOB), JOB);
  }

  /** Appends {@code rows} orders of one day to the source, in one commit. */
  public void arrive(String day, int rows) {
    Record[] records = new Record[rows];
    for (int i = 0; i < rows; i++) {
      records[i] = order(nextOrderId++, new BigDecimal("10.00"), day);
    }
    append(records);
  }

  /** Creates another unpartitioned source with the orders schema, e.g. another job's. */
  public void createSource(String name) {
    Catalog catalog = Catalogs.open(config);
    try {
      catalog.createTable(TableIdentifier.parse(name), ORDERS);
    } finally {
      Catalogs.close(catalog);
    }
  }

  /** Appends {@code rows} orders of one day to the source {@code source}, in one commit. */
  public void arriveIn(String source, String day, int rows) {
    Record[] records = new Record[rows];
    for (int i = 0; i < rows; i++) {
      records[i] = order(nextOrderId++, new BigDecimal("10.00"), day);
    }
    Catalog catalog = Catalogs.open(config);
    try {
      TableRows.append(Catalogs.loadTable(catalog, source), records);
    } finally {
      Catalogs.close(catalog);
    }
  }

  /** Appends one order of a day without an amount: the job's not_null check refuses it. */
  public void arriveWithoutAmount(String day) {
    append(order(nextOrderId++, null, day));
  }

  /** Commits through an open catalog: a table whose catalog is closed can read but not commit. */
  private void append(Record... records) {
    Catalog catalog = Catalogs.open(config);
    try {
      TableRows.append(Catalogs.loadTable(catalog, "sales.staging_orders"), records);
    } finally {
      Catalogs.close(catalog);
    }
  }

  /** Loads one day through the normal run path. */
  public RunResult load(String day) {
    return SliceJob.run(RunRequest.of(config, job(), day));
  }

  /** The content hash of one day of a table (read from its files, independent of lineage). */
  public ContentHash hash(String table, String day) {
    return TableContent.hash(table(table), day(day));
  }

  /** The snapshot that last loaded a day of the fact, from its lineage. */
  public long latestLoad(String day) {
    return LoadedSlices.of(table("sales.fact_orders")).slices().stream()
        .filter(s -> s.slice().value().equals(day))
        .findFirst()
        .orElseThrow()
        .latest()
        .snapshotId();
  }

  public Table table(String name) {
    Catalog catalog = Catalogs.open(config);
    try {
      return Catalogs.loadTable(catalog, name);
    } finally {
      Catalogs.close(catalog);
    }
  }

  public static Expression day(String day) {
    return Expressions.equal("order_date", (int) LocalDate.parse(day).toEpochDay());
  }

  private static Record order(long id, BigDecimal amount, String day) {
    GenericRecord record = GenericRecord.create(ORDERS);
    record.setField("order_id", id);
    record.setField("customer_id", 100 + id);
    record.setField("amount", amount);
    record.setField("order_date", LocalDate.parse(day));
    return record;
  }
}
