package dev.floe.catalog.snapshot;

import dev.floe.catalog.lineage.SnapshotFiles;
import dev.floe.catalog.slice.PartitionPaths;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * The data files one snapshot removed and added, read from its own manifests: what a publish
 * re-applies on another head.
 *
 * @param removed data files the snapshot removed
 * @param added data files the snapshot added
 * @param removedDeletes delete files the snapshot removed
 * @param addedDeletes delete files the snapshot added (position, equality, deletion vectors)
 */
record RunFileChanges(
    List<DataFile> removed,
    List<DataFile> added,
    List<DeleteFile> removedDeletes,
    List<DeleteFile> addedDeletes) {

  static RunFileChanges of(Table table, Snapshot snapshot) {
    org.apache.iceberg.SnapshotChanges changes = SnapshotFiles.changes(table, snapshot);
    List<DataFile> removed = copies(changes.removedDataFiles());
    List<DataFile> added = copies(changes.addedDataFiles());
    return new RunFileChanges(
        removed,
        added,
        deleteCopies(changes.removedDeleteFiles()),
        deleteCopies(changes.addedDeleteFiles()));
  }

  /** True when the snapshot also added or removed delete files. */
  boolean hasDeleteFiles() {
    return !removedDeletes.isEmpty() || !addedDeletes.isEmpty();
  }

  private static List<DeleteFile> deleteCopies(Iterable<DeleteFile> files) {
    java.util.ArrayList<DeleteFile> copies = new java.util.ArrayList<>();
    files.forEach(file -> copies.add(file.copy()));
    return List.copyOf(copies);
  }

  /** Rows removed and added per partition path, from file metadata (no data read). */
  Map<String, PublishPlan.RowChange> rowsPerPartition(Table table) {
    Map<String, long[]> counts = new TreeMap<>();
    removed.forEach(
        file ->
            counts.computeIfAbsent(path(table, file), p -> new long[2])[0] += file.recordCount());
    added.forEach(
        file ->
            counts.computeIfAbsent(path(table, file), p -> new long[2])[1] += file.recordCount());
    Map<String, PublishPlan.RowChange> changes = new TreeMap<>();
    counts.forEach((path, c) -> changes.put(path, new PublishPlan.RowChange(c[0], c[1])));
    return changes;
  }

  private static String path(Table table, DataFile file) {
    PartitionSpec spec = table.specs().get(file.specId());
    return spec.isPartitioned() ? PartitionPaths.of(spec, file.partition()) : "(table)";
  }

  private static List<DataFile> copies(Iterable<DataFile> files) {
    // The iterables reuse their objects; the files are kept beyond the iteration.
    java.util.ArrayList<DataFile> copies = new java.util.ArrayList<>();
    files.forEach(file -> copies.add(file.copy()));
    return List.copyOf(copies);
  }
}
