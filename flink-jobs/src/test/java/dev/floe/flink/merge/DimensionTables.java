package dev.floe.flink.merge;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.flink.session.FlinkSessions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

/** The seed document's dimension example, dim_customer and staging_customer, on a real catalog. */
final class DimensionTables {
  static final Schema DIM =
      new Schema(
          List.of(
              Types.NestedField.required(1, "customer_id", Types.LongType.get()),
              Types.NestedField.required(2, "tier", Types.StringType.get()),
              Types.NestedField.required(3, "updated_at", Types.TimestampType.withZone())),
          Set.of(1));

  static final Schema STAGING =
      new Schema(
          Types.NestedField.optional(1, "customer_id", Types.LongType.get()),
          Types.NestedField.optional(2, "tier", Types.StringType.get()),
          Types.NestedField.optional(3, "updated_at", Types.TimestampType.withZone()));

  /** The seed's MERGE: key from the table's identifier fields, ordering guard on updated_at. */
  static final String MERGE_JOB =
      """
      job: dim_customer_merge
      target: sales.dim_customer
      mode: merge
      ordering: updated_at
      query: SELECT customer_id, tier, updated_at FROM sales.staging_customer
      """;

  /** The seed's three staging rows: customer 10 twice (free at 09:00, pro at 12:00), 11 once. */
  static final String SEED_ROWS =
      "(10, 'free', "
          + ts("2026-10-03 09:00:00")
          + "), (10, 'pro', "
          + ts("2026-10-03 12:00:00")
          + "), (11, 'free', "
          + ts("2026-10-03 10:00:00")
          + ")";

  private final CatalogConfig config;
  private StreamTableEnvironment sql;

  DimensionTables(CatalogConfig config) {
    this.config = config;
  }

  DimensionTables create() throws Exception {
    Catalog catalog = Catalogs.open(config);
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
      catalog.createTable(TableIdentifier.of("sales", "staging_customer"), STAGING);
      catalog.createTable(
          TableIdentifier.of("sales", "dim_customer"),
          DIM,
          PartitionSpec.unpartitioned(),
          Map.of("format-version", "2"));
    } finally {
      Catalogs.close(catalog);
    }
    staging(SEED_ROWS);
    return this;
  }

  /** Replaces the staging table's rows, e.g. to replay an older batch. */
  void staging(String values) throws Exception {
    sql("INSERT OVERWRITE sales.staging_customer VALUES " + values);
  }

  /**
   * Empties the staging table through Iceberg: Flink's INSERT OVERWRITE of an empty result leaves
   * the old rows (Iceberg's Flink sink replaces partitions, and an empty result has none) — the
   * very bug Floe's overwrite exists to avoid.
   */
  void clearStaging() {
    Catalog catalog = Catalogs.open(config);
    try {
      Catalogs.loadTable(catalog, "sales.staging_customer")
          .newDelete()
          .deleteFromRowFilter(org.apache.iceberg.expressions.Expressions.alwaysTrue())
          .commit();
    } finally {
      Catalogs.close(catalog);
    }
  }

  static String ts(String utc) {
    return "CAST(TIMESTAMP '" + utc + "' AS TIMESTAMP_LTZ(6))";
  }

  void sql(String statement) throws Exception {
    sqlEnv().executeSql(statement).await();
  }

  /** The dimension as the seed prints it: customer_id, tier, updated_at (UTC), by key. */
  List<String> dimension() throws Exception {
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

  Table table(String name) {
    Catalog catalog = Catalogs.open(config);
    try {
      return Catalogs.loadTable(catalog, name);
    } finally {
      Catalogs.close(catalog);
    }
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
