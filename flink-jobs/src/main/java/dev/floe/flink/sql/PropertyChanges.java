package dev.floe.flink.sql;

import dev.floe.catalog.spec.WritableProperties;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.catalog.CatalogManager;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.operations.ddl.AlterTableChangeOperation;
import org.apache.flink.table.operations.ddl.CreateTableOperation;

/**
 * The properties a statement gives a table of an Iceberg catalog: those of a table it creates
 * ({@code CREATE TABLE}, also {@code ... AS}, {@code REPLACE TABLE ... AS} of a new table) and
 * those an {@code ALTER TABLE ... SET} sets. A value Iceberg cannot parse or would misread, which
 * {@code floe tables apply} refuses in a spec too ({@link WritableProperties#requireSettable}), is
 * refused before anything runs: Iceberg accepts it and only fails later, at the commit of every
 * write into the table, after the data files were written (or reads a boolean as false). So are
 * keys under {@code floe.} (those Floe writes also in an {@code ALTER TABLE ... RESET}), keys
 * Iceberg reserves or would keep as keys of their own ({@code Format-Version}; a {@code RESET} of a
 * reserved key removes nothing), and the keys its Flink catalog takes as commands ({@code
 * current-snapshot-id} rolls back without {@code floe rollback}'s tag, {@code
 * cherry-pick-snapshot-id}, and an {@code ALTER}'s {@code location} moves the table).
 */
final class PropertyChanges {
  private PropertyChanges() {}

  /**
   * Refuses {@code operation} (exit 2) when it gives a table of an Iceberg catalog a property value
   * Iceberg cannot parse; the properties an {@code ALTER TABLE} keeps are not its to answer for.
   *
   * @param catalogs the session's catalogs
   * @param schemas tells the configured Iceberg catalog's tables from the session's others
   */
  static void require(
      String source,
      SqlStatement statement,
      Operation operation,
      CatalogManager catalogs,
      TableSchemas schemas) {
    CreateTableOperation create = RefusedStatements.tableCreatedBy(operation);
    if (create != null
        && !create.isTemporary()
        // CREATE TABLE IF NOT EXISTS of a table that exists gives it nothing (a CTAS then inserts
        // into it: IcebergTables.requireWritable answers for its properties).
        && !(create.isIgnoreIfExists()
            && catalogs.getTable(create.getTableIdentifier()).isPresent())) {
      require(
          source,
          statement,
          create.getTableIdentifier(),
          create.getCatalogTable().getOptions(),
          true,
          catalogs,
          schemas);
    } else if (operation instanceof AlterTableChangeOperation alter
        && !catalogs
            .getTable(alter.getTableIdentifier())
            .map(ContextResolvedTable::isTemporary)
            .orElse(false)) {
      Map<String, String> set = new LinkedHashMap<>();
      List<String> reset = new ArrayList<>();
      for (TableChange change : alter.getTableChanges()) {
        if (change instanceof TableChange.SetOption option) {
          set.put(option.getKey(), option.getValue());
        } else if (change instanceof TableChange.ResetOption option) {
          reset.add(option.getKey());
        }
      }
      ObjectIdentifier table = alter.getTableIdentifier();
      if (RefusedStatements.isIceberg(table.getCatalogName(), catalogs, schemas)) {
        WritableProperties.requireRemovable(
            SqlErrors.action(source, statement), name(table), reset);
      }
      require(source, statement, table, set, false, catalogs, schemas);
    }
  }

  private static void require(
      String source,
      SqlStatement statement,
      ObjectIdentifier table,
      Map<String, String> properties,
      boolean created,
      CatalogManager catalogs,
      TableSchemas schemas) {
    if (RefusedStatements.isIceberg(table.getCatalogName(), catalogs, schemas)) {
      WritableProperties.requireSettable(
          SqlErrors.action(source, statement), name(table), properties, created);
    }
  }

  private static String name(ObjectIdentifier table) {
    return table.getDatabaseName() + "." + table.getObjectName();
  }
}
