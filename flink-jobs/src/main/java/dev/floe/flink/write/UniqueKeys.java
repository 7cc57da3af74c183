package dev.floe.flink.write;

import dev.floe.catalog.job.CheckSpec;
import dev.floe.catalog.lineage.CanonicalRowEncoder;
import dev.floe.flink.check.KeyHashBatch;
import dev.floe.flink.row.RowDataHasher;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Collects the 64-bit hash of each row's key ({@link KeyHashBatch}), for every unique check, into
 * one {@link KeyHashBatch} per check and finder bucket, and sends a batch when it is full: the
 * exchange to the finders carries a record per batch, not per row. Only hashes travel: a duplicate
 * is found by the finders; the few keys a failure message shows are looked up afterwards, in the
 * written files ({@code DuplicateKeySamples}).
 */
final class UniqueKeys {

  private record KeyCheck(int[] positions, KeyHashBatch[] batches) {}

  private final List<KeyCheck> keyChecks = new ArrayList<>();
  private final int buckets;
  private final CanonicalRowEncoder keyEncoder = new CanonicalRowEncoder();

  /**
   * The key hashes of {@code checks}' unique checks, in batches sized so that the writer's batches
   * (one per check and bucket) stay within {@link KeyHashBatch#WRITER_BUDGET_BYTES}.
   */
  static UniqueKeys of(List<CheckSpec> checks, RowType rowType, int buckets) {
    return ofSlice(checks, rowType, buckets, 0, 1);
  }

  /**
   * The key hashes of one slice of a writer that writes {@code slices} slices: its batches carry
   * the check index {@code slice * checks.size() + check}, so that a finder keeps every slice's
   * keys apart, and all slices' batches together stay within {@link
   * KeyHashBatch#WRITER_BUDGET_BYTES}.
   */
  static UniqueKeys ofSlice(
      List<CheckSpec> checks, RowType rowType, int buckets, int slice, int slices) {
    long uniqueChecks = checks.stream().filter(CheckSpec.Unique.class::isInstance).count();
    int batches = (int) Math.min(Integer.MAX_VALUE, (long) buckets * uniqueChecks * slices);
    return new UniqueKeys(
        checks, rowType, buckets, KeyHashBatch.capacityFor(batches), slice * checks.size());
  }

  /**
   * @param buckets the number of finder buckets, the same in every writer
   * @param batchSize hashes per batch
   */
  UniqueKeys(List<CheckSpec> checks, RowType rowType, int buckets, int batchSize) {
    this(checks, rowType, buckets, batchSize, 0);
  }

  /**
   * @param buckets the number of finder buckets, the same in every writer
   * @param batchSize hashes per batch
   * @param indexOffset added to each check's index in the batches it sends
   */
  private UniqueKeys(
      List<CheckSpec> checks, RowType rowType, int buckets, int batchSize, int indexOffset) {
    this.buckets = buckets;
    for (int i = 0; i < checks.size(); i++) {
      if (checks.get(i) instanceof CheckSpec.Unique unique) {
        int[] positions = unique.columns().stream().mapToInt(rowType::getFieldIndex).toArray();
        KeyHashBatch[] batches = new KeyHashBatch[buckets];
        for (int b = 0; b < buckets; b++) {
          batches[b] = new KeyHashBatch(indexOffset + i, b, batchSize);
        }
        keyChecks.add(new KeyCheck(positions, batches));
      }
    }
  }

  /**
   * Adds the row's key hashes, taken from the bytes {@code rowHasher} encoded for the row's content
   * hash (so call it after {@code rowHasher} hashed this row); sends each batch that becomes full
   * to {@code out}.
   *
   * @param rowHasher the content hasher of all columns of the row type, in its order
   */
  void add(RowData row, RowDataHasher rowHasher, Consumer<byte[]> out) {
    for (KeyCheck check : keyChecks) {
      if (hasNull(row, check.positions())) {
        continue; // like SQL UNIQUE and dbt's unique test: NULL keys are not duplicates
      }
      // The key's canonical bytes are the key columns' bytes of the row's: the same hash as
      // encoding the key alone, which DuplicateKeySamples recomputes from the written files.
      long hash = rowHasher.hash64Of(check.positions(), keyEncoder);
      KeyHashBatch batch = check.batches()[KeyHashBatch.bucketOf(hash, buckets)];
      if (batch.add(hash)) {
        out.accept(batch.take());
      }
    }
  }

  /** Sends every batch that holds a hash (at end of input). */
  void flush(Consumer<byte[]> out) {
    for (KeyCheck check : keyChecks) {
      for (KeyHashBatch batch : check.batches()) {
        if (!batch.isEmpty()) {
          out.accept(batch.take());
        }
      }
    }
  }

  private static boolean hasNull(RowData row, int[] positions) {
    for (int pos : positions) {
      if (row.isNullAt(pos)) {
        return true;
      }
    }
    return false;
  }
}
