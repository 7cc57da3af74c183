package dev.floe.catalog.commit;

import static dev.floe.catalog.commit.LocalTables.file;
import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.LocalReadsFileIO;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.InputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A commit of a small table on the local file system reads its manifests on the committing thread;
 * other tables leave them to Iceberg's worker pool.
 */
class ManifestScansTest {
  /** The threads that opened a manifest (not a manifest list) for reading. */
  static final List<String> MANIFEST_READERS = new CopyOnWriteArrayList<>();

  /** Floe's local file IO, noting which thread reads each manifest. */
  public static class RecordingFileIO extends LocalReadsFileIO {
    @Override
    public InputFile newInputFile(String location) {
      note(location);
      return super.newInputFile(location);
    }

    @Override
    public InputFile newInputFile(String location, long length) {
      note(location);
      return super.newInputFile(location, length);
    }

    private static void note(String location) {
      String name = location.substring(location.lastIndexOf('/') + 1);
      if (location.contains("/metadata/") && name.endsWith(".avro") && !name.startsWith("snap-")) {
        MANIFEST_READERS.add(Thread.currentThread().getName());
      }
    }
  }

  @RegisterExtension
  final EmbeddedCatalog catalog =
      new EmbeddedCatalog(Map.of(CatalogProperties.FILE_IO_IMPL, RecordingFileIO.class.getName()));

  @Test
  void aSmallLocalTablesCommitReadsItsManifestsOnTheCommittingThread() {
    Table table = tableWithThreeManifests();

    ManifestScans.onCommittingThreadIfLocal(table, overwriteOfFirstFile(table)).commit();

    assertThat(MANIFEST_READERS).isNotEmpty().containsOnly(Thread.currentThread().getName());
  }

  @Test
  void aTableWithMoreManifestBytesThanTheLimitKeepsIcebergsPool() {
    Table table = tableWithThreeManifests();

    ManifestScans.onCommittingThreadIfLocal(table, overwriteOfFirstFile(table), 0).commit();

    assertThat(MANIFEST_READERS).isNotEmpty().doesNotContain(Thread.currentThread().getName());
  }

  @Test
  void aSmallLocalTablesScanPlansOnTheCallingThreadAndALargerOnesOnThePool() throws Exception {
    Table table = tableWithThreeManifests();

    try (var tasks = ManifestScans.planOnCallingThreadIfLocal(table, table.newScan()).planFiles()) {
      assertThat(tasks).hasSize(3);
    }
    assertThat(MANIFEST_READERS).isNotEmpty().containsOnly(Thread.currentThread().getName());

    MANIFEST_READERS.clear();
    try (var tasks =
        ManifestScans.planOnCallingThreadIfLocal(table, table.newScan(), 0).planFiles()) {
      assertThat(tasks).hasSize(3);
    }
    assertThat(MANIFEST_READERS).isNotEmpty().doesNotContain(Thread.currentThread().getName());
  }

  @Test
  void onlyLocationsOnThisMachinesFileSystemAreLocal() {
    assertThat(ManifestScans.isLocal("file:/tmp/warehouse/sales/fact_orders")).isTrue();
    assertThat(ManifestScans.isLocal("file:///tmp/warehouse/sales/fact_orders")).isTrue();
    assertThat(ManifestScans.isLocal("file://fileserver/warehouse/sales/fact_orders")).isFalse();
    assertThat(ManifestScans.isLocal("s3://bucket/warehouse/sales/fact_orders")).isFalse();
    assertThat(ManifestScans.isLocal("hdfs://namenode/warehouse/sales/fact_orders")).isFalse();
    assertThat(ManifestScans.isLocal("/warehouse/sales/fact_orders")).isFalse();
    assertThat(ManifestScans.isLocal(null)).isFalse();
  }

  private Table tableWithThreeManifests() {
    Table table = LocalTables.withOneFilePerPartition(catalog, 3);
    MANIFEST_READERS.clear();
    return table;
  }

  private static org.apache.iceberg.OverwriteFiles overwriteOfFirstFile(Table table) {
    return table.newOverwrite().deleteFile(file(table, 0, "a")).addFile(file(table, 0, "b"));
  }
}
