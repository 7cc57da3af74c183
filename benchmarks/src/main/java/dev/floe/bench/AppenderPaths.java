package dev.floe.bench;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/** What the two plain-Java limits share: their per-run check, read from the target. */
final class AppenderPaths {
  private AppenderPaths() {}

  /**
   * Checks the target's head is a new snapshot holding exactly {@code rows} ({@link LoadCheck}).
   *
   * @return the head's id, the {@code previous} of the next check
   */
  static Long verify(CatalogConfig catalog, String target, String path, Long previous, long rows) {
    Catalog c = Catalogs.open(catalog);
    try {
      Table table = Catalogs.loadTable(c, target);
      Snapshot head = table.currentSnapshot();
      LoadCheck.verify(
          path,
          head == null ? null : head.snapshotId(),
          previous,
          head == null ? Map.of() : head.summary(),
          rows);
      return head.snapshotId();
    } finally {
      Catalogs.close(c);
    }
  }
}
