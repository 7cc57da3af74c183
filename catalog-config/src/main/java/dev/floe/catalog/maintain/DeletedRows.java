package dev.floe.catalog.maintain;

import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.util.ContentFileUtil;

/**
 * When delete files make a data file worth rewriting whatever its size: the one rule compaction
 * picks files by and {@code floe maintain --plan} plans by, so a plan never proposes a rewrite
 * compaction would not do.
 */
public final class DeletedRows {
  private DeletedRows() {}

  /**
   * Whether at least {@code deleteFileThreshold} delete files apply to {@code file}, or those that
   * name it alone delete at least {@code deletedRowRatio} of its rows ({@link #knownFrom}).
   */
  public static boolean overThreshold(
      DataFile file, List<DeleteFile> deletes, int deleteFileThreshold, double deletedRowRatio) {
    if (deletes.isEmpty()) {
      return false;
    }
    if (deletes.size() >= deleteFileThreshold) {
      return true;
    }
    return file.recordCount() > 0
        && (double) knownFrom(file, deletes) / file.recordCount() >= deletedRowRatio;
  }

  /**
   * The rows of {@code file} that its position deletes and deletion vectors naming it alone delete
   * (their record count is the rows they delete); equality deletes and partition-wide position
   * deletes delete rows only a read can count.
   */
  public static long knownFrom(DataFile file, List<DeleteFile> deletes) {
    long rows = 0;
    for (DeleteFile delete : deletes) {
      if (namesOnly(delete, file)) {
        rows += delete.recordCount();
      }
    }
    return rows;
  }

  /** Whether {@code delete} is a position delete or deletion vector of {@code file} alone. */
  public static boolean namesOnly(DeleteFile delete, DataFile file) {
    return delete.content() == FileContent.POSITION_DELETES
        && ContentFileUtil.isFileScoped(delete)
        && file.location().equals(ContentFileUtil.referencedDataFileLocation(delete));
  }
}
