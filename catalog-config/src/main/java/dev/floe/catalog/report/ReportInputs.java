package dev.floe.catalog.report;

import java.util.Map;
import java.util.TreeMap;

/**
 * What a report was computed from, so the page can be reproduced: the same inputs and as-of instant
 * give the same page, byte for byte.
 *
 * @param metadataLocation the table metadata file read
 * @param currentSnapshotId main's current snapshot, or null for a table without snapshots
 * @param sourceSnapshots each source table consulted for late rows, with its current snapshot id
 *     (null when it had none or could not be loaded)
 */
public record ReportInputs(
    String metadataLocation, Long currentSnapshotId, Map<String, Long> sourceSnapshots) {

  public ReportInputs {
    sourceSnapshots = java.util.Collections.unmodifiableMap(new TreeMap<>(sourceSnapshots));
  }
}
