package dev.floe.catalog.maintain;

import org.apache.iceberg.DataFile;

/**
 * What {@link CompactionBins} reads of one data file: its identity, size and rows, and whether its
 * delete files select it for a rewrite whatever its size ({@link DeletedRows#overThreshold}). Small
 * enough that {@code floe maintain --plan} holds one per candidate file of a whole table.
 *
 * @param location the data file's location (identity, and the tie-break that makes bins
 *     deterministic)
 * @param bytes its size on storage
 * @param rows its record count (before delete files)
 * @param forDeletes whether it is selected for its delete files
 */
public record BinFile(String location, long bytes, long rows, boolean forDeletes) {

  /** {@code file} as the grouping rule sees it. */
  public static BinFile of(DataFile file, boolean forDeletes) {
    return new BinFile(file.location(), file.fileSizeInBytes(), file.recordCount(), forDeletes);
  }
}
