package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backfill benchmark's expected hashes are computed while the staging files are written; this
 * proves they are what the table holds, day by day, so a backfill compared with them is checked
 * against the data and not against the writer's own bookkeeping.
 */
class BackfillStagingTest {
  @TempDir Path home;

  @Test
  void eachDayIsOneFileWhoseRowsHashAsReported() throws Exception {
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      Table staging = BenchTables.create(catalog);

      List<ContentHash> hashes = StagingData.writeDays(staging, BackfillDays.FIRST, 3, 50, 2);

      staging.refresh();
      BackfillDays days = new BackfillDays(BackfillDays.FIRST, 50, hashes);
      assertThat(days.values()).containsExactly("2026-01-01", "2026-01-02", "2026-01-03");
      assertThat(days.to()).isEqualTo("2026-01-04");
      assertThat(TableContent.hash(staging).rows()).isEqualTo(150);
      for (int d = 0; d < 3; d++) {
        String day = days.day(d).toString();
        assertThat(hashes.get(d).rows()).isEqualTo(50);
        assertThat(TableContent.hash(staging, Expressions.equal("order_date", day)))
            .as("day %s", day)
            .isEqualTo(hashes.get(d));
        try (CloseableIterable<FileScanTask> files =
            staging.newScan().filter(Expressions.equal("order_date", day)).planFiles()) {
          assertThat(files).as("files of %s", day).hasSize(1);
        }
      }
      assertThat(hashes.get(0)).isNotEqualTo(hashes.get(1));
      Set<Long> ids = new HashSet<>();
      try (CloseableIterable<Record> rows = IcebergGenerics.read(staging).build()) {
        rows.forEach(r -> ids.add((Long) r.getField("order_id")));
      }
      assertThat(ids).hasSize(150); // unique across days, as the unique check requires
    } finally {
      Catalogs.close(catalog);
    }
  }
}
