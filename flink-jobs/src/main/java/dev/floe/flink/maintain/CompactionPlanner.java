package dev.floe.flink.maintain;

import dev.floe.catalog.lineage.StoredRows;
import dev.floe.catalog.maintain.DeletedRows;
import dev.floe.catalog.maintain.GroupHeap;
import dev.floe.catalog.maintain.SortKeyOverlap;
import dev.floe.catalog.maintain.plan.TimeSlices;
import dev.floe.catalog.slice.PartitionPaths;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.spec.MaintenancePolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * Chooses, per slice, the files to rewrite, from metadata only: data files of the current partition
 * spec that lie wholly inside the slice (strict partition projection: they hold no row of another
 * slice) and are smaller than the target size or selected by their delete files ({@link
 * DeleteThresholds}: how many apply, what share of the rows they delete), grouped by partition. A
 * partition is rewritten when it has at least two such files, or one selected by its deletes. A
 * partition whose files fill several target-size files is split into that many groups, rewritten in
 * parallel. Each group carries the delete files the scan attached to its files (the rewrite applies
 * them); a delete file all of whose data files are rewritten no longer applies and is removed by
 * the commit.
 */
final class CompactionPlanner {

  private CompactionPlanner() {}

  static List<PlannedSlice> plan(
      Table table, long baseSnapshotId, List<String> values, List<Slice> slices, long target) {
    return plan(table, baseSnapshotId, values, slices, target, DeleteThresholds.NEVER);
  }

  static List<PlannedSlice> plan(
      Table table,
      long baseSnapshotId,
      List<String> values,
      List<Slice> slices,
      long target,
      DeleteThresholds thresholds) {
    return plan(table, baseSnapshotId, values, slices, target, thresholds, RowLayout.BINPACK);
  }

