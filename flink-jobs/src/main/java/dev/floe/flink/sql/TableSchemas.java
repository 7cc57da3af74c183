package dev.floe.flink.sql;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogOptions;
import dev.floe.catalog.config.Catalogs;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
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

  /**
   * Whether the catalog named {@code catalog} is the configured one and keeps a namespace as its
   * levels joined by '.' (a JDBC catalog, the embedded one too): there a database named {@code
   * `a.b`} is the nested namespace {@code a.b} that a table spec {@code a.b.t} makes, and Iceberg's
   * Flink connector finds its tables.
   */
  boolean joinsNamespaceLevels(String catalog);

  /**
   * Whether {@code flinkName} is a table of the Iceberg catalog that has never had a snapshot (on
   * any branch), read from the catalog, not from the session's cache.
   */
  boolean neverWritten(String flinkName);

  static TableSchemas of(CatalogConfig config) {
    String prefix = config.name() + ".";
    return new TableSchemas() {
      @Override
      public Schema schema(String name) {
        Table table = load(name);
        return table == null ? null : table.schema();
      }

      @Override
      public boolean neverWritten(String name) {
        Table table = load(name);
        return table != null && !table.snapshots().iterator().hasNext();
      }

      /** The table of the Iceberg catalog, read afresh; null when it is not one or not there. */
      private Table load(String name) {
        if (!inCatalog(name)) {
          return null;
        }
        TableIdentifier id = TableIdentifier.parse(name.substring(prefix.length()));
        Catalog catalog = Catalogs.open(config);
        try {
          return catalog.tableExists(id) ? catalog.loadTable(id) : null;
        } finally {
          Catalogs.close(catalog);
        }
      }

      @Override
      public boolean inCatalog(String name) {
        return name.startsWith(prefix);
      }

      @Override
      public boolean joinsNamespaceLevels(String catalog) {
        return catalog.equals(config.name())
            && (config.type().equals(CatalogOptions.EMBEDDED) || config.type().equals("jdbc"));
      }
    };
  }
}
