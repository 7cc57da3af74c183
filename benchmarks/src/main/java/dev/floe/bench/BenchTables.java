package dev.floe.bench;

import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;

/** The benchmark's tables: the seed's orders, as a staging source and identical targets. */
final class BenchTables {
  static final String NAMESPACE = "bench";
  static final String STAGING = "bench.staging_orders";
  static final String FACT = "bench.fact_orders";
  static final String BASELINE = "bench.fact_orders_baseline";
  static final String RAW = "bench.fact_orders_raw";
  static final String READ_WRITE = "bench.fact_orders_read_write";

  /** Every target, each loaded by its own paths; all identical. */
  static final java.util.List<String> TARGETS = java.util.List.of(FACT, BASELINE, RAW, READ_WRITE);

  /**
   * Optional columns like the seed's example. No identifier fields: with a key, Flink SQL's Iceberg
   * sink switches to equality-delete mode (STACK.md), which is not the baseline we compare with.
   */
  static final Schema ORDERS =
      new Schema(
          Types.NestedField.optional(1, "order_id", Types.LongType.get()),
          Types.NestedField.optional(2, "customer_id", Types.LongType.get()),
          Types.NestedField.optional(3, "amount", Types.DecimalType.of(10, 2)),
          Types.NestedField.optional(4, "order_date", Types.DateType.get()));

  private BenchTables() {}

  /**
   * Creates the namespace, the staging table and the targets; returns the (empty) staging table.
   */
  static Table create(Catalog catalog) {
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of(NAMESPACE));
    Table staging =
        catalog.createTable(id(STAGING), ORDERS, PartitionSpec.unpartitioned(), props());
    PartitionSpec byDay = PartitionSpec.builderFor(ORDERS).identity("order_date").build();
    // All targets identical, so the write paths differ only in how they write.
    for (String target : TARGETS) {
      catalog.createTable(id(target), ORDERS, byDay, props());
    }
    return staging;
  }

  private static Map<String, String> props() {
    // Mutable: some catalogs modify the map they are given.
    Map<String, String> props = new HashMap<>();
    props.put(TableProperties.FORMAT_VERSION, "2");
    props.put(TableProperties.PARQUET_COMPRESSION, "zstd");
    return props;
  }

  private static TableIdentifier id(String name) {
    return TableIdentifier.parse(name);
  }
}
