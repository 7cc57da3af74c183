package dev.floe.bench;

/**
 * One timed commit of the commit-scaling benchmark.
 *
 * @param index 1-based position in the run
 * @param millis wall time of {@code SliceCommitter.commit} (load the table, no-op check, validate,
 *     commit), excluding writing the slice's data file
 * @param metadataJsonBytes the table metadata file this commit wrote
 * @param manifestListBytes the snapshot's manifest list
 * @param manifestBytes the manifests this snapshot added (written by this commit)
 * @param snapshots snapshots in the table after the commit
 * @param method how the slice's current content is found ({@code SliceContent.current}): lineage,
 *     scan or empty. The committer itself may skip the scan when the files' exact row count differs
 *     from the run's ({@code SliceContent.compare}); this loop's reloads keep the row count, so
 *     their scans stay.
 */
record CommitRecord(
    int index,
    double millis,
    long metadataJsonBytes,
    long manifestListBytes,
    long manifestBytes,
    int snapshots,
    String method) {

  long metadataBytes() {
    return metadataJsonBytes + manifestListBytes + manifestBytes;
  }
}
