package dev.floe.catalog.snapshot;

import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.RecordHasher;
import dev.floe.catalog.lineage.SliceFootprint;
import dev.floe.catalog.lineage.TableRows;
import dev.floe.catalog.slice.Scope;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/**
 * What a scope held at a past snapshot, as a content hash: {@link SliceContent}'s rule applied from
 * that snapshot instead of the head. Lineage answers when the newest snapshot touching the scope
 * was a Floe commit replacing exactly this scope; otherwise the scope is read as of that snapshot.
 */
final class ContentAt {

  private ContentAt() {}

  /** The content of {@code scope} at {@code snapshot}; null means before the first snapshot. */
  static ContentHash of(Table table, Snapshot snapshot, Scope scope) {
    SliceFootprint footprint = new SliceFootprint(table, scope);
    String label = scope.label();
    Snapshot walked = snapshot;
    while (walked != null) {
      Optional<Lineage> lineage = Lineage.of(walked);
      if (lineage.isPresent()
          && label.equals(lineage.get().slice())
          && WriteMode.replacesScope(lineage.get().mode())
          && lineage.get().contentHash() != null) {
        return ContentHash.decode(lineage.get().contentHash());
      }
      if (footprint.touchedBy(walked, lineage)) {
        return scan(table, snapshot, scope);
      }
      if (walked.parentId() == null) {
        return ContentHash.empty();
      }
      walked = table.snapshot(walked.parentId());
    }
    // Before the first snapshot, or the older history was expired: read what the snapshot holds.
    return snapshot == null ? ContentHash.empty() : scan(table, snapshot, scope);
  }

  private static ContentHash scan(Table table, Snapshot snapshot, Scope scope) {
    // Hash with the schema the rows are read with: the snapshot's own.
    Schema schema =
        snapshot.schemaId() == null ? table.schema() : table.schemas().get(snapshot.schemaId());
    RecordHasher hasher = new RecordHasher(schema == null ? table.schema() : schema, table.name());
    ContentHash hash = ContentHash.empty();
    try (CloseableIterable<Record> records =
        TableRows.read(table, snapshot.snapshotId(), scope.toExpression())) {
      for (Record record : records) {
        hasher.add(record, hash);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + table.name() + " to hash it", e);
    }
    return hash;
  }
}
