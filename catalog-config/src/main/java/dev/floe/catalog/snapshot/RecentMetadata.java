package dev.floe.catalog.snapshot;

import java.util.List;
import java.util.Optional;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * The table's earlier metadata versions, newest first, as its metadata log lists them: what a ref
 * was before a recent commit removed it. A version whose file is gone ends the search.
 */
final class RecentMetadata {
  private RecentMetadata() {}

  /**
   * @param table the table
   * @param ref a ref's name
   * @param versions how many earlier versions to read at most
   * @return the ref as the newest of those versions that had it had it, or empty
   */
  static Optional<SnapshotRef> lastRef(Table table, String ref, int versions) {
    if (!(table instanceof HasTableOperations ops)) {
      return Optional.empty();
    }
    List<TableMetadata.MetadataLogEntry> log = ops.operations().current().previousFiles();
    for (int i = log.size() - 1; i >= Math.max(0, log.size() - versions); i--) {
      TableMetadata earlier;
      try {
        earlier = TableMetadataParser.read(table.io(), log.get(i).file());
      } catch (NotFoundException e) {
        return Optional.empty();
      }
      SnapshotRef found = earlier.ref(ref);
      if (found != null) {
        return Optional.of(found);
      }
    }
    return Optional.empty();
  }
}
