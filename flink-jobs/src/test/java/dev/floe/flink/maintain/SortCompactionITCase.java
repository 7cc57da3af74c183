package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.StoredRows;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.spec.MaintenancePolicy;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Compaction with the policy's {@code strategy: sort} and {@code strategy: zorder}, end to end on a
 * Flink MiniCluster: the rewritten files are read back with Iceberg's reader and their order
 * checked row by row, the content hash is unchanged, and a rerun finds nothing to do.
 */
class SortCompactionITCase {
  private static final String DAY3 = "2026-10-03";
  private static final List<String> ZORDER = List.of("customer_id", "order_id");

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table fact;

  @BeforeEach
  void createTable() {
    fact = catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
  }

  @Test
  void sortRewritesFilesOverlappingOnTheSortKeyEvenWhenNoneIsSmallIntoOrderedDisjointFiles() {
    fact.replaceSortOrder().asc("order_id").commit();
    // 4000 order ids spread over 8 files: every file spans nearly the whole id range.
    Unsorted.append(fact, DAY3, 8, 500, 7);
    long target = smallestFile() - 1; // no file is small
    ContentHash before = TableContent.hash(fact);

    setStrategy("binpack", null);
    CompactionResult binpack = compaction(target).apply();
    setStrategy("sort", null);
    CompactionResult sorted = compaction(target).commit();
    CompactionResult rerun = compaction(target).commit();

    assertThat(binpack.slices().get(0).status())
        .isEqualTo(SliceCompaction.Status.NOTHING_TO_COMPACT);
    assertThat(sorted.exitCode()).isZero();
    assertThat(sorted.slices().get(0).status()).isEqualTo(SliceCompaction.Status.COMPACTED);
    fact.refresh();
    assertThat(TableContent.hash(fact)).isEqualTo(before);
    List<DataFile> files = filesWithBounds();
    assertThat(files).hasSize(4); // rolled every 1000 rows at this target
    long previousUpper = Long.MIN_VALUE;
    for (DataFile file : files) { // ordered by lower bound
      List<Record> rows = read(file);
      List<Long> ids = rows.stream().map(r -> (Long) r.getField("order_id")).toList();
      assertThat(ids).as(file.location()).isSorted();
      long lower = bound(file.lowerBounds().get(1));
      long upper = bound(file.upperBounds().get(1));
      assertThat(lower).isEqualTo(ids.get(0)).isGreaterThan(previousUpper);
      assertThat(upper).isEqualTo(ids.get(ids.size() - 1));
      previousUpper = upper;
    }
    assertThat(rerun.slices().get(0).status()).isEqualTo(SliceCompaction.Status.NOTHING_TO_COMPACT);
    assertThat(rerun.slices().get(0).detail()).contains("overlap on sort column order_id");
    assertThat(fact.currentSnapshot().snapshotId()).isEqualTo(sorted.slices().get(0).snapshotId());
  }

  @Test
  void zorderWritesRowsInZValueOrderWithinAndAcrossFilesAndARerunIsANoOp() {
    Unsorted.append(fact, DAY3, 40, 100, 11);
    long target = largestFile() * 4 / 3 + 4; // every file is small: below 3/4 of it
    ContentHash before = TableContent.hash(fact);
    setStrategy("zorder", String.join(",", ZORDER));

    CompactionResult zordered = compaction(target).commit();
    CompactionResult rerun = compaction(target).commit();

    assertThat(zordered.exitCode()).isZero();
    assertThat(zordered.slices().get(0).status()).isEqualTo(SliceCompaction.Status.COMPACTED);
    fact.refresh();
    assertThat(TableContent.hash(fact)).isEqualTo(before);
    List<byte[][]> ranges = new ArrayList<>();
    for (DataFile file : filesWithBounds()) {
      List<byte[]> values =
          read(file).stream()
              .map(r -> RowLayout.zValue(StoredRows.schema(fact), ZORDER, r))
              .toList();
      assertThat(values).as(file.location()).isSortedAccordingTo(Arrays::compareUnsigned);
      ranges.add(new byte[][] {values.get(0), values.get(values.size() - 1)});
    }
    assertThat(ranges).hasSizeGreaterThan(1);
    ranges.sort((a, b) -> Arrays.compareUnsigned(a[0], b[0]));
    for (int i = 1; i < ranges.size(); i++) {
      assertThat(Arrays.compareUnsigned(ranges.get(i)[0], ranges.get(i - 1)[1]))
          .as("file %d starts after file %d ends", i, i - 1)
          .isPositive();
    }
    assertThat(rerun.slices().get(0).status()).isEqualTo(SliceCompaction.Status.NOTHING_TO_COMPACT);
  }

  @Test
  void sortWithoutATableSortOrderAndZorderOnAMissingColumnAreRefusedNamingTheTable() {
    Unsorted.append(fact, DAY3, 2, 10, 3);
    setStrategy("sort", null);
    assertThatThrownBy(() -> compaction(1 << 20).check())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot compact sales.fact_orders with strategy sort")
        .hasMessageContaining("no sort order");
    fact.updateProperties().set(MaintenancePolicy.ZORDER_COLUMNS, "nope").commit();
    setStrategy("zorder", "nope");
    assertThatThrownBy(() -> compaction(1 << 20).check())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("column nope does not exist");
  }

  private Compaction compaction(long target) {
    return Compaction.of(catalog.config(), SmallFiles.FACT)
        .slices(List.of(DAY3))
        .targetFileSizeBytes(target);
  }

  private void setStrategy(String strategy, String zorderColumns) {
    var update = fact.updateProperties().set(MaintenancePolicy.STRATEGY, strategy);
    if (zorderColumns == null) {
      update.remove(MaintenancePolicy.ZORDER_COLUMNS);
    } else {
      update.set(MaintenancePolicy.ZORDER_COLUMNS, zorderColumns);
    }
    update.commit();
    fact.refresh();
  }

  private long smallestFile() {
    return Deletes.dataFiles(fact).stream()
        .mapToLong(DataFile::fileSizeInBytes)
        .min()
        .orElseThrow();
  }

  private long largestFile() {
    return Deletes.dataFiles(fact).stream()
        .mapToLong(DataFile::fileSizeInBytes)
        .max()
        .orElseThrow();
  }

  /** The live data files with their column bounds, by lower bound of order_id. */
  private List<DataFile> filesWithBounds() {
    fact.refresh();
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = fact.newScan().includeColumnStats().planFiles()) {
      tasks.forEach(t -> files.add(t.file().copy()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    files.sort(Comparator.comparingLong(f -> bound(f.lowerBounds().get(1))));
    return files;
  }

  private List<Record> read(DataFile file) {
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> records =
        StoredRows.read(fact, fact.spec(), file, List.of(), new AtomicLong())) {
      records.forEach(rows::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private static long bound(ByteBuffer bytes) {
    return Conversions.<Long>fromByteBuffer(Types.LongType.get(), bytes);
  }
}
