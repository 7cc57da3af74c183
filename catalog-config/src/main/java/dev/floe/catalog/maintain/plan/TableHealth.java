package dev.floe.catalog.maintain.plan;

import dev.floe.catalog.spec.MaintenancePolicy;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One table's state against its maintenance policy, read from metadata (manifests, the metadata
 * log, a listing of the table location for orphans): what {@link MaintenancePlanner} scores.
 *
 * @param table {@code namespace.table}
 * @param policy the policy the table carries
 * @param targetFileSizeBytes the target size in effect
 * @param slices per slice, in slice order
 * @param snapshots snapshots in the metadata
 * @param snapshotsBeyondRetention snapshots expiry would remove; 0 without retention
 * @param expirableFiles files only those snapshots reference
 * @param dataManifests data manifests of the current snapshot
 * @param dataManifestBytes their bytes
 * @param manifestTargetBytes the size manifests are rewritten to ({@code
 *     commit.manifest.target-size-bytes})
 * @param partitions partitions of the current snapshot holding data files
 * @param orphanFiles unreferenced files older than the orphan minimum age; -1 when unknown
 * @param orphanBytes their bytes
 * @param lastMaintenance commit time of the newest compaction or manifest rewrite kept, if any
 * @param problems what could not be read (e.g. a table property), one line each
 * @param formatVersion the table's format version (v3 takes position deletes only as deletion
 *     vectors)
 */
public record TableHealth(
    String table,
    MaintenancePolicy policy,
    long targetFileSizeBytes,
    List<SliceHealth> slices,
    int snapshots,
    int snapshotsBeyondRetention,
    int expirableFiles,
    int dataManifests,
    long dataManifestBytes,
    long manifestTargetBytes,
    int partitions,
    long orphanFiles,
    long orphanBytes,
    Optional<Instant> lastMaintenance,
    List<String> problems,
    int formatVersion) {

  public TableHealth {
    slices = List.copyOf(slices);
    problems = List.copyOf(problems);
  }

  public long dataFiles() {
    return slices.stream().mapToLong(SliceHealth::dataFiles).sum();
  }

  public long smallFiles() {
    return slices.stream().mapToLong(SliceHealth::smallFiles).sum();
  }

  public long deleteFiles() {
    return slices.stream().mapToLong(SliceHealth::deleteFiles).sum();
  }

  /** Deleted rows over rows, over the whole table. */
  public double deletedRowRatio() {
    long rows = slices.stream().mapToLong(SliceHealth::rows).sum();
    long deleted = slices.stream().mapToLong(SliceHealth::deletedRows).sum();
    return rows == 0 ? 0 : (double) deleted / rows;
  }
}
