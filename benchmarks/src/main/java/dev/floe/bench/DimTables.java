package dev.floe.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;

/**
 * The merge benchmark's tables: the keyed target {@code bench.dim}, partitioned by day, its staging
 * batch, and {@code bench.dim_rebuilt}, an identical table the baseline rebuilds whole.
 */
final class DimTables {
  static final String DIM = "bench.dim";
  static final String STAGING = "bench.dim_staging";
  static final String REBUILT = "bench.dim_rebuilt";

  /**
   * Key {@code id} (the identifier field), ordering {@code version}, partition {@code created_day}.
   */
  static final Schema DIM_SCHEMA =
      new Schema(
          List.of(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.required(2, "created_day", Types.DateType.get()),
              Types.NestedField.optional(3, "v", Types.StringType.get()),
              Types.NestedField.optional(4, "amount", Types.DecimalType.of(10, 2)),
              Types.NestedField.optional(5, "version", Types.LongType.get())),
          Set.of(1));

  /** The same columns, optional, like a staging table loaded from outside. */
  static final Schema STAGING_SCHEMA =
      new Schema(
          Types.NestedField.optional(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "created_day", Types.DateType.get()),
          Types.NestedField.optional(3, "v", Types.StringType.get()),
          Types.NestedField.optional(4, "amount", Types.DecimalType.of(10, 2)),
          Types.NestedField.optional(5, "version", Types.LongType.get()));

  static final String COLUMNS = "id, created_day, v, amount, version";

  private DimTables() {}

  static void create(Catalog catalog) {
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("bench"));
    PartitionSpec byDay = PartitionSpec.builderFor(DIM_SCHEMA).identity("created_day").build();
    catalog.createTable(TableIdentifier.parse(DIM), DIM_SCHEMA, byDay, props());
    catalog.createTable(TableIdentifier.parse(REBUILT), DIM_SCHEMA, byDay, props());
    catalog.createTable(
        TableIdentifier.parse(STAGING), STAGING_SCHEMA, PartitionSpec.unpartitioned(), props());
  }

  private static Map<String, String> props() {
    // Mutable: some catalogs modify the map they are given.
    Map<String, String> props = new HashMap<>();
    props.put(TableProperties.FORMAT_VERSION, "2");
    props.put(TableProperties.PARQUET_COMPRESSION, "zstd");
    return props;
  }
}
