package dev.floe.catalog.commit;

import java.util.Collection;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Deletes files that no snapshot references: a run's output whose commit certainly failed. */
public final class UncommittedFiles {
  private static final Logger LOG = LoggerFactory.getLogger(UncommittedFiles.class);

  private UncommittedFiles() {}

  /** Deletes {@code files}; a failure is logged (the files become orphans), never thrown. */
  public static void delete(Table table, Collection<? extends ContentFile<?>> files) {
    if (files.isEmpty()) {
      return;
    }
    try {
      for (ContentFile<?> file : files) {
        table.io().deleteFile(file.location());
      }
    } catch (RuntimeException e) {
      LOG.warn(
          "Cannot delete {} uncommitted files of {}: {}", files.size(), table.name(), e.toString());
    }
  }
}
