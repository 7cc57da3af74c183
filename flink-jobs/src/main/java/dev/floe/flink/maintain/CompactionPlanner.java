package dev.floe.flink.maintain;

import dev.floe.catalog.slice.Slice;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Projections;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Chooses, per slice, the files to rewrite, from metadata only: data files of the current partition
 * spec that lie wholly inside the slice (strict partition projection: they hold no row of another
 * slice), have no delete files and are smaller than the target size, grouped by partition; a
 * partition is rewritten only when it has at least two such files. A partition whose small files
 * fill several target-size files is split into that many groups, rewritten in parallel.
 */
final class CompactionPlanner {

  private CompactionPlanner() {}

  static List<PlannedSlice> plan(
      Table table, long baseSnapshotId, List<String> values, List<Slice> slices, long target) {
    List<PlannedSlice> planned = new ArrayList<>();
    int groupIndex = 0;
    for (int i = 0; i < slices.size(); i++) {
      PlannedSlice slice =
          planSlice(table, baseSnapshotId, i, values.get(i), slices.get(i), target, groupIndex);
      groupIndex += slice.groups().size();
      planned.add(slice);
    }
    return planned;
  }

  private static PlannedSlice planSlice(
      Table table,
      long baseSnapshotId,
      int index,
      String value,
      Slice slice,
      long target,
      int firstGroupIndex) {
    String runId = UUID.randomUUID().toString();
    PartitionSpec spec = table.spec();
    Evaluator wholeInside =
        new Evaluator(spec.partitionType(), Projections.strict(spec).project(slice.toExpression()));
    List<DataFile> all = new ArrayList<>();
    Map<String, List<DataFile>> smallByPartition = new LinkedHashMap<>();
    int skippedOtherSpec = 0;
    int skippedWithDeletes = 0;
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(baseSnapshotId).filter(slice.toExpression()).planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file().copyWithoutStats();
        all.add(file);
        if (file.fileSizeInBytes() >= target) {
          continue;
        }
        if (file.specId() != spec.specId() || !wholeInside.eval(file.partition())) {
          skippedOtherSpec++;
        } else if (!task.deletes().isEmpty()) {
          skippedWithDeletes++;
        } else {
          smallByPartition
              .computeIfAbsent(spec.partitionToPath(file.partition()), p -> new ArrayList<>())
              .add(file);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot plan the files of " + slice.label(), e);
    }
    List<RewriteGroup> groups = new ArrayList<>();
    List<String> partitions = new ArrayList<>(smallByPartition.keySet());
    partitions.sort(Comparator.naturalOrder());
    for (String partition : partitions) {
      List<DataFile> files = smallByPartition.get(partition);
      if (files.size() < 2) {
        continue; // one small file per partition is already as compact as a rewrite makes it
      }
      for (List<DataFile> bin : bins(files, target)) {
        long bytes = bin.stream().mapToLong(DataFile::fileSizeInBytes).sum();
        // Rounded, not ceiled: a bin a little over the target (bins are balanced, not capped)
        // is expected to give one file; the writer still closes files at the target size.
        int expected = (int) Math.max(1, Math.round((double) bytes / target));
        groups.add(
            new RewriteGroup(
                firstGroupIndex + groups.size(), index, runId, spec.specId(), bin, expected));
      }
    }
    String nothingToDo =
        groups.isEmpty()
            ? nothingToDo(all.size(), smallByPartition, skippedOtherSpec, skippedWithDeletes)
            : null;
    return new PlannedSlice(index, value, slice, runId, FileStats.of(all), groups, nothingToDo);
  }

  /**
   * Splits one partition's small files into as many bins as files of the target size their bytes
   * fill, each bin about equally full (largest file first into the emptiest bin), so that one large
   * partition is still rewritten by parallel tasks. A bin left with a single file is dropped:
   * rewriting one file alone gains nothing.
   */
  static List<List<DataFile>> bins(List<DataFile> files, long target) {
    long bytes = files.stream().mapToLong(DataFile::fileSizeInBytes).sum();
    int count = (int) Math.max(1, Math.min(files.size() / 2, (bytes + target - 1) / target));
    List<List<DataFile>> bins = new ArrayList<>();
    long[] filled = new long[count];
    for (int i = 0; i < count; i++) {
      bins.add(new ArrayList<>());
    }
    List<DataFile> largestFirst = new ArrayList<>(files);
    largestFirst.sort(
        Comparator.comparingLong(DataFile::fileSizeInBytes)
            .reversed()
            .thenComparing(DataFile::location));
    for (DataFile file : largestFirst) {
      int emptiest = 0;
      for (int i = 1; i < count; i++) {
        if (filled[i] < filled[emptiest]) {
          emptiest = i;
        }
      }
      bins.get(emptiest).add(file);
      filled[emptiest] += file.fileSizeInBytes();
    }
    bins.removeIf(bin -> bin.size() < 2);
    bins.forEach(bin -> bin.sort(Comparator.comparing(DataFile::location)));
    return bins;
  }

  private static String nothingToDo(
      int files,
      Map<String, List<DataFile>> smallByPartition,
      int skippedOtherSpec,
      int skippedWithDeletes) {
    if (files == 0) {
      return "the slice has no data files";
    }
    StringBuilder reason = new StringBuilder();
    int small = smallByPartition.values().stream().mapToInt(List::size).sum();
    reason.append(
        small == 0
            ? "no file is below the target size"
            : "no partition has two or more files below the target size");
    if (skippedOtherSpec > 0) {
      reason
          .append("; ")
          .append(skippedOtherSpec)
          .append(" small file(s) of an older partition spec kept");
    }
    if (skippedWithDeletes > 0) {
      reason
          .append("; ")
          .append(skippedWithDeletes)
          .append(" small file(s) with delete files kept");
    }
    return reason.toString();
  }
}
