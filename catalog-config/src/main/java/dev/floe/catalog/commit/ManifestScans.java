package dev.floe.catalog.commit;

import java.util.concurrent.ExecutorService;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.relocated.com.google.common.util.concurrent.MoreExecutors;

/**
 * Where a commit reads and writes its manifests. Iceberg does that work on its shared worker pool
 * and waits for it by polling every 10 ms ({@code Tasks.waitFor}); a manifest on a local disk takes
 * far less than that to read, so on a table stored on the local file system the polling made up
 * about a third of a commit's time (docs/benchmarks.md, 2026-12-04). Such a table's commits do that
 * work on the committing thread. Tables on object stores and HDFS keep Iceberg's pool, whose
 * parallel reads hide each read's latency.
 */
public final class ManifestScans {
  private static final ExecutorService COMMITTING_THREAD = MoreExecutors.newDirectExecutorService();

  private ManifestScans() {}

  /**
   * Has {@code update} scan and write manifests on the committing thread when {@code table} lies on
   * the local file system; leaves it on Iceberg's worker pool otherwise.
   *
   * @return {@code update}
   */
  public static <T extends SnapshotUpdate<T>> T onCommittingThreadIfLocal(Table table, T update) {
    if (isLocal(table.location())) {
      update.scanManifestsWith(COMMITTING_THREAD);
    }
    return update;
  }

  /** True for a {@code file:} location; a location without a scheme may be on any file system. */
  static boolean isLocal(String location) {
    return location != null && location.startsWith("file:");
  }
}
