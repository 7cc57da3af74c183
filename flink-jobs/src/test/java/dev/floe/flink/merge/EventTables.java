package dev.floe.flink.merge;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.testing.TableRows;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * A keyed table partitioned by day, {@code sales.events} (id, day, v, version), with 100 days of 10
 * rows each (one data file per day, ids {@code day*10 .. day*10+9}), and its staging table.
 */
final class EventTables {
  static final LocalDate FIRST_DAY = LocalDate.parse("2026-01-01");
  static final int DAYS = 100;

  static final Schema EVENTS =
      new Schema(
          List.of(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.required(2, "event_day", Types.DateType.get()),
              Types.NestedField.optional(3, "v", Types.StringType.get()),
              Types.NestedField.optional(4, "version", Types.LongType.get())),
          Set.of(1));

  static final Schema STAGING =
      new Schema(
          Types.NestedField.optional(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "event_day", Types.DateType.get()),
          Types.NestedField.optional(3, "v", Types.StringType.get()),
          Types.NestedField.optional(4, "version", Types.LongType.get()));

  static final String QUERY = "SELECT id, event_day, v, version FROM sales.events_staging";

  private final CatalogConfig config;

  EventTables(CatalogConfig config) {
    this.config = config;
  }

  /** Creates both tables and fills sales.events with 100 days in one append. */
  EventTables create() {
    Catalog catalog = Catalogs.open(config);
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
      catalog.createTable(TableIdentifier.of("sales", "events_staging"), STAGING);
      Table events =
          catalog.createTable(
              TableIdentifier.of("sales", "events"),
              EVENTS,
              PartitionSpec.builderFor(EVENTS).identity("event_day").build(),
              Map.of("format-version", "2"));
      AppendFiles append = events.newAppend();
      for (int day = 0; day < DAYS; day++) {
        List<Record> rows = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
          rows.add(event(events, day * 10L + i, day, "v1", 1));
        }
        append.appendFile(TableRows.write(events, rows.toArray(Record[]::new)));
      }
      append.commit();
    } finally {
      Catalogs.close(catalog);
    }
    return this;
  }

  /** Replaces the staging table's rows with {@code rows} (id, day offset, v, version). */
  void staging(Object[]... rows) {
    Catalog catalog = Catalogs.open(config);
    try {
      Table staging = Catalogs.loadTable(catalog, "sales.events_staging");
      staging
          .newDelete()
          .deleteFromRowFilter(org.apache.iceberg.expressions.Expressions.alwaysTrue())
          .commit();
      if (rows.length > 0) {
        List<Record> records = new ArrayList<>();
        for (Object[] row : rows) {
          records.add(
              event(
                  staging,
                  ((Number) row[0]).longValue(),
                  ((Number) row[1]).intValue(),
                  (String) row[2],
                  ((Number) row[3]).longValue()));
        }
        TableRows.append(staging, records.toArray(Record[]::new));
      }
    } finally {
      Catalogs.close(catalog);
    }
  }

  Table events() {
    Catalog catalog = Catalogs.open(config);
    try {
      return Catalogs.loadTable(catalog, "sales.events");
    } finally {
      Catalogs.close(catalog);
    }
  }

  /** Every row of sales.events as {@code id:v:version}, sorted by id. */
  List<String> rows() {
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(events()).build()) {
      records.forEach(
          r -> rows.add(r.getField("id") + ":" + r.getField("v") + ":" + r.getField("version")));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    rows.sort(Comparator.comparingLong(EventTables::id));
    return rows;
  }

  static String day(int offset) {
    return FIRST_DAY.plusDays(offset).toString();
  }

  private static long id(String row) {
    return Long.parseLong(row.substring(0, row.indexOf(':')));
  }

  private static Record event(Table table, long id, int day, String v, long version) {
    return TableRows.row(
        table, Map.of("id", id, "event_day", FIRST_DAY.plusDays(day), "v", v, "version", version));
  }
}
