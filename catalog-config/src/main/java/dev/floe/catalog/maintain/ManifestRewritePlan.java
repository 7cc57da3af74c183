package dev.floe.catalog.maintain;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a manifest rewrite does, before ({@code committed == false}) or after it is done.
 *
 * @param table the table's name
 * @param dataManifestsBefore data manifests of the current snapshot
 * @param deleteManifests delete manifests of the current snapshot (kept as they are)
 * @param dataFiles live data file entries the rewrite carries over
 * @param partitions distinct partitions among them
 * @param targetManifestBytes the table's {@code commit.manifest.target-size-bytes}
 * @param predictedDataManifests data manifests after the rewrite, as estimated from the current
 *     manifests' bytes per entry (Iceberg rolls a manifest over by its real size)
 * @param committed true once the rewrite was committed
 * @param dataManifestsAfter data manifests of the new current snapshot, or null before the commit
 *     (and when there was nothing to rewrite)
 */
public record ManifestRewritePlan(
    String table,
    int dataManifestsBefore,
    int deleteManifests,
    long dataFiles,
    int partitions,
    long targetManifestBytes,
    int predictedDataManifests,
    boolean committed,
    Integer dataManifestsAfter)
    implements ActionOutcome {

  /** Nothing to gain: no data manifest, or one that would stay one. */
  public boolean isNoOp() {
    return dataManifestsBefore == 0 || (dataManifestsBefore == 1 && predictedDataManifests == 1);
  }

  @Override
  public boolean changed() {
    return committed && !isNoOp();
  }

  @Override
  public List<String> lines() {
    List<String> lines = new ArrayList<>();
    if (isNoOp()) {
      lines.add(
          String.format(
              "nothing to rewrite: %d data manifest%s",
              dataManifestsBefore, dataManifestsBefore == 1 ? "" : "s"));
      return lines;
    }
    lines.add(
        String.format(
            "%s %d data manifests (%d data files in %d partitions) clustered by partition into"
                + " %s (target %s each); %d delete manifests kept",
            committed ? "rewrote" : "would rewrite",
            dataManifestsBefore,
            dataFiles,
            partitions,
            committed ? dataManifestsAfter : "about " + predictedDataManifests,
            Bytes.format(targetManifestBytes),
            deleteManifests));
    return lines;
  }

  @Override
  public Map<String, Object> details() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("data_manifests_before", dataManifestsBefore);
    map.put("delete_manifests", deleteManifests);
    map.put("data_files", dataFiles);
    map.put("partitions", partitions);
    map.put("target_manifest_bytes", targetManifestBytes);
    map.put("predicted_data_manifests", predictedDataManifests);
    map.put("data_manifests_after", dataManifestsAfter);
    map.put("no_op", isNoOp());
    return map;
  }
}
