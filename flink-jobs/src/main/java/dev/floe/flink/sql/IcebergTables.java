package dev.floe.flink.sql;

import dev.floe.catalog.lineage.ColumnDefaults;
import dev.floe.catalog.lineage.ExactTypes;
import dev.floe.catalog.spec.WritableProperties;
import dev.floe.flink.job.QueryInspector;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.flink.table.catalog.CatalogManager;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.operations.CreateTableASOperation;
import org.apache.flink.table.operations.ModifyOperation;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.operations.QueryOperation;
import org.apache.flink.table.operations.ReplaceTableAsOperation;
import org.apache.flink.table.operations.SinkModifyOperation;
import org.apache.flink.table.operations.ddl.CreateTableOperation;
import org.apache.iceberg.Schema;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The Iceberg tables one SQL statement reads or writes, with their schemas: to refuse a statement
 * whose values Flink cannot carry exactly, and to show uuid columns as uuids (Flink sees a uuid as
 * BINARY(16), like a fixed(16)).
 */
final class IcebergTables {
  private final Map<String, Schema> tables;
  private final Set<String> read;

  private IcebergTables(Map<String, Schema> tables, Set<String> read) {
    this.tables = tables;
    this.read = read;
  }

  static IcebergTables touchedBy(Operation operation, TableSchemas schemas) {
    Map<String, Schema> tables = new LinkedHashMap<>();
    Set<String> read = new LinkedHashSet<>();
    collect(operation, schemas, tables, read);
    return new IcebergTables(tables, read);
  }

  private static void collect(
      Operation operation, TableSchemas schemas, Map<String, Schema> tables, Set<String> read) {
    QueryOperation query = null;
    if (operation instanceof ModifyOperation modify) {
      if (modify instanceof SinkModifyOperation sink) {
        add(sink.getContextResolvedTable().getIdentifier().asSummaryString(), schemas, tables);
      }
      CreateTableOperation created = createdBy(modify);
      if (created != null) {
        String name = created.getTableIdentifier().asSummaryString();
        // CREATE TABLE IF NOT EXISTS ... AS writes into the table when it exists; otherwise the
        // statement's table has the query's schema (a REPLACE TABLE ... AS of a table that exists
        // is refused before this).
        if (modify instanceof CreateTableASOperation && created.isIgnoreIfExists()) {
          add(name, schemas, tables);
        }
        if (!created.isTemporary() && schemas.inCatalog(name)) {
          Schema schema = icebergSchemaOf(created);
          if (schema != null) {
            tables.putIfAbsent(name + " as created", schema);
          }
        }
      }
      query = modify.getChild();
    } else if (operation instanceof QueryOperation queryOperation) {
      query = queryOperation;
    }
    if (query != null) {
      for (String scanned : QueryInspector.inspect(query).scannedTables()) {
        add(scanned, schemas, tables);
        if (tables.containsKey(scanned)) {
          read.add(scanned);
        }
      }
    }
  }

  /** The table a {@code CREATE TABLE ... AS} or {@code REPLACE TABLE ... AS} creates; else null. */
  private static CreateTableOperation createdBy(ModifyOperation modify) {
    if (modify instanceof CreateTableASOperation ctas) {
      return ctas.getCreateTableOperation();
    }
    if (modify instanceof ReplaceTableAsOperation rtas) {
      return rtas.getCreateTableOperation();
    }
    return null;
  }

