package dev.floe.flink.merge;

/**
 * What a keyed run found and changed, for the operator's report.
 *
 * @param received source rows the query returned
 * @param keys distinct keys after reducing the source to one row per key
 * @param inserted keys the target did not hold
 * @param updated target rows replaced by a source row with a strictly newer ordering value
 * @param unchanged keys the target already held with the same or a newer ordering value
 * @param deleted target rows removed by delete_missing
 * @param filesInScope live data files in the run's scope
 * @param filesRead files whose key bounds could hold a key of the batch, and were read
 * @param filesRewritten files rewritten because they hold an updated or deleted row
 */
record MergeCounts(
    long received,
    long keys,
    long inserted,
    long updated,
    long unchanged,
    long deleted,
    int filesInScope,
    int filesRead,
    int filesRewritten) {

  boolean changesNothing() {
    return inserted == 0 && updated == 0 && deleted == 0;
  }

  String describe() {
    return String.format(
        "%d source rows, %d keys: %d inserted, %d updated, %d unchanged (target as new or newer),"
            + " %d deleted; read %d and rewrote %d of %d files in scope",
        received,
        keys,
        inserted,
        updated,
        unchanged,
        deleted,
        filesRead,
        filesRewritten,
        filesInScope);
  }
}
