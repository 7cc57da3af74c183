package dev.floe.catalog.maintain.plan;

import java.util.Optional;

/**
 * The data files of one time slice of a table's current snapshot (all partitions of the slice
 * together, since compaction commits a slice at a time), or of the whole table when it has no time
 * partition. Read from manifests only.
 *
 * @param slice the slice as {@code floe maintain --compact --slice} takes it, e.g. {@code
 *     order_date=2026-10-03}; empty when the files lie in no time slice
 * @param dataFiles data files
 * @param dataBytes their bytes
 * @param rows their rows (from file metadata)
 * @param smallFiles data files of the current partition spec below 3/4 of the policy's target size
 * @param smallBytes their bytes
 * @param smallFilesByPartition the most small files any one partition of the slice holds
 *     (compaction groups files per partition)
 * @param deleteFiles distinct delete files (a deletion vector each) applying to the slice's data
 *     files, of any partition spec (those of older specs' files stay after a compaction)
 * @param deletedRows rows those delete files remove (their record counts)
 * @param removedDeleteFiles those of them a compaction of the slice removes: the ones of the
 *     current partition spec, in a partition wholly inside the slice, all of whose data files are
 *     in the bins it rewrites (binpack or whole partitions, as the strategy says); the others still
 *     apply to a file it keeps and stay
 * @param filesOverDeleteThreshold data files whose delete files make compaction rewrite them
 *     whatever their size ({@link dev.floe.catalog.maintain.DeletedRows#overThreshold})
 * @param bytesOverDeleteThreshold their bytes
 * @param otherSpecSmallFiles small data files written with an older partition spec: compaction
 *     keeps them, so they are not counted above (neither as small nor against delete thresholds)
 * @param open why the slice is left alone unless {@code --include-open}, or empty
 * @param sortColumn with strategy sort, the sort column whose file bounds were compared ({@link
 *     dev.floe.catalog.maintain.SortKeyOverlap}); else empty
 * @param overlappingPartitions partitions (of at most {@link
 *     dev.floe.catalog.maintain.SortKeyOverlap#MAX_GROUP_BYTES}) whose files overlap on it and that
 *     small files alone would not get compacted
 * @param overlappingFiles data files of those partitions
 * @param overlappingBytes their bytes
 * @param rewrittenFiles the data files a compaction of the slice rewrites, in the bins of {@link
 *     dev.floe.catalog.maintain.CompactionBins}: with strategy binpack ({@link
 *     dev.floe.catalog.maintain.CompactionBins#binpack}) the small files and the files chosen for
 *     their deletes of every partition holding two of them or one chosen for its deletes (once one
 *     partition holds {@code min_input_files}, or any file is chosen); with sort or zorder ({@link
 *     dev.floe.catalog.maintain.CompactionBins#ordered}) whole partitions with more small files
 *     than the groups they are ordered in that those groups write into fewer files (also below
 *     {@code min_input_files}, once the slice is compacted at all), with a file chosen for its
 *     deletes, or re-sorted for overlap. A bin that holds one file not chosen for its deletes is
 *     not counted
 * @param rewrittenBytes their bytes
 * @param rewrittenOutputs the files written for them (at least one per bin)
 * @param positionDeleteFiles position delete files (not deletion vectors) of the current partition
 *     spec in the slice, from the delete manifests (also those naming only removed data files)
 * @param mergeablePositionDeleteFiles those of them in partitions holding two or more: what {@code
 *     floe maintain --rewrite-position-deletes} merges into one file per partition
 * @param mergeablePartitions those partitions
 * @param mergeablePositionDeleteBytes the bytes of the mergeable files (read and written again)
 * @param refused why {@code --slice} refuses the slice, so the plan leaves its work out: files of
 *     an older partition spec without a time partition on its column hold rows of it ({@link
 *     AcceptedSlices#refusal}); else empty
 */
public record SliceHealth(
    Optional<String> slice,
    long dataFiles,
    long dataBytes,
    long rows,
    long smallFiles,
    long smallBytes,
    long smallFilesByPartition,
    long deleteFiles,
    long deletedRows,
    long removedDeleteFiles,
    long filesOverDeleteThreshold,
    long bytesOverDeleteThreshold,
    long otherSpecSmallFiles,
    Optional<String> open,
    Optional<String> sortColumn,
    long overlappingPartitions,
    long overlappingFiles,
    long overlappingBytes,
    long rewrittenFiles,
    long rewrittenBytes,
    long rewrittenOutputs,
    long positionDeleteFiles,
    long mergeablePositionDeleteFiles,
    long mergeablePartitions,
    long mergeablePositionDeleteBytes,
    Optional<String> refused) {

  /** Deleted rows over rows; 0 for a slice without rows. */
  public double deletedRowRatio() {
    return rows == 0 ? 0 : (double) deletedRows / rows;
  }

  /** The slice's name in plans: its value, or {@code (whole table)}. */
  public String label() {
    return slice.orElse("(whole table)");
  }
}