  /**
   * The Iceberg schema the catalog will give the created table; null when Iceberg has no type for
   * one of its columns, which the catalog then refuses itself.
   */
  private static Schema icebergSchemaOf(CreateTableOperation created) {
    try {
      return FlinkSchemaUtil.convert(created.getCatalogTable().getResolvedSchema());
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static void add(String name, TableSchemas schemas, Map<String, Schema> tables) {
    if (!tables.containsKey(name)) {
      Schema schema = schemas.schema(name);
      if (schema != null) {
        tables.put(name, schema);
      }
    }
  }

  /**
   * Whether Flink's planner refuses {@code operation} before it starts any job: a row-level {@code
   * DELETE} or {@code UPDATE} of an Iceberg table (not a temporary table that shadows one).
   * Iceberg's Flink sink implements neither {@code SupportsRowLevelDelete} nor {@code
   * SupportsRowLevelUpdate} nor {@code SupportsDeletePushDown} (a test pins it), so no cluster
   * needs to start for it; the planner's own refusal is what the user sees.
   */
  boolean refusedWhilePlanned(Operation operation) {
    return isRowLevelChange(operation)
        && operation instanceof SinkModifyOperation sink
        && !sink.getContextResolvedTable().isTemporary()
        && tables.containsKey(sink.getContextResolvedTable().getIdentifier().asSummaryString());
  }

  /** A {@code DELETE} or {@code UPDATE} of single rows; false for null. */
  static boolean isRowLevelChange(Operation operation) {
    return operation instanceof SinkModifyOperation sink && (sink.isDelete() || sink.isUpdate());
  }

  /** Refuses the statement (exit 2) when a table it touches has a column Flink cannot carry. */
  void requireExact(SqlStatement statement, String source) {
    tables.forEach(
        (name, schema) ->
            ExactTypes.require(
                SqlErrors.action(source, statement),
                name.substring(name.indexOf('.') + 1),
                schema,
                ExactTypes.Path.FLINK));
  }

  /**
   * Refuses the statement (exit 2) when Flink would lose a column default ({@link ColumnDefaults}):
   * a table it reads has a column with an initial default, or its {@code INSERT} leaves out a
   * column with a write default.
   */
  void requireDefaults(Operation operation, SqlStatement statement, String source) {
    String action = SqlErrors.action(source, statement);
    for (String name : read) {
      ColumnDefaults.requireNone(action, shortName(name), tables.get(name));
    }
    if (operation instanceof SinkModifyOperation sink
        && sink.getTargetColumns() != null
        && !sink.isDelete()
        && !sink.isUpdate()) {
      String name = sink.getContextResolvedTable().getIdentifier().asSummaryString();
      Schema schema = tables.get(name);
      if (schema != null) {
        List<String> columns = sink.getContextResolvedTable().getResolvedSchema().getColumnNames();
        Set<String> given = new HashSet<>(sink.getStaticPartitions().keySet());
        for (int[] path : sink.getTargetColumns()) {
          given.add(columns.get(path[0]));
        }
        List<String> omitted = columns.stream().filter(c -> !given.contains(c)).toList();
        ColumnDefaults.requireWritten(action, shortName(name), schema, omitted);
      }
    }
  }

  private static String shortName(String flinkName) {
    return flinkName.substring(flinkName.indexOf('.') + 1);
  }

  /**
   * Refuses (exit 2) a write into an Iceberg table whose properties hold a value Iceberg cannot
   * parse ({@link WritableProperties}): Iceberg's sink reads some of them only while it commits,
   * after every data file was written, and fails with its own message (exit 1).
   */
  void requireWritable(SinkModifyOperation sink, SqlStatement statement, String source) {
    requireWritable(sink.getContextResolvedTable(), statement, source);
  }

  /** The same for a {@code CREATE TABLE IF NOT EXISTS ... AS} of a table that exists. */
  void requireWritable(
      CreateTableASOperation create,
      CatalogManager catalogs,
      SqlStatement statement,
      String source) {
    CreateTableOperation created = create.getCreateTableOperation();
    if (created.isIgnoreIfExists()) {
      catalogs
          .getTable(created.getTableIdentifier())
          .ifPresent(existing -> requireWritable(existing, statement, source));
    }
  }

  private void requireWritable(ContextResolvedTable target, SqlStatement statement, String source) {
    String name = target.getIdentifier().asSummaryString();
    if (!target.isTemporary() && tables.containsKey(name)) {
      WritableProperties.require(
          SqlErrors.action(source, statement),
          name.substring(name.indexOf('.') + 1),
          target.getResolvedTable().getOptions());
    }
  }

  /**
   * Whether {@code table} (as {@code catalog.namespace.table}) has a uuid column {@code column}.
   */
  boolean isUuidColumn(String table, String column) {
    Schema schema = tables.get(table);
    if (schema == null) {
      return false;
    }
    Types.NestedField field = schema.caseInsensitiveFindField(column);
    return field != null && field.type().typeId() == Type.TypeID.UUID;
  }

  static UUID uuid(byte[] bytes) {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    return new UUID(buffer.getLong(), buffer.getLong());
  }
}
