package dev.floe.flink.sql;

import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.planner.operations.PlannerQueryOperation;

/**
 * Which output columns of a query hold an Iceberg uuid column's values unchanged, from the
 * planner's column lineage (Calcite's column origins): Flink carries a uuid as BINARY(16), like a
 * fixed(16), so only where a value came from tells them apart. A uuid renamed by the query, or one
 * of several uuid columns a UNION brings together, is a uuid; anything computed from one is not.
 *
 * <p>The lineage needs the planner's own classes. A Flink distribution's {@code lib/} holds {@code
 * flink-table-planner-loader}, which keeps them from user code (the Docker image, {@code flink
 * run}, a session cluster): there no column is known to be a uuid, and a uuid is shown as the 16
 * bytes Flink carries (hex) instead of failing the statement. {@code bin/floe} runs with the
 * planner itself.
 */
final class UuidColumns {
  private static final boolean PLANNER_VISIBLE = plannerVisible();

  private UuidColumns() {}

  /**
   * @param operation the parsed statement
   * @param count its output columns
   * @param tables the Iceberg tables it reads, with their schemas
   * @return for each output column, whether it is a uuid
   */
  static boolean[] of(Operation operation, int count, IcebergTables tables) {
    return PLANNER_VISIBLE ? Lineage.of(operation, count, tables) : new boolean[count];
  }

  private static boolean plannerVisible() {
    try {
      Class.forName(
          "org.apache.flink.table.planner.operations.PlannerQueryOperation",
          false,
          UuidColumns.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** The only code that touches the planner's classes: loaded only when they are visible. */
  private static final class Lineage {
    private Lineage() {}

    static boolean[] of(Operation operation, int count, IcebergTables tables) {
      boolean[] uuid = new boolean[count];
      if (!(operation instanceof PlannerQueryOperation query)) {
        return uuid;
      }
      RelNode rel = query.getCalciteTree();
      RelMetadataQuery metadata = rel.getCluster().getMetadataQuery();
      for (int i = 0; i < count; i++) {
        Set<RelColumnOrigin> origins = metadata.getColumnOrigins(rel, i);
        uuid[i] =
            origins != null
                && !origins.isEmpty()
                && origins.stream().allMatch(origin -> isUuid(origin, tables));
      }
      return uuid;
    }

    private static boolean isUuid(RelColumnOrigin origin, IcebergTables tables) {
      if (origin.isDerived()) {
        return false;
      }
      List<String> table = origin.getOriginTable().getQualifiedName();
      List<String> columns = origin.getOriginTable().getRowType().getFieldNames();
      return tables.isUuidColumn(
          String.join(".", table), columns.get(origin.getOriginColumnOrdinal()));
    }
  }
}
