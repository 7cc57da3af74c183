package dev.floe.catalog.maintain;

import dev.floe.catalog.slice.PartitionPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Rewrites the current snapshot's data manifests with Iceberg's {@code table.rewriteManifests()},
 * clustered by partition: consecutive partitions (in partition value order) share a manifest until
 * it reaches the table's target manifest size, so a scan of a few slices opens few manifests, and a
 * table with thousands of small daily partitions does not get thousands of tiny manifests. Delete
 * manifests are kept as they are. No data file is read or written; the old manifests stay until the
 * snapshots that use them expire.
 */
public final class ManifestRewrite implements MaintenanceAction {
  /**
   * Snapshot summary property of a manifest rewrite: the bytes per manifest entry it grouped with,
   * reused by a plan of that snapshot so a rerun finds the same groups (see {@link
   * ManifestRewritePlan#isNoOp()}).
   */
  public static final String BYTES_PER_ENTRY_PROPERTY = "floe.rewrite-manifests.bytes-per-entry";

  private final Table table;
  private final String name;

  private ManifestRewrite(Table table, String name) {
    this.table = table;
    this.name = name;
  }

  /**
   * @param table the table
   * @param name its name, for messages
   */
  public static ManifestRewrite of(Table table, String name) {
    return new ManifestRewrite(table, name);
  }

  @Override
  public String name() {
    return "rewrite-manifests";
  }

  /** What the rewrite would do; changes nothing and writes nothing. */
  public ManifestRewritePlan apply() {
    return plan().plan();
  }

  /**
   * Rewrites the manifests in one commit, none when there is nothing to gain ({@link
   * ManifestRewritePlan#isNoOp()}); the commit's summary records the bytes per entry it grouped
   * with.
   */
  public ManifestRewritePlan commit() {
    Grouping grouping = plan();
    ManifestRewritePlan plan = grouping.plan();
    if (plan.isNoOp()) {
      return withAfter(plan, null);
    }
    table
        .rewriteManifests()
        .clusterBy(file -> grouping.groups().getOrDefault(key(file.specId(), file), -1))
        .set(BYTES_PER_ENTRY_PROPERTY, Double.toString(grouping.bytesPerEntry()))
        .commit();
    table.refresh();
    return withAfter(plan, dataManifests(table.currentSnapshot()).size());
  }

  @Override
  public MaintenanceReport run(boolean dryRun) {
    TableStats before = TableStats.of(table);
    if (!dryRun) {
      ManifestRewritePlan plan = commit();
      return new MaintenanceReport(name(), false, before, TableStats.of(table), Set.of(), plan);
    }
    Grouping grouping = plan();
    ManifestRewritePlan plan = grouping.plan();
    if (plan.isNoOp()) {
      return new MaintenanceReport(name(), true, before, before, Set.of(), plan);
    }
    // The old manifests stay referenced by the previous snapshot; one snapshot, one manifest list
    // and the new manifests are added.
    long listBytes =
        table.io().newInputFile(table.currentSnapshot().manifestListLocation()).getLength();
    TableStats after =
        new TableStats(
            before.snapshots() + 1,
            before.dataFiles(),
            before.dataBytes(),
            before.deleteFiles(),
            plan.deleteManifests() + plan.predictedDataManifests(),
            before.metadataFiles() + 1 + plan.predictedDataManifests(),
            before.metadataBytes()
                + listBytes
                + (long) (plan.dataFiles() * grouping.bytesPerEntry()));
    return new MaintenanceReport(
        name(), true, before, after, Set.of("manifests", "metadataFiles", "metadataBytes"), plan);
  }

  private record Grouping(
      ManifestRewritePlan plan, Map<String, Integer> groups, double bytesPerEntry) {}

  private record PartitionFiles(String key, long files) {}

  /**
   * A data manifest's length, the partitions it holds live files of, and whether it also holds
   * entries of deleted files (a rewrite drops them, so such a manifest is never as the rewrite
   * would write it).
   */
  private record HeldPartitions(long length, Set<String> partitions, boolean deletedEntries) {}

