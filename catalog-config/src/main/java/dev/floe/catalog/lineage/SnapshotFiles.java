package dev.floe.catalog.lineage;

import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.iceberg.ContentFile;
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

  /**
   * Every data and delete file the snapshot added or removed, its manifests read as the stream is
   * consumed (an expired one throws then: {@code UncheckedIOException} or {@code
   * NotFoundException}).
   */
  public static Stream<ContentFile<?>> changedFiles(Table table, Snapshot snapshot) {
    SnapshotChanges changes = changes(table, snapshot);
    return Stream.<Supplier<Iterable<? extends ContentFile<?>>>>of(
            changes::addedDataFiles,
            changes::removedDataFiles,
            changes::addedDeleteFiles,
            changes::removedDeleteFiles)
        .flatMap(files -> StreamSupport.stream(files.get().spliterator(), false));
  }
}
