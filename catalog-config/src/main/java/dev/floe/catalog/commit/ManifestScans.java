package dev.floe.catalog.commit;

import dev.floe.catalog.config.LocalReadsFileIO;
import java.util.concurrent.ExecutorService;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.relocated.com.google.common.util.concurrent.MoreExecutors;

/**
 * Where a commit reads and rewrites the table's manifests. Iceberg does that work on its shared
 * worker pool and waits for it by polling every 10 ms ({@code Tasks.waitFor}); a small manifest on
 * a local disk takes far less than that to read, so the polling made up much of a commit of such a
 * table (docs/benchmarks.md, 2026-12-04). A commit of a table whose metadata lies on the local file
 * system and whose manifests are small in all ({@link #MAX_BYTES_ON_COMMITTING_THREAD}) filters and
 * merges them on the committing thread. Tables on object stores or HDFS, and tables with more
 * manifest bytes, keep Iceberg's pool, whose parallel reads then pay off. (Iceberg 1.11 writes the
 * manifest of a commit's new files on its pool whatever is set here; {@link CommitUpdates} writes
 * it on the committing thread.)
 */
public final class ManifestScans {
  /**
   * The most manifest bytes a commit reads on the committing thread. An estimate, not a
   * measurement: at the order of 100 MB/s of Avro decoding, about what one core reads in the 10 ms
   * one wait on the pool costs.
   */
  static final long MAX_BYTES_ON_COMMITTING_THREAD = 1L << 20;

  private static final ExecutorService COMMITTING_THREAD = MoreExecutors.newDirectExecutorService();

  private ManifestScans() {}

  /**
   * Has {@code update} read and rewrite manifests on the committing thread when {@code table}'s
   * metadata lies on the local file system and its current manifests are small; leaves it on
   * Iceberg's worker pool otherwise.
   *
   * @return {@code update}
   */
  public static <T extends SnapshotUpdate<T>> T onCommittingThreadIfLocal(Table table, T update) {
    return onCommittingThreadIfLocal(table, update, MAX_BYTES_ON_COMMITTING_THREAD);
  }

  static <T extends SnapshotUpdate<T>> T onCommittingThreadIfLocal(
      Table table, T update, long maxManifestBytes) {
    if (smallAndLocal(table, maxManifestBytes)) {
      update.scanManifestsWith(COMMITTING_THREAD);
    }
    return update;
  }

  /**
   * Has {@code scan} read the manifests it plans from on the calling thread, under the same rule:
   * for the scans a commit makes before it commits (the slice's current content).
   *
   * @return the scan to plan
   */
  public static TableScan planOnCallingThreadIfLocal(Table table, TableScan scan) {
    return planOnCallingThreadIfLocal(table, scan, MAX_BYTES_ON_COMMITTING_THREAD);
  }

  static TableScan planOnCallingThreadIfLocal(Table table, TableScan scan, long maxManifestBytes) {
    return smallAndLocal(table, maxManifestBytes) ? scan.planWith(COMMITTING_THREAD) : scan;
  }

  private static boolean smallAndLocal(Table table, long maxManifestBytes) {
    return isLocal(metadataLocation(table)) && manifestBytes(table) <= maxManifestBytes;
  }

  /** True for a location on this machine's file system, as Floe's local reads decide it. */
  static boolean isLocal(String location) {
    return LocalReadsFileIO.localFile(location) != null;
  }

  private static String metadataLocation(Table table) {
    return table
        .properties()
        .getOrDefault(TableProperties.WRITE_METADATA_LOCATION, table.location());
  }

  /**
   * The bytes of the current snapshot's manifests (read from its manifest list, which the commit
   * reads too).
   */
  private static long manifestBytes(Table table) {
    Snapshot current = table.currentSnapshot();
    if (current == null) {
      return 0;
    }
    long bytes = 0;
    for (ManifestFile manifest : current.allManifests(table.io())) {
      bytes += manifest.length();
    }
    return bytes;
  }
}
