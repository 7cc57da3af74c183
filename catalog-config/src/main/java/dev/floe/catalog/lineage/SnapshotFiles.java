package dev.floe.catalog.lineage;

import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotChanges;
import org.apache.iceberg.Table;

/**
 * The files one snapshot added and removed. Iceberg's {@link SnapshotChanges} reads the manifests
 * with the table's partition specs; {@code Snapshot#addedDataFiles(FileIO)} reads them from each
 * manifest's own metadata, which Iceberg deprecated and warns about on every call.
 */
public final class SnapshotFiles {
  private SnapshotFiles() {}

  /** The snapshot's file changes; the manifests are read on first use and cached. */
  public static SnapshotChanges changes(Table table, Snapshot snapshot) {
    return SnapshotChanges.builderFor(table).snapshot(snapshot).build();
  }
}