  private Grouping plan() {
    Snapshot current = table.currentSnapshot();
    long target =
        PropertyUtil.propertyAsLong(
            table.properties(),
            TableProperties.MANIFEST_TARGET_SIZE_BYTES,
            TableProperties.MANIFEST_TARGET_SIZE_BYTES_DEFAULT);
    if (current == null) {
      return new Grouping(
          new ManifestRewritePlan(name, 0, 0, 0, 0, target, 0, false, false, null), Map.of(), 0);
    }
    List<ManifestFile> data = dataManifests(current);
    int deletes = current.allManifests(table.io()).size() - data.size();

    long manifestBytes = 0;
    long entries = 0;
    // Partitions per spec in partition value order, with their live file counts.
    Map<Integer, TreeMap<StructLike, PartitionFiles>> partitions = new TreeMap<>();
    // The partitions each data manifest holds live files of.
    List<HeldPartitions> manifestPartitions = new ArrayList<>();
    long files = 0;
    for (ManifestFile manifest : data) {
      Set<String> held = new HashSet<>();
      manifestPartitions.add(
          new HeldPartitions(manifest.length(), held, count(manifest.deletedFilesCount()) > 0));
      manifestBytes += manifest.length();
      entries +=
          count(manifest.addedFilesCount())
              + count(manifest.existingFilesCount())
              + count(manifest.deletedFilesCount());
      PartitionSpec spec = table.specs().get(manifest.partitionSpecId());
      Comparator<StructLike> order = Comparators.forType(spec.partitionType());
      try (ManifestReader<DataFile> reader =
          ManifestFiles.read(manifest, table.io(), table.specs())) {
        for (DataFile file : reader) {
          files++;
          held.add(key(spec.specId(), file));
          partitions
              .computeIfAbsent(spec.specId(), id -> new TreeMap<>(order))
              .merge(
                  file.partition(),
                  new PartitionFiles(key(spec.specId(), file), 1),
                  (a, b) -> new PartitionFiles(a.key(), a.files() + b.files()));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read manifest " + manifest.path(), e);
      }
    }
    double bytesPerEntry =
        recordedBytesPerEntry(current).orElse(entries == 0 ? 1 : (double) manifestBytes / entries);
    long perManifest = Math.max(1, (long) (target / bytesPerEntry));

    Map<String, Integer> groups = new HashMap<>();
    int group = -1;
    int predicted = 0;
    int partitionCount = 0;
    for (Map.Entry<Integer, TreeMap<StructLike, PartitionFiles>> spec : partitions.entrySet()) {
      long inGroup = 0;
      group++;
      List<Long> groupSizes = new ArrayList<>();
      for (PartitionFiles partition : spec.getValue().values()) {
        partitionCount++;
        if (inGroup > 0 && inGroup + partition.files() > perManifest) {
          groupSizes.add(inGroup);
          group++;
          inGroup = 0;
        }
        inGroup += partition.files();
        groups.put(partition.key(), group);
      }
      groupSizes.add(inGroup);
      for (long size : groupSizes) {
        predicted += (int) Math.max(1, (size + perManifest - 1) / perManifest);
      }
    }
    return new Grouping(
        new ManifestRewritePlan(
            name,
            data.size(),
            deletes,
            files,
            partitionCount,
            target,
            predicted,
            alreadyGrouped(manifestPartitions, groups, target),
            false,
            null),
        groups,
        bytesPerEntry);
  }

  /**
   * Whether every data manifest holds live files of one group only and no group has more than one
   * manifest below {@code target}: what Iceberg's rewrite writes for these groups.
   */
  private static boolean alreadyGrouped(
      List<HeldPartitions> manifestPartitions, Map<String, Integer> groups, long target) {
    Map<Integer, Integer> smallPerGroup = new HashMap<>();
    for (HeldPartitions manifest : manifestPartitions) {
      Set<Integer> held = new HashSet<>();
      for (String partition : manifest.partitions()) {
        held.add(groups.get(partition));
      }
      // A manifest without live files would be dropped, one with two groups split, one with
      // entries of deleted files written without them (its length says nothing of its live size).
      if (held.size() != 1 || manifest.deletedEntries()) {
        return false;
      }
      if (manifest.length() < target
          && smallPerGroup.merge(held.iterator().next(), 1, Integer::sum) > 1) {
        return false;
      }
    }
    return true;
  }

  /** The bytes per entry the rewrite that made {@code snapshot} grouped with, if it was one. */
  private static OptionalDouble recordedBytesPerEntry(Snapshot snapshot) {
    String recorded =
        snapshot.summary() == null ? null : snapshot.summary().get(BYTES_PER_ENTRY_PROPERTY);
    if (recorded == null) {
      return OptionalDouble.empty();
    }
    try {
      double value = Double.parseDouble(recorded);
      return value > 0 && Double.isFinite(value)
          ? OptionalDouble.of(value)
          : OptionalDouble.empty();
    } catch (NumberFormatException e) {
      // Not ours to trust: estimate from the manifests instead.
      return OptionalDouble.empty();
    }
  }

  private String key(int specId, DataFile file) {
    return specId + "|" + PartitionPaths.of(table.specs().get(specId), file.partition());
  }

  private List<ManifestFile> dataManifests(Snapshot snapshot) {
    return snapshot.allManifests(table.io()).stream()
        .filter(m -> m.content() == ManifestContent.DATA)
        .toList();
  }

  private static long count(Integer value) {
    return value == null ? 0 : value;
  }

  private static ManifestRewritePlan withAfter(ManifestRewritePlan plan, Integer after) {
    return new ManifestRewritePlan(
        plan.table(),
        plan.dataManifestsBefore(),
        plan.deleteManifests(),
        plan.dataFiles(),
        plan.partitions(),
        plan.targetManifestBytes(),
        plan.predictedDataManifests(),
        plan.alreadyGrouped(),
        true,
        after);
  }
}
