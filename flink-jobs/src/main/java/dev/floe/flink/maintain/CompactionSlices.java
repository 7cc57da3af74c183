package dev.floe.flink.maintain;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.catalog.slice.SliceUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;

/**
 * Turns the {@code --slice} values an operator types for {@code floe maintain --compact} into
 * slices of a table. A value is resolved exactly like {@code floe run --slice} ({@link
 * SliceResolver}: same formats, same alignment rules, same messages); the column is the table's
 * time-partition column, or named as {@code column=value} when the table has several.
 */
public final class CompactionSlices {

  private CompactionSlices() {}

  /**
   * @param tableName the table's name for messages
   * @param table the table (its current schema and partition spec decide)
   * @param values the values as typed, e.g. {@code 2026-10-03} or {@code order_date=2026-10-03}
   * @return one slice per value, in the given order
   * @throws InvalidInputException (exit 2) for no value, a value that does not parse or align, a
   *     table without a time partition, an ambiguous column, or two overlapping slices
   */
  public static List<Slice> resolve(String tableName, Table table, List<String> values) {
    if (values == null || values.isEmpty()) {
      throw InvalidInputException.of(
          "Cannot compact %s: give at least one --slice (compaction commits one slice at a time),"
              + " e.g. --slice 2026-10-03",
          tableName);
    }
    List<Slice> slices = new ArrayList<>();
    for (String value : values) {
      Slice slice = resolveOne(tableName, table, value);
      for (Slice earlier : slices) {
        if (earlier.overlaps(slice)) {
          throw InvalidInputException.of(
              "Cannot compact %s: slices %s and %s overlap; give each slice once",
              tableName, earlier.label(), slice.label());
        }
      }
      slices.add(slice);
    }
    return slices;
  }

  private static Slice resolveOne(String tableName, Table table, String value) {
    String text = value == null ? "" : value.trim();
    int equals = text.indexOf('=');
    if (equals >= 0) {
      String column = text.substring(0, equals).trim();
      return SliceResolver.resolve(tableName, table, column, text.substring(equals + 1).trim());
    }
    Set<String> columns = timePartitionColumns(table);
    if (columns.isEmpty()) {
      throw InvalidInputException.of(
          "Cannot compact slice '%s' of %s: the table has no time partition to slice by"
              + " (partition spec %s)",
          value, tableName, SliceResolver.describe(table.spec()));
    }
    if (columns.size() > 1) {
      String first = columns.iterator().next();
      throw InvalidInputException.of(
          "Cannot compact slice '%s' of %s: it is partitioned by time on several columns (%s);"
              + " name the column, e.g. --slice %s=%s",
          value, tableName, String.join(", ", columns), first, text);
    }
    return SliceResolver.resolve(tableName, table, columns.iterator().next(), text);
  }

  /** Source columns of the current spec's hour/day/month/year or identity-on-date fields. */
  private static Set<String> timePartitionColumns(Table table) {
    Set<String> columns = new LinkedHashSet<>();
    for (PartitionField field : table.spec().fields()) {
      Types.NestedField source = table.schema().findField(field.sourceId());
      if (source == null) {
        continue;
      }
      if (SliceUnit.ofPartitionField(field.transform().toString(), source.type()) != null) {
        columns.add(source.name());
      }
    }
    return columns;
  }
}
