package dev.floe.flink.sql;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;

/** The Iceberg schema of a table Flink names {@code catalog.database.table}, if it is ours. */
@FunctionalInterface
interface TableSchemas {

  /** The schema, or null when the table is not in the Iceberg catalog (or does not exist yet). */
  Schema schema(String flinkName);

  static TableSchemas of(CatalogConfig config) {
    String prefix = config.name() + ".";
    return name -> {
      if (!name.startsWith(prefix)) {
        return null;
      }
      TableIdentifier id = TableIdentifier.parse(name.substring(prefix.length()));
      Catalog catalog = Catalogs.open(config);
      try {
        return catalog.tableExists(id) ? catalog.loadTable(id).schema() : null;
      } finally {
        Catalogs.close(catalog);
      }
    };
  }
}
