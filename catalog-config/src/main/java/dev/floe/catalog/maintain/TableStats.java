package dev.floe.catalog.maintain;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.io.FileIO;

/**
 * The numbers `floe maintain` prints before and after each action. Read from metadata and
 * manifests; no data file is opened.
 *
 * @param snapshots snapshots in the table metadata (all branches, tags and retained history)
 * @param dataFiles data files of the current snapshot (what readers see)
 * @param dataBytes their total size
 * @param deleteFiles delete files of the current snapshot
 * @param manifests manifests (data and delete) of the current snapshot
 * @param metadataFiles the files counted in {@code metadataBytes}: the current metadata.json, plus
 *     every manifest list, manifest and statistics file of every snapshot in the metadata, each
 *     counted once. Older metadata.json files of the metadata log are not counted.
 * @param metadataBytes their total size
 */
public record TableStats(
    int snapshots,
    long dataFiles,
    long dataBytes,
    long deleteFiles,
    int manifests,
    long metadataFiles,
    long metadataBytes) {

  /** What {@code metadataFiles} and {@code metadataBytes} count, for output. */
  public static final String METADATA_COUNTED =
      "current metadata.json + manifest lists, manifests and statistics files of all snapshots";

  /** The table as it is now. */
  public static TableStats of(Table table) {
    return of(table, table.snapshots());
  }

  /**
   * The table as it would be with only {@code kept} snapshots (a prediction for snapshot expiry);
   * the current metadata.json is counted at its present size.
   */
  public static TableStats of(Table table, Iterable<Snapshot> kept) {
    FileIO io = table.io();
    TableMetadata metadata = ((HasTableOperations) table).operations().current();
    long metadataFiles = 0;
    long metadataBytes = 0;
    if (metadata.metadataFileLocation() != null) {
      metadataFiles++;
      metadataBytes += io.newInputFile(metadata.metadataFileLocation()).getLength();
    }
    int snapshots = 0;
    Set<Long> ids = new HashSet<>();
    Map<String, ManifestFile> manifests = new HashMap<>();
    for (Snapshot snapshot : kept) {
      snapshots++;
      ids.add(snapshot.snapshotId());
      if (snapshot.manifestListLocation() != null) {
        metadataFiles++;
        metadataBytes += io.newInputFile(snapshot.manifestListLocation()).getLength();
      }
      for (ManifestFile manifest : snapshot.allManifests(io)) {
        manifests.putIfAbsent(manifest.path(), manifest);
      }
    }
    for (ManifestFile manifest : manifests.values()) {
      metadataFiles++;
      metadataBytes += manifest.length();
    }
    for (StatisticsFile statistics : table.statisticsFiles()) {
      if (ids.contains(statistics.snapshotId())) {
        metadataFiles++;
        metadataBytes += statistics.fileSizeInBytes();
      }
    }
    for (PartitionStatisticsFile statistics : table.partitionStatisticsFiles()) {
      if (ids.contains(statistics.snapshotId())) {
        metadataFiles++;
        metadataBytes += statistics.fileSizeInBytes();
      }
    }

    long dataFiles = 0;
    long dataBytes = 0;
    long deleteFiles = 0;
    int currentManifests = 0;
    Snapshot current = table.currentSnapshot();
    if (current != null) {
      for (ManifestFile manifest : current.allManifests(io)) {
        currentManifests++;
        if (manifest.content() == ManifestContent.DATA) {
          long[] countAndBytes = countAndBytes(ManifestFiles.read(manifest, io, table.specs()));
          dataFiles += countAndBytes[0];
          dataBytes += countAndBytes[1];
        } else {
          deleteFiles +=
              countAndBytes(ManifestFiles.readDeleteManifest(manifest, io, table.specs()))[0];
        }
      }
    }
    return new TableStats(
        snapshots,
        dataFiles,
        dataBytes,
        deleteFiles,
        currentManifests,
        metadataFiles,
        metadataBytes);
  }

  /** Average size of the current snapshot's data files, 0 for none. */
  public long averageDataFileBytes() {
    return dataFiles == 0 ? 0 : dataBytes / dataFiles;
  }

  private static <F extends ContentFile<F>> long[] countAndBytes(ManifestReader<F> reader) {
    long count = 0;
    long bytes = 0;
    try (ManifestReader<F> files = reader) {
      for (F file : files) {
        count++;
        bytes += file.fileSizeInBytes();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read a manifest", e);
    }
    return new long[] {count, bytes};
  }
}
