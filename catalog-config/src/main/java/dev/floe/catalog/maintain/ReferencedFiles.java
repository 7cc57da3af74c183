package dev.floe.catalog.maintain;

import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.ReachableFileUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.io.FileIO;

/**
 * The files a set of snapshots (and, for the whole table, its metadata) references, by normalised
 * location ({@link FileLocations}). Built by reading every manifest list and manifest once. Orphan
 * removal deletes only what is not in {@link #all}; snapshot expiry deletes what the expired
 * snapshots reference and the kept ones do not.
 */
public final class ReferencedFiles {
  private final Map<String, FileKind> files;

  private ReferencedFiles(Map<String, FileKind> files) {
    this.files = files;
  }

  /**
   * Everything the table needs: every snapshot in its metadata (all branches, tags and retained
   * snapshots) with their manifest lists, manifests, data and delete files and statistics files,
   * plus the current metadata file, the files of its metadata log, and the version hint.
   */
  public static ReferencedFiles all(Table table) {
    return all(table, ManifestCache.create());
  }

  /** {@link #all(Table)}, reading manifests through {@code cache}. */
  public static ReferencedFiles all(Table table, ManifestCache cache) {
    Map<String, FileKind> files = new LinkedHashMap<>();
    TableMetadata metadata = ((HasTableOperations) table).operations().current();
    if (metadata.metadataFileLocation() != null) {
      put(files, metadata.metadataFileLocation(), FileKind.METADATA_JSON);
    }
    for (String location : ReachableFileUtil.metadataFileLocations(table, false)) {
      put(files, location, FileKind.METADATA_JSON);
    }
    put(files, ReachableFileUtil.versionHintLocation(table), FileKind.VERSION_HINT);
    files.putAll(snapshots(table, metadata.snapshots(), cache).files);
    // Statistics files whose snapshot is gone are still listed in the metadata; keep them too.
    for (StatisticsFile statistics : table.statisticsFiles()) {
      put(files, statistics.path(), FileKind.STATISTICS);
    }
    for (PartitionStatisticsFile statistics : table.partitionStatisticsFiles()) {
      put(files, statistics.path(), FileKind.STATISTICS);
    }
    return new ReferencedFiles(files);
  }

  /** The files these snapshots reference (no metadata.json files). */
  public static ReferencedFiles snapshots(Table table, Collection<Snapshot> snapshots) {
    return snapshots(table, snapshots, ManifestCache.create());
  }

  /** {@link #snapshots(Table, Collection)}, reading manifests through {@code cache}. */
  public static ReferencedFiles snapshots(
      Table table, Collection<Snapshot> snapshots, ManifestCache cache) {
    Map<String, FileKind> files = new LinkedHashMap<>();
    FileIO io = table.io();
    Set<Long> ids = new HashSet<>();
    Map<String, ManifestFile> manifests = new HashMap<>();
    for (Snapshot snapshot : snapshots) {
      ids.add(snapshot.snapshotId());
      if (snapshot.manifestListLocation() != null) {
        put(files, snapshot.manifestListLocation(), FileKind.MANIFEST_LIST);
      }
      for (ManifestFile manifest : snapshot.allManifests(io)) {
        manifests.putIfAbsent(manifest.path(), manifest);
      }
    }
    for (ManifestFile manifest : manifests.values()) {
      put(files, manifest.path(), FileKind.MANIFEST);
      FileKind kind = manifest.content() == ManifestContent.DATA ? FileKind.DATA : FileKind.DELETE;
      for (String location : cache.locations(manifest, io, table.specs())) {
        put(files, location, kind);
      }
    }
    for (StatisticsFile statistics : table.statisticsFiles()) {
      if (ids.contains(statistics.snapshotId())) {
        put(files, statistics.path(), FileKind.STATISTICS);
      }
    }
    for (PartitionStatisticsFile statistics : table.partitionStatisticsFiles()) {
      if (ids.contains(statistics.snapshotId())) {
        put(files, statistics.path(), FileKind.STATISTICS);
      }
    }
    return new ReferencedFiles(files);
  }

  /** Whether the file at {@code location} (any spelling) is referenced. */
  public boolean contains(String location) {
    return files.containsKey(FileLocations.normalise(location));
  }

  /** The kind of a referenced file, or null. */
  public FileKind kind(String location) {
    return files.get(FileLocations.normalise(location));
  }

  /** Normalised locations. */
  public Set<String> locations() {
    return java.util.Collections.unmodifiableSet(files.keySet());
  }

  public int size() {
    return files.size();
  }

  /** The files referenced here and not in {@code other}, by normalised location. */
  public Map<String, FileKind> minus(ReferencedFiles other) {
    Map<String, FileKind> result = new LinkedHashMap<>();
    files.forEach(
        (location, kind) -> {
          if (!other.files.containsKey(location)) {
            result.put(location, kind);
          }
        });
    return result;
  }

  /** How many files of each kind. */
  public static Map<FileKind, Long> countByKind(Map<String, FileKind> files) {
    Map<FileKind, Long> counts = new EnumMap<>(FileKind.class);
    files.values().forEach(kind -> counts.merge(kind, 1L, Long::sum));
    return counts;
  }

  private static void put(Map<String, FileKind> files, String location, FileKind kind) {
    files.putIfAbsent(FileLocations.normalise(location), kind);
  }
}
