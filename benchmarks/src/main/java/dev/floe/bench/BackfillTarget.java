package dev.floe.bench;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.lineage.TableContent;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.expressions.Expressions;

/**
 * Checks a loaded range from the target table alone, without trusting what the run reported: every
 * slice's rows read back hash like its staging day, and the table holds exactly one snapshot per
 * slice (nothing loaded twice, nothing left over from the sample's scratch run).
 */
final class BackfillTarget {

  private BackfillTarget() {}

  /**
   * @param path the path's name, for the error
   * @param backfillId the id every snapshot must carry, or null for plain runs
   * @throws IllegalStateException when the target is not exactly the staged range
   */
  static void verify(String path, CatalogConfig config, BackfillDays days, String backfillId) {
    Catalog catalog = Catalogs.open(config);
    try {
      Table table = Catalogs.loadTable(catalog, BenchTables.FACT);
      check(path, table.refs().keySet().equals(Set.of("main")), "refs " + table.refs().keySet());
      Map<String, Integer> snapshotsPerSlice = new TreeMap<>();
      int snapshots = 0;
      for (Snapshot snapshot : table.snapshots()) {
        snapshots++;
        Map<String, String> summary = snapshot.summary();
        check(
            path,
            backfillId == null || backfillId.equals(summary.get(LineageKeys.BACKFILL_ID)),
            "snapshot "
                + snapshot.snapshotId()
                + " has backfill id "
                + summary.get(LineageKeys.BACKFILL_ID)
                + ", expected "
                + backfillId);
        snapshotsPerSlice.merge(String.valueOf(summary.get(LineageKeys.SLICE)), 1, Integer::sum);
      }
      check(
          path,
          snapshots == days.slices() && snapshotsPerSlice.size() == days.slices(),
          snapshots + " snapshots for " + days.slices() + " slices: " + snapshotsPerSlice);
      String total = table.currentSnapshot().summary().get("total-records");
      check(
          path,
          String.valueOf(days.totalRows()).equals(total),
          "total-records " + total + ", expected " + days.totalRows());
      for (int d = 0; d < days.slices(); d++) {
        String day = days.day(d).toString();
        ContentHash actual = TableContent.hash(table, Expressions.equal("order_date", day));
        check(
            path,
            actual.equals(days.hashes().get(d)),
            "slice " + day + " holds " + actual + ", expected " + days.hashes().get(d));
      }
    } finally {
      Catalogs.close(catalog);
    }
  }

  private static void check(String path, boolean ok, String what) {
    if (!ok) {
      throw new IllegalStateException("Wrong result of " + path + ": " + what);
    }
  }
}
