package dev.floe.catalog.snapshot;

import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.SliceFootprint;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.Slice;
import java.util.Optional;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * What a slice (or any {@link Scope}) holds right now, as a content hash. Walks back from the
 * current snapshot (never from a remembered one: a rollback moves the head) to the newest snapshot
 * that touched the slice. When that is a Floe commit for exactly this slice, its recorded hash is
 * the answer without reading data; otherwise the slice is read and hashed. Either way the answer is
 * the same: lineage only makes it cheaper. A compaction commit rewrites files but changes no row
 * (it is refused otherwise), so the walk looks through it to the commit that defined the content.
 */
public final class SliceContent {

  /**
   * @param hash the slice's content hash
   * @param definedBy the snapshot whose lineage gave the hash, or null when the slice was read or
   *     never written
   * @param method how the hash was found: {@code lineage}, {@code scan} or {@code empty}
   */
  public record Current(ContentHash hash, Long definedBy, String method) {}

  private SliceContent() {}

  public static Current current(Table table, Slice slice) {
    return current(table, Scope.of(slice));
  }

  public static Current current(Table table, Scope scope) {
    SliceFootprint footprint = new SliceFootprint(table, scope);
    Snapshot snapshot = table.currentSnapshot();
    while (snapshot != null) {
      Optional<Lineage> lineage = Lineage.fromSummary(snapshot.summary());
      if (lineage.isPresent()
          && scope.label().equals(lineage.get().slice())
          && WriteMode.replacesScope(lineage.get().mode())
          && lineage.get().contentHash() != null) {
        return new Current(
            ContentHash.decode(lineage.get().contentHash()), snapshot.snapshotId(), "lineage");
      }
      boolean contentPreserved =
          lineage.isPresent() && WriteMode.preservesContent(lineage.get().mode());
      if (!contentPreserved && footprint.touchedBy(snapshot)) {
        return scan(table, scope);
      }
      if (snapshot.parentId() == null) {
        break;
      }
      Snapshot parent = table.snapshot(snapshot.parentId());
      if (parent == null) {
        // The older history was expired, but what it wrote may still be live: read the slice.
        return scan(table, scope);
      }
      snapshot = parent;
    }
    return new Current(ContentHash.empty(), null, "empty");
  }

  private static Current scan(Table table, Scope scope) {
    return new Current(TableContent.hash(table, scope.toExpression()), null, "scan");
  }
}
