package dev.floe.catalog.snapshot;

import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.slice.Slice;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Projections;
import org.apache.iceberg.io.FileIO;

/**
 * What a slice holds right now, as a content hash. Walks back from the current snapshot (never from
 * a remembered one: a rollback moves the head) to the newest snapshot that touched the slice. When
 * that is a Floe commit for exactly this slice, its recorded hash is the answer without reading
 * data; otherwise the slice is read and hashed. Either way the answer is the same: lineage only
 * makes it cheaper.
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
    Snapshot snapshot = table.currentSnapshot();
    Map<Integer, Evaluator> evaluators = new HashMap<>();
    while (snapshot != null) {
      Optional<Lineage> lineage = Lineage.fromSummary(snapshot.summary());
      if (lineage.isPresent() && lineage.get().slice() != null) {
        String label = lineage.get().slice();
        if (label.equals(slice.label()) && lineage.get().contentHash() != null) {
          return new Current(
              ContentHash.decode(lineage.get().contentHash()), snapshot.snapshotId(), "lineage");
        }
        if (Slice.labelsOverlap(label, slice.label())) {
          return scan(table, slice);
        }
        // A slice of another column (on a table partitioned by order_date and ship_date, say)
        // can rewrite this slice's partitions: its label cannot tell, its files can.
        if (!label.startsWith(slice.column() + "=[")
            && touches(table, snapshot, slice, evaluators)) {
          return scan(table, slice);
        }
      } else if (touches(table, snapshot, slice, evaluators)) {
        return scan(table, slice);
      }
      if (snapshot.parentId() == null) {
        break;
      }
      Snapshot parent = table.snapshot(snapshot.parentId());
      if (parent == null) {
        // The older history was expired, but what it wrote may still be live: read the slice.
        return scan(table, slice);
      }
      snapshot = parent;
    }
    return new Current(ContentHash.empty(), null, "empty");
  }

  private static Current scan(Table table, Slice slice) {
    return new Current(TableContent.hash(table, slice.toExpression()), null, "scan");
  }

  /** True when the snapshot added or removed a data or delete file in the slice's partitions. */
  private static boolean touches(
      Table table, Snapshot snapshot, Slice slice, Map<Integer, Evaluator> evaluators) {
    FileIO io = table.io();
    try {
      for (Iterable<? extends ContentFile<?>> files :
          java.util.List.<Iterable<? extends ContentFile<?>>>of(
              snapshot.addedDataFiles(io),
              snapshot.removedDataFiles(io),
              snapshot.addedDeleteFiles(io),
              snapshot.removedDeleteFiles(io))) {
        for (ContentFile<?> file : files) {
          Evaluator evaluator =
              evaluators.computeIfAbsent(
                  file.specId(), id -> evaluator(table.specs().get(id), slice));
          if (evaluator.eval(file.partition())) {
            return true;
          }
        }
      }
    } catch (UncheckedIOException | org.apache.iceberg.exceptions.NotFoundException e) {
      // An expired manifest cannot tell us; assume the slice was touched and read it instead.
      return true;
    }
    return false;
  }

  private static Evaluator evaluator(PartitionSpec spec, Slice slice) {
    return new Evaluator(
        spec.partitionType(), Projections.inclusive(spec).project(slice.toExpression()));
  }
}
