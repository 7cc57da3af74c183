package dev.floe.catalog.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.config.LocalReadsFileIO;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The overwrite and the row delta of Floe's commits write the manifest of their new files on the
 * committing thread, up to a number of files, and commit the same content Iceberg's own would.
 */
class CommitUpdatesTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "p", Types.IntegerType.get()));
  private static final PartitionSpec BY_P = PartitionSpec.builderFor(SCHEMA).identity("p").build();

  /** The threads that created a manifest (not a manifest list) for writing. */
  static final List<String> MANIFEST_WRITERS = new CopyOnWriteArrayList<>();

  /** Floe's local file IO, noting which thread writes each manifest. */
  public static class RecordingFileIO extends LocalReadsFileIO {
    @Override
    public OutputFile newOutputFile(String location) {
      String name = location.substring(location.lastIndexOf('/') + 1);
      if (location.contains("/metadata/") && name.endsWith(".avro") && !name.startsWith("snap-")) {
        MANIFEST_WRITERS.add(Thread.currentThread().getName());
      }
      return super.newOutputFile(location);
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
  void anOverwriteWritesItsNewFilesManifestOnTheCommittingThread() {
    Table table = tableWithOneFilePerPartition();

    CommitUpdates.newOverwrite(table)
        .deleteFile(file(table, 0, "a"))
        .addFile(file(table, 0, "b"))
        .addFile(file(table, 0, "c"))
        .commit();

    assertThat(MANIFEST_WRITERS).isNotEmpty().containsOnly(Thread.currentThread().getName());
    assertThat(livePaths(table))
        .containsExactlyInAnyOrder(path(table, 0, "b"), path(table, 0, "c"), path(table, 1, "a"));
    Map<String, String> summary = table.currentSnapshot().summary();
    assertThat(summary)
        .containsEntry(SnapshotSummary.ADDED_FILES_PROP, "2")
        .containsEntry(SnapshotSummary.DELETED_FILES_PROP, "1")
        .containsEntry(SnapshotSummary.ADDED_RECORDS_PROP, "2")
        .containsEntry(SnapshotSummary.CHANGED_PARTITION_COUNT_PROP, "1");
  }

  @Test
  void anOverwriteOfMoreFilesThanTheLimitLeavesTheManifestToIcebergsWorkers() {
    Table table = tableWithOneFilePerPartition();

    CommitUpdates.newOverwrite(table, 1)
        .addFile(file(table, 0, "b"))
        .addFile(file(table, 0, "c"))
        .commit();

    assertThat(MANIFEST_WRITERS).isNotEmpty().doesNotContain(Thread.currentThread().getName());
    assertThat(livePaths(table)).hasSize(4);
  }

  @Test
  void aRowDeltaWritesItsDataAndDeleteManifestsOnTheCommittingThread() {
    Table table = tableWithOneFilePerPartition();
    DeleteFile deletes =
        FileMetadata.deleteFileBuilder(table.spec())
            .ofPositionDeletes()
            .withPath(table.location() + "/data/p=1/deletes.parquet")
            .withFileSizeInBytes(100)
            .withRecordCount(1)
            .withPartitionPath("p=1")
            .build();

    CommitUpdates.newRowDelta(table).addRows(file(table, 1, "b")).addDeletes(deletes).commit();

    assertThat(MANIFEST_WRITERS).hasSize(2).containsOnly(Thread.currentThread().getName());
    Snapshot snapshot = table.currentSnapshot();
    assertThat(snapshot.summary())
        .containsEntry(SnapshotSummary.ADDED_FILES_PROP, "1")
        .containsEntry(SnapshotSummary.ADDED_DELETE_FILES_PROP, "1");
    assertThat(snapshot.addedDeleteFiles(table.io()))
        .extracting(DeleteFile::location)
        .containsExactly(deletes.location());
    assertThat(snapshot.addedDataFiles(table.io()))
        .extracting(DataFile::location)
        .containsExactly(path(table, 1, "b"));
  }

  @Test
  void aRowDeltaOfMoreFilesThanTheLimitLeavesTheManifestToIcebergsWorkers() {
    Table table = tableWithOneFilePerPartition();

    CommitUpdates.newRowDelta(table, 1)
        .addRows(file(table, 1, "b"))
        .addRows(file(table, 1, "c"))
        .commit();

    assertThat(MANIFEST_WRITERS).isNotEmpty().doesNotContain(Thread.currentThread().getName());
    assertThat(livePaths(table)).hasSize(4);
  }

  @Test
  void aTransactionsTableGetsIcebergsOwnOverwrite() {
    Table table = tableWithOneFilePerPartition();
    Transaction transaction = table.newTransaction();

    CommitUpdates.newOverwrite(transaction.table()).addFile(file(table, 0, "b")).commit();
    assertThat(livePaths(table)).hasSize(2);
    transaction.commitTransaction();

    table.refresh();
    assertThat(livePaths(table)).hasSize(3);
  }

  private Table tableWithOneFilePerPartition() {
    CatalogConfig base = CatalogConfigLoader.embedded(home);
    Map<String, String> properties = new HashMap<>(base.properties());
    properties.put(CatalogProperties.FILE_IO_IMPL, RecordingFileIO.class.getName());
    catalog = Catalogs.open(new CatalogConfig(base.name(), base.type(), properties));
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("t"));
    Table table =
        catalog.createTable(
            TableIdentifier.of("t", "events"),
            SCHEMA,
            BY_P,
            Map.of(TableProperties.FORMAT_VERSION, "2"));
    for (int p = 0; p < 2; p++) {
      table.newAppend().appendFile(file(table, p, "a")).commit();
    }
    MANIFEST_WRITERS.clear();
    return table;
  }

  private static Set<String> livePaths(Table table) {
    Set<String> paths = new HashSet<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> paths.add(task.file().location()));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return paths;
  }

  private static String path(Table table, int p, String name) {
    return table.location() + "/data/p=" + p + "/" + name + ".parquet";
  }

  private static DataFile file(Table table, int p, String name) {
    return DataFiles.builder(table.spec())
        .withPath(path(table, p, name))
        .withFileSizeInBytes(100)
        .withRecordCount(1)
        .withPartitionPath("p=" + p)
        .build();
  }
}
