package dev.floe.catalog.commit;

import static dev.floe.catalog.commit.LocalTables.file;
import static dev.floe.catalog.commit.LocalTables.path;
import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.LocalReadsFileIO;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The overwrite and the row delta of Floe's commits write the manifest of their new files on the
 * committing thread, up to a number of files, and commit the same content Iceberg's own would.
 */
class CommitUpdatesTest {
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

  @RegisterExtension
  final EmbeddedCatalog catalog =
      new EmbeddedCatalog(Map.of(CatalogProperties.FILE_IO_IMPL, RecordingFileIO.class.getName()));

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
    Table table = LocalTables.withOneFilePerPartition(catalog, 2);
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
}
