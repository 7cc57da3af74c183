package dev.floe.it.catalogs;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;

/**
 * What the example table sales.fact_orders holds now, read through Iceberg itself (not through
 * Floe's lineage): its location, head snapshot, content hashes and order ids per example day.
 */
public record FactOrders(
    String location,
    long snapshotId,
    Map<String, String> summary,
    ContentHash tableHash,
    Map<LocalDate, ContentHash> dayHashes,
    Map<LocalDate, List<Long>> orderIdsByDay) {

  public static final String TABLE = "sales.fact_orders";
  public static final LocalDate DAY = LocalDate.parse("2026-10-03");
  public static final LocalDate OTHER_DAY = LocalDate.parse("2026-10-04");

  public ContentHash dayHash(LocalDate day) {
    return dayHashes.get(day);
  }

  public List<Long> orderIds(LocalDate day) {
    return orderIdsByDay.get(day);
  }

  /** Opens the catalog floe.yaml describes (credentials as the test JVM has them) and reads. */
  public static FactOrders read(Path configFile, Path home) throws IOException {
    CatalogConfig config = CatalogConfigLoader.load(configFile, home, Map.of(), Map.of());
    Catalog catalog = Catalogs.open(config);
    try {
      Table table = Catalogs.loadTable(catalog, TABLE);
      Map<LocalDate, ContentHash> hashes = new HashMap<>();
      Map<LocalDate, List<Long>> ids = new HashMap<>();
      for (LocalDate day : List.of(DAY, OTHER_DAY)) {
        Expression filter = Expressions.equal("order_date", day.toString());
        hashes.put(day, TableContent.hash(table, filter));
        List<Long> orderIds = new ArrayList<>();
        try (CloseableIterable<Record> rows = IcebergGenerics.read(table).where(filter).build()) {
          rows.forEach(row -> orderIds.add((Long) row.getField("order_id")));
        }
        ids.put(day, orderIds);
      }
      Snapshot head = table.currentSnapshot();
      return new FactOrders(
          table.location(),
          head == null ? -1 : head.snapshotId(),
          head == null ? Map.of() : head.summary(),
          TableContent.hash(table),
          hashes,
          ids);
    } finally {
      Catalogs.close(catalog);
    }
  }
}
