package dev.floe.catalog.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The before/after numbers match counts and sizes taken from the files on disk. */
class TableStatsTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void statsMatchTheFilesOnDisk() {
    Table table = catalog.create("s.t", SCHEMA, PartitionSpec.unpartitioned());
    assertThat(TableStats.of(table).snapshots()).isZero();
    assertThat(TableStats.of(table).metadataFiles()).isEqualTo(1);
    for (int i = 0; i < 4; i++) {
      TableRows.append(
          table,
          TableRows.row(table, Map.of("id", (long) i, "name", "x".repeat(100 * (i + 1)))),
          TableRows.row(table, Map.of("id", (long) i + 100)));
    }
    table.newDelete().deleteFile(firstDataFile(table)).commit();
    table.refresh();

    TableStats stats = TableStats.of(table);

    Set<Path> data = TableFiles.dataFiles(table, table.currentSnapshot().snapshotId());
    long dataBytes = data.stream().mapToLong(TableStatsTest::size).sum();
    Set<Path> metadata = new HashSet<>();
    metadata.add(
        TableFiles.path(
            ((HasTableOperations) table).operations().current().metadataFileLocation()));
    int snapshots = 0;
    for (Snapshot snapshot : table.snapshots()) {
      snapshots++;
      metadata.add(TableFiles.path(snapshot.manifestListLocation()));
      for (ManifestFile manifest : snapshot.allManifests(table.io())) {
        metadata.add(TableFiles.path(manifest.path()));
      }
    }
    assertThat(stats.snapshots()).isEqualTo(snapshots).isEqualTo(5);
    assertThat(stats.dataFiles()).isEqualTo(data.size()).isEqualTo(3);
    assertThat(stats.dataBytes()).isEqualTo(dataBytes);
    assertThat(stats.averageDataFileBytes()).isEqualTo(dataBytes / 3);
    assertThat(stats.manifests())
        .isEqualTo(table.currentSnapshot().allManifests(table.io()).size());
    assertThat(stats.metadataFiles()).isEqualTo(metadata.size());
    assertThat(stats.metadataBytes())
        .isEqualTo(metadata.stream().mapToLong(TableStatsTest::size).sum());
  }

  private static org.apache.iceberg.DataFile firstDataFile(Table table) {
    return table.currentSnapshot().addedDataFiles(table.io()).iterator().next();
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
