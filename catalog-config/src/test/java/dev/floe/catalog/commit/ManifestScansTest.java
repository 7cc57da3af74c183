package dev.floe.catalog.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.config.LocalReadsFileIO;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit of a small table on the local file system reads its manifests on the committing thread;
 * other tables leave them to Iceberg's worker pool.
 */
class ManifestScansTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "p", Types.IntegerType.get()));
  private static final PartitionSpec BY_P = PartitionSpec.builderFor(SCHEMA).identity("p").build();

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

  @TempDir Path home;
  private Catalog catalog;

  @AfterEach
  void close() {
    if (catalog != null) {
      Catalogs.close(catalog);
    }
  }

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
    CatalogConfig base = CatalogConfigLoader.embedded(home);
    Map<String, String> properties = new HashMap<>(base.properties());
    properties.put(CatalogProperties.FILE_IO_IMPL, RecordingFileIO.class.getName());
    catalog = Catalogs.open(new CatalogConfig(base.name(), base.type(), properties));
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("t"));
    Table table = catalog.createTable(TableIdentifier.of("t", "events"), SCHEMA, BY_P);
    for (int p = 0; p < 3; p++) {
      table.newAppend().appendFile(file(table, p, "a")).commit();
    }
    MANIFEST_READERS.clear();
    return table;
  }

  private static org.apache.iceberg.OverwriteFiles overwriteOfFirstFile(Table table) {
    return table.newOverwrite().deleteFile(file(table, 0, "a")).addFile(file(table, 0, "b"));
  }

  private static DataFile file(Table table, int p, String name) {
    return DataFiles.builder(table.spec())
        .withPath(table.location() + "/data/p=" + p + "/" + name + ".parquet")
        .withFileSizeInBytes(100)
        .withRecordCount(1)
        .withPartitionPath("p=" + p)
        .build();
  }
}
