package dev.floe.catalog.snapshot;

import java.util.List;
import java.util.Optional;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;

/**
 * The table's earlier metadata versions, newest first, as its metadata log lists them: what a ref
 * was before a recent commit removed it, so that a retried removal can tell "already removed" from
 * a name the table never had. A version that cannot be read (deleted, or not readable with these
 * credentials) ends the search: it is evidence only, and without it the caller refuses as before.
 */
final class RecentMetadata {
  private RecentMetadata() {}

  /**
   * @param name the ref's name
   * @param ref the ref as the newest earlier version that had it had it
   * @param snapshot the snapshot it pointed at, as that version had it; null if that version lacks
   *     it
   */
  record Earlier(String name, SnapshotRef ref, Snapshot snapshot) {}

  /**
   * @param found the ref in the newest earlier version that had it, or empty
   * @param versionsRead how many earlier versions were read
   */
  record Search(Optional<Earlier> found, int versionsRead) {}

  /**
   * @param table the table
   * @param refs the names of the refs looked for, in the order they are preferred within a version
   * @param versions how many earlier versions to read at most; each is read once for all names
   */
  static Search lastRef(Table table, List<String> refs, int versions) {
    if (!(table instanceof HasTableOperations ops)) {
      return new Search(Optional.empty(), 0);
    }
    List<TableMetadata.MetadataLogEntry> log = ops.operations().current().previousFiles();
    int read = 0;
    for (int i = log.size() - 1; i >= Math.max(0, log.size() - versions); i--) {
      TableMetadata earlier;
      try {
        earlier = TableMetadataParser.read(table.io(), log.get(i).file());
      } catch (RuntimeException e) {
        break;
      }
      read++;
      for (String ref : refs) {
        SnapshotRef found = earlier.ref(ref);
        if (found != null) {
          return new Search(
              Optional.of(new Earlier(ref, found, earlier.snapshot(found.snapshotId()))), read);
        }
      }
    }
    return new Search(Optional.empty(), read);
  }
}
