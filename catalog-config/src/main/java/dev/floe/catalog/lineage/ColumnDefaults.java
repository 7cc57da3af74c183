package dev.floe.catalog.lineage;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.Shown;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * Column defaults (Iceberg format v3) that Floe's Flink paths ({@link ExactTypes.Path#FLINK}) do
 * not carry. A column added with an initial default holds that value in every data file written
 * before it was added, and a reader must supply it: Iceberg's own readers do, but its Flink source
 * reads NULL there (measured: a column added with default 42 read as NULL by a job's query and by
 * {@code floe sql}, with a content hash that matched what was written). A write default is the
 * value a writer stores when a statement gives none: Flink's {@code INSERT} with a column list
 * stores NULL instead. Both are refused before anything is read or written.
 */
public final class ColumnDefaults {
  private ColumnDefaults() {}

  /**
   * Refuses (exit 2) reading {@code table} through Flink while a live data file of its current
   * snapshot may lack a column that has an initial default: one without a value count for the
   * column. Only a count proves a file holds the column: the schema of the snapshot that added a
   * file does not (a writer that began before the column was added commits after it), so a file
   * without column metrics (metrics mode none, a column past the first 100, a field in a list) is
   * refused too. Reads only metadata, and the manifests only when the schema has such a column.
   *
   * @param action what could not be done, e.g. {@code "run fact_orders_daily"}
   * @param name the table's name, for the message
   * @throws InvalidInputException naming the column, its default and one such file
   */
  public static void requireReadable(String action, String name, Table table) {
    Map<Integer, Types.NestedField> defaulted = initialDefaults(table.schema());
    if (defaulted.isEmpty() || table.currentSnapshot() == null) {
      return;
    }
    List<String> columns = new ArrayList<>();
    defaulted.keySet().forEach(id -> columns.add(table.schema().findColumnName(id)));
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().includeColumnStats(columns).planFiles()) {
      for (FileScanTask task : tasks) {
        Map<Integer, Long> counts = task.file().valueCounts();
        for (Map.Entry<Integer, Types.NestedField> field : defaulted.entrySet()) {
          if (counts == null || !counts.containsKey(field.getKey())) {
            String column = table.schema().findColumnName(field.getKey());
            throw InvalidInputException.of(
                "Cannot %s: column %s of %s has an initial default (%s), which Iceberg's Flink"
                    + " reader reads as NULL in data files written before the column was added;"
                    + " nothing proves %s holds %s (it has no value count for it): rewrite such"
                    + " files as Parquet or ORC with metrics for %s (Avro files have none; with"
                    + " write.metadata.metrics.default=none set write.metadata.metrics.column.%s"
                    + "=counts), as floe maintain --compact does for small files",
                action,
                column,
                name,
                Shown.value(String.valueOf(field.getValue().initialDefault())),
                task.file().location(),
                column,
                column,
                column);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the data files of " + name, e);
    }
  }

  /**
   * Refuses (exit 2) any read of {@code schema}'s table through Flink when a column has an initial
   * default: for {@code floe sql}, which may read any snapshot of it (a branch, a tag), not only
   * the current one {@link #requireReadable} looks at.
   *
   * @throws InvalidInputException naming the first such column and its default
   */
  public static void requireNone(String action, String name, Schema schema) {
    Map<Integer, Types.NestedField> defaulted = initialDefaults(schema);
    if (!defaulted.isEmpty()) {
      Map.Entry<Integer, Types.NestedField> first = defaulted.entrySet().iterator().next();
      throw InvalidInputException.of(
          "Cannot %s: column %s of %s has an initial default (%s), which Iceberg's Flink reader"
              + " reads as NULL in data files written before the column was added; floe sql reads"
              + " no such table (floe run does, once every live file holds the column)",
          action,
          schema.findColumnName(first.getKey()),
          name,
          Shown.value(String.valueOf(first.getValue().initialDefault())));
    }
  }

  /**
   * Refuses (exit 2) a write through Flink that gives no value to a column with a write default
   * ({@code omitted}: the columns an {@code INSERT}'s column list leaves out).
   *
   * @throws InvalidInputException naming the first such column and its default
   */
  public static void requireWritten(
      String action, String name, Schema schema, List<String> omitted) {
    for (String column : omitted) {
      Types.NestedField field = schema.findField(column);
      if (field != null && field.writeDefault() != null) {
        throw InvalidInputException.of(
            "Cannot %s: column %s of %s has a write default (%s), which Flink's INSERT does not"
                + " fill in (it stores NULL); name the column and its value",
            action, column, name, Shown.value(String.valueOf(field.writeDefault())));
      }
    }
  }

  /** The fields of {@code schema}, at any depth, that have an initial default, by field id. */
  public static Map<Integer, Types.NestedField> initialDefaults(Schema schema) {
    Map<Integer, Types.NestedField> defaulted = new TreeMap<>();
    TypeUtil.indexById(schema.asStruct())
        .forEach(
            (id, field) -> {
              if (field.initialDefault() != null) {
                defaulted.put(id, field);
              }
            });
    return defaulted;
  }
}
