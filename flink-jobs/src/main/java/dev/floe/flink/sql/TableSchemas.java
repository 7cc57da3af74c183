package dev.floe.flink.sql;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The Iceberg schemas of the tables Flink names {@code catalog.database.table}, if they are ours.
 */
interface TableSchemas {

  /** The schema, or null when the table is not in the Iceberg catalog (or does not exist yet). */
  Schema schema(String flinkName);

  /** Whether {@code flinkName} names a table of the Iceberg catalog, existing or not. */
  boolean inCatalog(String flinkName);

  static TableSchemas of(CatalogConfig config) {
    String prefix = config.name() + ".";
    return new TableSchemas() {
      @Override
      public Schema schema(String name) {
        if (!inCatalog(name)) {
          return null;
        }
        TableIdentifier id = TableIdentifier.parse(name.substring(prefix.length()));
        Catalog catalog = Catalogs.open(config);
        try {
          return catalog.tableExists(id) ? catalog.loadTable(id).schema() : null;
        } finally {
          Catalogs.close(catalog);
        }
      }

      @Override
      public boolean inCatalog(String name) {
        return name.startsWith(prefix);
      }
    };
  }
}
