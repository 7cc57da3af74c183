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
 * @param method how the committer found the slice's current content: lineage, scan or empty
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
