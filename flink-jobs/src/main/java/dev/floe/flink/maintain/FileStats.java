package dev.floe.flink.maintain;

import java.io.Serializable;
import org.apache.iceberg.DataFile;

/**
 * A set of data files in numbers, from their manifest entries (no data is read).
 *
 * @param files how many data files
 * @param bytes their total size on storage
 * @param rows their total record count
 */
public record FileStats(int files, long bytes, long rows) implements Serializable {

  public static final FileStats NONE = new FileStats(0, 0, 0);

  public static FileStats of(Iterable<? extends DataFile> dataFiles) {
    FileStats stats = NONE;
    for (DataFile file : dataFiles) {
      stats = stats.plus(new FileStats(1, file.fileSizeInBytes(), file.recordCount()));
    }
    return stats;
  }

  public FileStats plus(FileStats other) {
    return new FileStats(files + other.files, bytes + other.bytes, rows + other.rows);
  }

  public FileStats minus(FileStats other) {
    return new FileStats(files - other.files, bytes - other.bytes, rows - other.rows);
  }

  /** The mean file size in bytes, 0 without files. */
  public long averageFileBytes() {
    return files == 0 ? 0 : bytes / files;
  }
}
