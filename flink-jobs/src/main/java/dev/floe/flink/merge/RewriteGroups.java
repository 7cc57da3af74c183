package dev.floe.flink.merge;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.util.StructLikeWrapper;

/**
 * Splits the files a merge rewrites into groups, each rewritten by one writer: the files of one
 * partition, in the probe's order, cut whenever a group's input reaches the target file size. A
 * group is written to one file per partition (more if it rolls at the target size), as the single
 * writer did before the rewrite was spread over threads; the groups depend only on the files, never
 * on the thread count, so neither do the files a merge commits.
 */
final class RewriteGroups {

  private RewriteGroups() {}

  /**
   * @param touched the files to rewrite, in the probe's order
   * @param specs the table's partition specs by id
   * @param targetFileSize the table's target data file size in bytes
   * @return the groups: partitions in the order their first file appears in {@code touched}, a
   *     partition's groups in file order
   */
  static List<List<FileScanTask>> of(
      List<FileScanTask> touched, Map<Integer, PartitionSpec> specs, long targetFileSize) {
    Map<Object, List<List<FileScanTask>>> byPartition = new LinkedHashMap<>();
    Map<Object, Long> openBytes = new LinkedHashMap<>();
    for (FileScanTask task : touched) {
      Object partition = partitionOf(task, specs);
      List<List<FileScanTask>> groups =
          byPartition.computeIfAbsent(partition, p -> new ArrayList<>());
      long bytes = openBytes.getOrDefault(partition, 0L);
      if (groups.isEmpty() || bytes >= targetFileSize) {
        groups.add(new ArrayList<>());
        bytes = 0;
      }
      groups.get(groups.size() - 1).add(task);
      openBytes.put(partition, bytes + Math.max(0, task.file().fileSizeInBytes()));
    }
    List<List<FileScanTask>> all = new ArrayList<>();
    byPartition.values().forEach(all::addAll);
    return all;
  }

  /** A file's partition as a key: its spec id and partition tuple. */
  static Object partitionOf(FileScanTask task, Map<Integer, PartitionSpec> specs) {
    int specId = task.file().specId();
    PartitionSpec spec = specs.get(specId);
    if (spec == null || spec.isUnpartitioned()) {
      return List.of(specId);
    }
    return key(spec, task.file().partition());
  }

  /**
   * The key of {@code partition} (a tuple of {@code spec}), comparable with {@link #partitionOf}.
   */
  static Object key(PartitionSpec spec, StructLike partition) {
    if (spec.isUnpartitioned()) {
      return List.of(spec.specId());
    }
    return List.of(spec.specId(), StructLikeWrapper.forType(spec.partitionType()).set(partition));
  }
}
