package dev.floe.flink.backfill;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.catalog.testing.TableRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
 * A staging table with rows on many days and a fact table partitioned by day, with the same schema:
 * the content of every loaded fact slice must hash exactly like the staging rows of its day, which
 * checks a backfill without trusting its lineage.
 */
public final class BackfillTables {
  public static final String SOURCE = "sales.staging_orders";
  public static final String TARGET = "sales.fact_orders";
  static final Schema ORDERS =
      new Schema(
          Types.NestedField.optional(1, "order_id", Types.LongType.get()),
          Types.NestedField.optional(2, "customer_id", Types.LongType.get()),
          Types.NestedField.optional(3, "amount", Types.DecimalType.of(10, 2)),
          Types.NestedField.optional(4, "order_date", Types.DateType.get()));
  public static final String JOB =
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

  private final CatalogConfig config;

  public BackfillTables(CatalogConfig config) {
    this.config = config;
  }

  /** Creates both tables and {@code rowsPerDay} staging rows on each of {@code days} days. */
  public BackfillTables create(LocalDate first, int days, int rowsPerDay) {
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
      Table source = Catalogs.loadTable(catalog, SOURCE);
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

  /**
   * Replaces the staging rows of {@code day} with {@code rows} other orders, the way an {@code
   * INSERT OVERWRITE} of the unpartitioned source does: one overwrite commit that rewrites the
   * whole table.
   */
  public void overwriteSourceDay(LocalDate day, int rows) {
    Catalog catalog = Catalogs.open(config);
    try {
      Table source = Catalogs.loadTable(catalog, SOURCE);
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

  public Table table(String name) {
    Catalog catalog = Catalogs.open(config);
    try {
      return Catalogs.loadTable(catalog, name);
    } finally {
      Catalogs.close(catalog);
    }
  }

  /** The content hash of one day of {@code table}, read from its files. */
  public ContentHash day(String table, LocalDate day) {
    return TableContent.hash(table(table), dayFilter(day));
  }

  /** Per slice label, how many snapshots on main's history carry {@code backfillId}. */
  public Map<String, Integer> backfillCommitsBySlice(String backfillId) {
    Map<String, Integer> counts = new TreeMap<>();
    Table target = table(TARGET);
    for (Snapshot snapshot : SnapshotUtil.currentAncestors(target)) {
      Map<String, String> summary = snapshot.summary();
      if (backfillId.equals(summary.get(LineageKeys.BACKFILL_ID))) {
        counts.merge(summary.get(LineageKeys.SLICE), 1, Integer::sum);
      }
    }
    return counts;
  }

  static Expression dayFilter(LocalDate day) {
    return Expressions.equal("order_date", (int) day.toEpochDay());
  }

  static JobSpec job(String yaml) {
    return JobSpecParser.parse(Manifests.parse("jobs/backfill.yaml", yaml), yaml);
  }
}
