package dev.floe.flink.sql;

import dev.floe.catalog.lineage.ExactTypes;
import dev.floe.flink.job.QueryInspector;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.table.operations.ModifyOperation;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.operations.QueryOperation;
import org.apache.flink.table.operations.SinkModifyOperation;
import org.apache.flink.table.operations.StatementSetOperation;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The Iceberg tables one SQL statement reads or writes, with their schemas: to refuse a statement
 * whose values Flink cannot carry exactly, and to show uuid columns as uuids (Flink sees a uuid as
 * BINARY(16), like a fixed(16)).
 */
final class IcebergTables {
  private final Map<String, Schema> tables;

  private IcebergTables(Map<String, Schema> tables) {
    this.tables = tables;
  }

  static IcebergTables touchedBy(Operation operation, TableSchemas schemas) {
    Map<String, Schema> tables = new LinkedHashMap<>();
    collect(operation, schemas, tables);
    return new IcebergTables(tables);
  }

  private static void collect(
      Operation operation, TableSchemas schemas, Map<String, Schema> tables) {
    if (operation instanceof StatementSetOperation set) {
      set.getOperations().forEach(o -> collect(o, schemas, tables));
      return;
    }
    QueryOperation query = null;
    if (operation instanceof ModifyOperation modify) {
      if (modify instanceof SinkModifyOperation sink) {
        add(sink.getContextResolvedTable().getIdentifier().asSummaryString(), schemas, tables);
      }
      query = modify.getChild();
    } else if (operation instanceof QueryOperation queryOperation) {
      query = queryOperation;
    }
    if (query != null) {
      for (String scanned : QueryInspector.inspect(query).scannedTables()) {
        add(scanned, schemas, tables);
      }
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

  /** Refuses the statement (exit 2) when a table it touches has a column Flink cannot carry. */
  void requireExact(SqlStatement statement, String source) {
    tables.forEach(
        (name, schema) ->
            ExactTypes.require(
                String.format(
                    "run SQL statement %d (line %d of %s)",
                    statement.number(), statement.line(), source),
                name.substring(name.indexOf('.') + 1),
                schema,
                ExactTypes.Path.FLINK));
  }

  /**
   * Whether an output column of that name is a uuid: some table the statement reads has a uuid
   * column of that name and none has a fixed(16) of that name. (A uuid renamed by the query, or
   * computed, prints as hex.)
   */
  boolean isUuidColumn(String column) {
    boolean uuid = false;
    for (Schema schema : tables.values()) {
      for (Types.NestedField field : schema.columns()) {
        if (field.name().equalsIgnoreCase(column)) {
          if (field.type().typeId() == Type.TypeID.FIXED) {
            return false;
          }
          uuid |= field.type().typeId() == Type.TypeID.UUID;
        }
      }
    }
    return uuid;
  }

  static UUID uuid(byte[] bytes) {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    return new UUID(buffer.getLong(), buffer.getLong());
  }
}