  /**
   * As above, laid out by {@code layout}: with sort or z-order a partition that is rewritten is
   * rewritten whole (all its files of the slice, small or not, in one group up to {@link
   * RowLayout#MAX_GROUP_BYTES}), so its rows end up ordered across its files; with sort, a
   * partition is also rewritten when its files overlap on the sort key ({@link SortKeyOverlap}).
   */
  static List<PlannedSlice> plan(
      Table table,
      long baseSnapshotId,
      List<String> values,
      List<Slice> slices,
      long target,
      DeleteThresholds thresholds,
      RowLayout layout) {
    List<PlannedSlice> planned = new ArrayList<>();
    int groupIndex = 0;
    for (int i = 0; i < slices.size(); i++) {
      PlannedSlice slice =
          planSlice(
              table,
              baseSnapshotId,
              i,
              values.get(i),
              slices.get(i),
              target,
              thresholds,
              layout,
              groupIndex);
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
      DeleteThresholds thresholds,
      RowLayout layout,
      int firstGroupIndex) {
    String runId = UUID.randomUUID().toString();
    PartitionSpec spec = table.specs().get(table.spec().specId());
    Evaluator wholeInside = TimeSlices.wholeInside(spec, slice);
    long smallLimit = MaintenancePolicy.smallFileLimit(target);
    List<DataFile> all = new ArrayList<>();
    Map<String, List<DataFile>> candidatesByPartition = new LinkedHashMap<>();
    Set<String> selectedForDeletes = new HashSet<>();
    Map<String, List<DeleteFile>> deletesByFile = new HashMap<>();
    // Every delete file the scan attached, with the data files it applies to.
    Map<String, DeleteFile> deleteFiles = new LinkedHashMap<>();
    Map<String, Set<String>> appliesTo = new HashMap<>();
    int skippedOtherSpec = 0;
    int skippedNotProvablyInside = 0;
    // Sort and z-order: every file of each partition (a rewritten partition is rewritten whole);
    // sort: with the sort column's bounds, to find partitions whose files overlap.
    Map<String, List<DataFile>> partitionFiles = new LinkedHashMap<>();
    Map<String, List<DataFile>> withBounds = new HashMap<>();
    Optional<Types.NestedField> sortColumn =
        layout.strategy() == MaintenancePolicy.Strategy.SORT
            ? SortKeyOverlap.column(table)
            : Optional.empty();
    TableScan scan = table.newScan().useSnapshot(baseSnapshotId).filter(slice.toExpression());
    if (sortColumn.isPresent()) {
      scan =
          scan.includeColumnStats(
              List.of(table.schema().findColumnName(sortColumn.get().fieldId())));
    }
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file().copyWithoutStats();
        all.add(file);
        for (DeleteFile delete : task.deletes()) {
          String key = key(delete);
          deleteFiles.putIfAbsent(key, delete.copy());
          appliesTo.computeIfAbsent(key, k -> new HashSet<>()).add(file.location());
        }
        boolean small = file.fileSizeInBytes() < smallLimit;
        boolean forDeletes = deletesOverThreshold(file, task.deletes(), thresholds);
        boolean eligible = file.specId() == spec.specId() && wholeInside.eval(file.partition());
        if (eligible) {
          if (!task.deletes().isEmpty()) {
            List<DeleteFile> copies = new ArrayList<>();
            task.deletes().forEach(d -> copies.add(deleteFiles.get(key(d))));
            deletesByFile.put(file.location(), List.copyOf(copies));
          }
          if (layout.reorders()) {
            String path = PartitionPaths.of(spec, file.partition());
            partitionFiles.computeIfAbsent(path, p -> new ArrayList<>()).add(file);
            sortColumn.ifPresent(
                column ->
                    withBounds
                        .computeIfAbsent(path, p -> new ArrayList<>())
                        .add(task.file().copyWithStats(Set.of(column.fieldId()))));
          }
        }
        if (!small && !forDeletes) {
          continue;
        }
        if (!eligible) {
          if (file.specId() != spec.specId()) {
            skippedOtherSpec++;
          } else {
            skippedNotProvablyInside++;
          }
          continue;
        }
        if (forDeletes) {
          selectedForDeletes.add(file.location());
        }
        candidatesByPartition
            .computeIfAbsent(PartitionPaths.of(spec, file.partition()), p -> new ArrayList<>())
            .add(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot plan the files of " + slice.label(), e);
    }
    List<RewriteGroup> groups = new ArrayList<>();
    Set<String> partitionSet = new java.util.TreeSet<>(candidatesByPartition.keySet());
    partitionSet.addAll(withBounds.keySet());
    List<String> partitions = new ArrayList<>(partitionSet);
    partitions.sort(Comparator.naturalOrder());
    for (String partition : partitions) {
      List<DataFile> files = candidatesByPartition.getOrDefault(partition, List.of());
      boolean anyForDeletes =
          files.stream().anyMatch(f -> selectedForDeletes.contains(f.location()));
      boolean byFiles = files.size() >= 2 || anyForDeletes;
      List<List<DataFile>> groupBins;
      if (layout.reorders()) {
        List<DataFile> whole = partitionFiles.getOrDefault(partition, List.of());
        long bytes = whole.stream().mapToLong(DataFile::fileSizeInBytes).sum();
        long rowBytes = GroupHeap.bytesPerRow(StoredRows.schema(table));
        long heap = GroupHeap.of(StoredRows.schema(table), whole);
        boolean fits = bytes <= RowLayout.MAX_GROUP_BYTES && heap <= GroupHeap.MAX_GROUP_HEAP_BYTES;
        // Sort: files overlapping on the sort key are rewritten even when none is small, but
        // only when the partition fits one in-memory group (else its groups would overlap again).
        boolean byOverlap =
            fits
                && sortColumn.isPresent()
                && SortKeyOverlap.overlaps(
                    table, withBounds.getOrDefault(partition, List.of()), sortColumn.get());
        // A partition over the cap is ordered in several groups, each leaving one file below the
        // target: up to that many small files is the state a sorted rewrite leaves, not a reason
        // to rewrite it again (a rerun stays a no-op).
        boolean byFilesOrdered =
            files.size() > GroupHeap.groupsNeeded(bytes, heap) || anyForDeletes;
        if (!byFilesOrdered && !byOverlap) {
          continue;
        }
        groupBins =
            fits
                ? List.of(sortedByLocation(whole))
                : cappedBins(whole, rowBytes, selectedForDeletes);
      } else {
        if (!byFiles) {
          continue; // one small file per partition is already as compact as a rewrite makes it
        }
        groupBins = bins(files, target, selectedForDeletes);
      }
      for (List<DataFile> bin : groupBins) {
        long bytes = bin.stream().mapToLong(DataFile::fileSizeInBytes).sum();
        // The writer writes at most this many (GroupFileWriter), so a bin of two or more small
        // files always gives fewer files; the plan's prediction (HealthScan) uses the same rule.
        int expected = MaintenancePolicy.expectedFiles(bytes, target);
        Map<String, List<DeleteFile>> deletes = new HashMap<>();
        bin.forEach(
            f -> {
              if (deletesByFile.containsKey(f.location())) {
                deletes.put(f.location(), deletesByFile.get(f.location()));
              }
            });
        groups.add(
            new RewriteGroup(
                firstGroupIndex + groups.size(),
                index,
                runId,
                spec.specId(),
                bin,
                expected,
                deletes));
      }
    }
    Set<String> rewritten = new HashSet<>();
    groups.forEach(g -> g.inputs().forEach(f -> rewritten.add(f.location())));
    List<DeleteFile> obsolete = new ArrayList<>();
    deleteFiles.forEach(
        (key, delete) -> {
          // Only a delete file of the current spec whose partition lies wholly inside the slice
          // can apply to no data file outside this scan; it is obsolete once all are rewritten.
          if (delete.specId() == spec.specId()
              && wholeInside.eval(delete.partition())
              && rewritten.containsAll(appliesTo.get(key))) {
            obsolete.add(delete);
          }
        });
    String nothingToDo =
        groups.isEmpty()
            ? nothingToDo(
                    all.size(), candidatesByPartition, skippedOtherSpec, skippedNotProvablyInside)
                + (sortColumn.isPresent()
                    ? ", and no partition's files overlap on sort column "
                        + table.schema().findColumnName(sortColumn.get().fieldId())
                    : "")
            : null;
    return new PlannedSlice(
        index, value, slice, runId, FileStats.of(all), groups, nothingToDo, obsolete);
  }

  private static List<DataFile> sortedByLocation(List<DataFile> files) {
    List<DataFile> sorted = new ArrayList<>(files);
    sorted.sort(Comparator.comparing(DataFile::location));
    return sorted;
  }

  /** A delete file's identity: deletion vectors share a Puffin file, one blob each. */
  static String key(DeleteFile delete) {
    return delete.contentOffset() == null
        ? delete.location()
        : delete.location() + "@" + delete.contentOffset();
  }

  /**
   * Whether delete files make {@code file} worth rewriting whatever its size ({@link DeletedRows}).
   */
  static boolean deletesOverThreshold(
      DataFile file, List<DeleteFile> deletes, DeleteThresholds thresholds) {
    return DeletedRows.overThreshold(
        file, deletes, thresholds.deleteFiles(), thresholds.deletedRatio());
  }

  /**
   * Splits one partition's small files into as many bins as files of the target size their bytes
   * fill ({@link MaintenancePolicy#expectedFiles}, rounded, as the plan counts them), each bin
   * about equally full (largest file first into the emptiest bin), so that one large partition is
   * still rewritten by parallel tasks. A bin left with a single file is dropped: rewriting one file
   * alone gains nothing.
   */
  static List<List<DataFile>> bins(List<DataFile> files, long target) {
    return bins(files, target, Set.of());
  }

  /**
   * As {@link #bins(List, long)}, but a bin holding one file selected for its delete files is kept:
   * rewriting it alone applies its deletes.
   */
  static List<List<DataFile>> bins(List<DataFile> files, long target, Set<String> forDeletes) {
    long bytes = files.stream().mapToLong(DataFile::fileSizeInBytes).sum();
    int count =
        (int)
            Math.max(
                1,
                Math.min(
                    forDeletes.isEmpty() ? files.size() / 2 : files.size(),
                    MaintenancePolicy.expectedFiles(bytes, target)));
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
    bins.removeIf(
        bin -> bin.isEmpty() || (bin.size() < 2 && !forDeletes.contains(bin.get(0).location())));
    bins.forEach(bin -> bin.sort(Comparator.comparing(DataFile::location)));
    return bins;
  }

  /**
   * Packs one partition's files into bins of at most {@link RowLayout#MAX_GROUP_BYTES} file bytes
   * and {@link GroupHeap#MAX_GROUP_HEAP_BYTES} estimated heap ({@code rowBytes} per row), first
   * fit, largest file first: for layouts that hold a group's rows in memory. A file over a cap gets
   * a bin of its own. A bin left with a single file is dropped unless that file was selected for
   * its delete files.
   */
  static List<List<DataFile>> cappedBins(
      List<DataFile> files, long rowBytes, Set<String> forDeletes) {
    List<DataFile> largestFirst = new ArrayList<>(files);
    largestFirst.sort(
        Comparator.comparingLong(DataFile::fileSizeInBytes)
            .reversed()
            .thenComparing(DataFile::location));
    List<List<DataFile>> bins = new ArrayList<>();
    List<long[]> filled = new ArrayList<>(); // bytes, estimated heap
    for (DataFile file : largestFirst) {
      long heap = file.recordCount() * rowBytes;
      int fit = -1;
      for (int i = 0; i < bins.size() && fit < 0; i++) {
        if (filled.get(i)[0] + file.fileSizeInBytes() <= RowLayout.MAX_GROUP_BYTES
            && filled.get(i)[1] + heap <= GroupHeap.MAX_GROUP_HEAP_BYTES) {
          fit = i;
        }
      }
      if (fit < 0) {
        bins.add(new ArrayList<>());
        filled.add(new long[2]);
        fit = bins.size() - 1;
      }
      bins.get(fit).add(file);
      filled.get(fit)[0] += file.fileSizeInBytes();
      filled.get(fit)[1] += heap;
    }
    bins.removeIf(bin -> bin.size() < 2 && !forDeletes.contains(bin.get(0).location()));
    bins.forEach(bin -> bin.sort(Comparator.comparing(DataFile::location)));
    return bins;
  }

  private static String nothingToDo(
      int files,
      Map<String, List<DataFile>> candidatesByPartition,
      int skippedOtherSpec,
      int skippedNotProvablyInside) {
    if (files == 0) {
      return "the slice has no data files";
    }
    StringBuilder reason = new StringBuilder();
    int small = candidatesByPartition.values().stream().mapToInt(List::size).sum();
    boolean skipped = skippedOtherSpec + skippedNotProvablyInside > 0;
    reason.append(
        small == 0
            ? skipped
                ? "no file it may rewrite is small (below 3/4 of the target size)"
                : "no file is small (below 3/4 of the target size)"
            : "no partition has two or more small files (below 3/4 of the target size)");
    if (skippedOtherSpec > 0) {
      reason
          .append("; ")
          .append(skippedOtherSpec)
          .append(" small file(s) of an older partition spec kept");
    }
    if (skippedNotProvablyInside > 0) {
      // Iceberg's strict projection of a time transform is inexact before 1970, so a partition
      // there is never proven to lie inside the slice.
      reason
          .append("; ")
          .append(skippedNotProvablyInside)
          .append(
              " small file(s) kept whose partition Iceberg cannot prove lies wholly inside the"
                  + " slice (its projections of time partitions before 1970 are inexact)");
    }
    return reason.toString();
  }
}
