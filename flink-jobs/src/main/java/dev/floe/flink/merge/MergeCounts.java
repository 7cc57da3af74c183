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
    String files =
        filesInScope == 0
            ? "the target held no rows in scope"
            : String.format(
                "read %d and rewrote %d of %s in scope",
                filesRead, filesRewritten, plural(filesInScope, "file"));
    return String.format(
        "%s, %s: %d inserted, %d updated, %d unchanged (target as new or newer), %d deleted; %s",
        plural(received, "source row"),
        plural(keys, "key"),
        inserted,
        updated,
        unchanged,
        deleted,
        files);
  }

  private static String plural(long count, String noun) {
    return count + " " + noun + (count == 1 ? "" : "s");
  }
}
