package dev.floe.catalog.maintain;

import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.RecordHasher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/**
 * What the tests compare maintenance against, computed the way a reader sees the table (scans and
 * the table metadata) rather than through {@link ReferencedFiles}: files as local paths, and
 * content hashes at a snapshot.
 */
final class TableFiles {

  private TableFiles() {}

  /** Every file a reader of any snapshot in the metadata, or the metadata itself, needs. */
  static Set<Path> referenced(Table table) {
    Set<Path> files = new HashSet<>();
    TableMetadata metadata = ((HasTableOperations) table).operations().current();
    files.add(path(metadata.metadataFileLocation()));
    metadata.previousFiles().forEach(entry -> files.add(path(entry.file())));
    for (Snapshot snapshot : table.snapshots()) {
      files.addAll(ofSnapshot(table, snapshot.snapshotId()));
    }
    table.statisticsFiles().forEach(s -> files.add(path(s.path())));
    table.partitionStatisticsFiles().forEach(s -> files.add(path(s.path())));
    return files;
  }

  /** The manifest list, manifests, data and delete files one snapshot needs, read by a scan. */
  static Set<Path> ofSnapshot(Table table, long snapshotId) {
    Set<Path> files = new HashSet<>();
    Snapshot snapshot = table.snapshot(snapshotId);
    files.add(path(snapshot.manifestListLocation()));
    for (ManifestFile manifest : snapshot.allManifests(table.io())) {
      files.add(path(manifest.path()));
    }
    files.addAll(dataFiles(table, snapshotId));
    return files;
  }

  /** Data and delete files a scan of the snapshot reads. */
  static Set<Path> dataFiles(Table table, long snapshotId) {
    Set<Path> files = new HashSet<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(snapshotId).planFiles()) {
      for (FileScanTask task : tasks) {
        files.add(path(task.file().location()));
        for (DeleteFile delete : task.deletes()) {
          files.add(path(delete.location()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  /** Every regular file under the table's location. */
  static Set<Path> onDisk(Table table) {
    try (var walk = Files.walk(path(table.location()))) {
      Set<Path> files = new HashSet<>();
      walk.filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().endsWith(".crc"))
          .forEach(files::add);
      return files;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The content hash of the table as of a snapshot (time travel). */
  static ContentHash hashAt(Table table, long snapshotId) {
    ContentHash hash = ContentHash.empty();
    RecordHasher hasher = new RecordHasher(table.schema());
    try (CloseableIterable<Record> records =
        IcebergGenerics.read(table).useSnapshot(snapshotId).build()) {
      for (Record record : records) {
        hasher.add(record, hash);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return hash;
  }

  /** A local file location ({@code file:/…}, {@code file:///…} or a plain path) as a Path. */
  static Path path(String location) {
    return location.startsWith("file:")
        ? Path.of(URI.create(location)).normalize()
        : Path.of(location).normalize();
  }
}
