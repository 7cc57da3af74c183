package dev.floe.flink.maintain;

import dev.floe.catalog.lineage.StoredRows;
import dev.floe.catalog.maintain.BinFile;
import dev.floe.catalog.maintain.CompactionBins;
import dev.floe.catalog.maintain.DeleteFileKeys;
import dev.floe.catalog.maintain.DeletedRows;
import dev.floe.catalog.maintain.GroupHeap;
import dev.floe.catalog.maintain.SortKeyOverlap;
import dev.floe.catalog.maintain.plan.TimeSlices;
import dev.floe.catalog.slice.PartitionPaths;
import dev.floe.catalog.slice.ScopeDeletes;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.spec.MaintenancePolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
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
 * DeleteThresholds}: how many apply, what share of the rows they delete), grouped by partition into
 * bins by {@link CompactionBins}, the rule {@code floe maintain --plan} counts by: a partition is
 * rewritten when it has at least two such files, or one selected by its deletes, and one whose
 * files fill several target-size files is split into groups rewritten in parallel. Each group
 * carries the delete files the scan attached to its files (the rewrite applies them); a delete file
 * all of whose data files are rewritten no longer applies and is removed by the commit.
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
   * RowLayout#MAX_GROUP_BYTES}, else in groups under the caps: {@link CompactionBins#ordered}), so
   * its rows end up ordered across its files; with sort, a partition is also rewritten when its
   * files overlap on the sort key ({@link SortKeyOverlap}).
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
    // Every delete file of a file's rows, also those a slice's filter leaves out: a rewrite that
    // did not apply one would bring its rows back. One read of the snapshot's deletes for all.
    ScopeDeletes scopeDeletes = ScopeDeletes.at(table, baseSnapshotId);
    for (int i = 0; i < slices.size(); i++) {
      PlannedSlice slice =
          planSlice(
              table,
              baseSnapshotId,
              scopeDeletes,
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
      ScopeDeletes scopeDeletes,
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
    ScopeDeletes.Scoped sliceDeletes = scopeDeletes.scope(slice.toExpression());
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file().copyWithoutStats();
        all.add(file);
        List<DeleteFile> taskDeletes = sliceDeletes.of(task);
        for (DeleteFile delete : taskDeletes) {
          String key = DeleteFileKeys.of(delete);
          deleteFiles.putIfAbsent(key, delete.copy());
          appliesTo.computeIfAbsent(key, k -> new HashSet<>()).add(file.location());
        }
        boolean small = file.fileSizeInBytes() < smallLimit;
        boolean forDeletes = deletesOverThreshold(file, taskDeletes, thresholds);
        boolean eligible = file.specId() == spec.specId() && wholeInside.eval(file.partition());
        if (eligible) {
          if (!taskDeletes.isEmpty()) {
            List<DeleteFile> copies = new ArrayList<>();
            taskDeletes.forEach(d -> copies.add(deleteFiles.get(DeleteFileKeys.of(d))));
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
    partitionSet.addAll(partitionFiles.keySet());
    Map<String, DataFile> byLocation = new HashMap<>();
    all.forEach(f -> byLocation.put(f.location(), f));
    long rowBytes = GroupHeap.bytesPerRow(StoredRows.schema(table));
    for (String partition : partitionSet) {
      // The one grouping rule, which the plan (HealthScan) counts by too.
      List<List<BinFile>> bins =
          layout.reorders()
              ? CompactionBins.ordered(
                  binFiles(partitionFiles.getOrDefault(partition, List.of()), selectedForDeletes),
                  target,
                  rowBytes,
                  () ->
                      sortColumn.isPresent()
                          && SortKeyOverlap.overlaps(
                              table,
                              withBounds.getOrDefault(partition, List.of()),
                              sortColumn.get()))
              : CompactionBins.binpack(
                  binFiles(
                      candidatesByPartition.getOrDefault(partition, List.of()), selectedForDeletes),
                  target);
      for (List<BinFile> bin : bins) {
        List<DataFile> inputs = bin.stream().map(f -> byLocation.get(f.location())).toList();
        // The writer writes at most this many (GroupFileWriter), so a bin of two or more small
        // files always gives fewer files; the plan's prediction (HealthScan) uses the same rule.
        int expected = CompactionBins.outputs(bin, target);
        Map<String, List<DeleteFile>> deletes = new HashMap<>();
        inputs.forEach(
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
                inputs,
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
                    all.size(),
                    candidatesByPartition,
                    layout.reorders(),
                    skippedOtherSpec,
                    skippedNotProvablyInside)
                + (sortColumn.isPresent()
                    ? ", and no partition's files overlap on sort column "
                        + table.schema().findColumnName(sortColumn.get().fieldId())
                    : "")
            : null;
    return new PlannedSlice(
        index, value, slice, runId, FileStats.of(all), groups, nothingToDo, obsolete);
  }

  private static List<BinFile> binFiles(List<DataFile> files, Set<String> forDeletes) {
    return files.stream().map(f -> BinFile.of(f, forDeletes.contains(f.location()))).toList();
  }

  /**
   * Whether delete files make {@code file} worth rewriting whatever its size ({@link DeletedRows}).
   */
  static boolean deletesOverThreshold(
      DataFile file, List<DeleteFile> deletes, DeleteThresholds thresholds) {
    return DeletedRows.overThreshold(
        file, deletes, thresholds.deleteFiles(), thresholds.deletedRatio());
  }

  private static String nothingToDo(
      int files,
      Map<String, List<DataFile>> candidatesByPartition,
      boolean reorders,
      int skippedOtherSpec,
      int skippedNotProvablyInside) {
    if (files == 0) {
      return "the slice has no data files";
    }
    StringBuilder reason = new StringBuilder();
    int small = candidatesByPartition.values().stream().mapToInt(List::size).sum();
    boolean twoInOne = candidatesByPartition.values().stream().anyMatch(p -> p.size() >= 2);
    boolean skipped = skippedOtherSpec + skippedNotProvablyInside > 0;
    reason.append(
        small == 0
            ? skipped
                ? "no file it may rewrite is small (below 3/4 of the target size)"
                : "no file is small (below 3/4 of the target size)"
            : reorders && twoInOne
                // CompactionBins.ordered: rewritten for small files only when that lowers the
                // count.
                ? "no partition's small files (below 3/4 of the target size) would be rewritten"
                    + " into fewer files: with the larger files beside them they fill as many"
                    + " target-size files as the partition holds"
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
