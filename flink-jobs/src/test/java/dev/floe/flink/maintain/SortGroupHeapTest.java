package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.lineage.StoredRows;
import dev.floe.catalog.maintain.GroupHeap;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A sorted group's rows are held as generic records, about 25 times their Parquet bytes for the
 * docs' fact table. The planner caps groups by {@link GroupHeap}'s estimate, so the estimate must
 * not be far below the heap the rows really take, and the largest group it allows must fit the 1536
 * MiB heap of a default maintenance pod with room to spare.
 */
class SortGroupHeapTest {
  private static final long POD_HEAP = 1536L * 1024 * 1024;

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void theLargestGroupThePlannerAllowsFitsTheDefaultPodHeap() throws IOException {
    Table fact = catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    Unsorted.append(fact, "2026-10-03", 1, 50_000, 5);
    DataFile file = Deletes.dataFiles(fact).get(0);
    System.gc();
    long before = used();
    List<Record> held = new ArrayList<>();
    try (CloseableIterable<Record> rows =
        StoredRows.read(fact, fact.spec(), file, List.of(), new AtomicLong())) {
      rows.forEach(held::add);
    }
    System.gc();
    long measuredPerRow = (used() - before) / held.size();
    long estimatedPerRow = GroupHeap.bytesPerRow(StoredRows.schema(fact));
    long largestGroupRows = GroupHeap.MAX_GROUP_HEAP_BYTES / estimatedPerRow;
    System.out.printf(
        "rows=%d measured=%d B/row estimated=%d B/row largest group=%d rows, %d MiB%n",
        held.size(),
        measuredPerRow,
        estimatedPerRow,
        largestGroupRows,
        (measuredPerRow * largestGroupRows) >> 20);

    assertThat(measuredPerRow).isLessThanOrEqualTo(estimatedPerRow * 5 / 4);
    assertThat(measuredPerRow * largestGroupRows).isLessThan(POD_HEAP / 2);
  }

  private static long used() {
    Runtime r = Runtime.getRuntime();
    return r.totalMemory() - r.freeMemory();
  }
}
