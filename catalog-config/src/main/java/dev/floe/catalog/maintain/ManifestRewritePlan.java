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
 * @param alreadyGrouped true when the data manifests are already grouped the way the rewrite would
 *     group them: each holds live files of one group only (the partitions of one spec the rewrite
 *     writes together), and no group has more than one manifest below the target size
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
    boolean alreadyGrouped,
    boolean committed,
    Integer dataManifestsAfter)
    implements ActionOutcome {

  /**
   * Nothing to gain, so nothing is committed: there is no data manifest, or the data manifests are
   * {@linkplain #alreadyGrouped() already grouped} the way the rewrite would group them. A rewrite
   * would then write the same groups again, one manifest per group (more only where a group
   * outgrows the target), so it would only add a snapshot.
   *
   * <p>The rule is stable: right after a rewrite, a second plan is a no-op. The rewrite records the
   * bytes per entry it planned with in its snapshot's summary, and a plan of that snapshot reuses
   * them, so the same live files give the same groups. Iceberg writes each group's files into
   * manifests of their own and only starts another one once a manifest reached the target size, so
   * every manifest holds one group and at most one manifest per group is below the target.
   *
   * <p>A single manifest holding a single group is a no-op, as are one manifest per partition spec
   * (with the default target); many small manifests of one spec are not.
   */
  public boolean isNoOp() {
    return dataManifestsBefore == 0 || alreadyGrouped;
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
          dataManifestsBefore <= 1
              ? String.format(
                  "nothing to rewrite: %d data manifest%s",
                  dataManifestsBefore, dataManifestsBefore == 1 ? "" : "s")
              : String.format(
                  "nothing to rewrite: %d data manifests (%d data files in %d partitions) already"
                      + " clustered by partition (target %s each)",
                  dataManifestsBefore, dataFiles, partitions, Bytes.format(targetManifestBytes)));
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
    map.put("already_grouped", alreadyGrouped);
    map.put("data_manifests_after", dataManifestsAfter);
    map.put("no_op", isNoOp());
    return map;
  }
}
