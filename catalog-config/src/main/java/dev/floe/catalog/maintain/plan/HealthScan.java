package dev.floe.catalog.maintain.plan;

import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.lineage.StoredRows;
import dev.floe.catalog.maintain.BinFile;
import dev.floe.catalog.maintain.CompactionBins;
import dev.floe.catalog.maintain.DeleteFileKeys;
import dev.floe.catalog.maintain.DeletedRows;
import dev.floe.catalog.maintain.Expire;
import dev.floe.catalog.maintain.ExpirePlan;
import dev.floe.catalog.maintain.GroupHeap;
import dev.floe.catalog.maintain.ManifestCache;
import dev.floe.catalog.maintain.OrphanFile;
import dev.floe.catalog.maintain.OrphanFiles;
import dev.floe.catalog.maintain.OrphanFilesPlan;
import dev.floe.catalog.maintain.SortKeyOverlap;
import dev.floe.catalog.slice.PartitionPaths;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.spec.MaintenancePolicy;
import dev.floe.catalog.window.LateDataWindow;
import dev.floe.catalog.window.WindowState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ContentFileUtil;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Reads one table's {@link TableHealth} from metadata: the current snapshot's manifests (file
 * sizes, row counts, the delete files Iceberg attaches to each data file), the snapshot log with
 * the table's retention, and a listing of the table location for orphans. No data file is opened.
 *
 * <p>A slice is <em>open</em> (left alone unless asked) when its late-data window has not passed
 * yet (only for a table with a window: without one, slices never seal and would never be
 * maintained), when unreferenced files younger than the orphan minimum age lie in one of its
 * partitions (a run or backfill is writing it right now: exactly the files orphan removal also
 * spares), when a run of it waits on an audit branch, or when the orphan listing or the expiry plan
 * of the table failed (then nothing tells which partitions are being written).
 */
public final class HealthScan {
  private HealthScan() {}

  /**
   * @param table the table, freshly loaded
   * @param name its name
   * @param clock "now" for retention, file ages and late-data windows
   * @throws dev.floe.catalog.error.InvalidInputException when its policy properties cannot be read
   */
  public static TableHealth of(Table table, String name, Clock clock) {
    return of(table, name, clock, Map.of());
  }

  /**
   * As {@link #of(Table, String, Clock)}, with table properties overridden for this scan alone
   * (what an operator's flag, such as {@code --target-file-size}, sets for one command).
   */
  public static TableHealth of(
      Table table, String name, Clock clock, Map<String, String> propertyOverrides) {
    Map<String, String> properties = new HashMap<>(table.properties());
    properties.putAll(propertyOverrides);
    MaintenancePolicy policy = MaintenancePolicy.of(properties);
    long target = policy.targetFileSizeBytes(properties);
    Instant now = clock.instant();
    List<String> problems = new ArrayList<>();
    // Orphans and expiry read the same manifests (most are shared by every snapshot): once each.
    ManifestCache manifestCache = ManifestCache.create();

    // Unreferenced files: old ones are orphans, young ones mark partitions being written.
    long orphanFiles = -1;
    long orphanBytes = 0;
    List<OrphanFile> young = List.of();
    try {
      OrphanFilesPlan orphans =
          OrphanFiles.of(table, name).clock(clock).manifestCache(manifestCache).listing();
      // With gc.enabled=false old unreferenced files may be another table's: never work to plan.
      boolean deletable = OrphanFiles.gcEnabled(table);
      orphanFiles = deletable ? orphans.orphans().size() : 0;
      orphanBytes =
          deletable ? orphans.orphans().stream().mapToLong(OrphanFile::sizeBytes).sum() : 0;
      young = orphans.youngOrphans();
    } catch (FloeException | IllegalArgumentException e) {
      problems.add("orphans unknown: " + e.getMessage());
    }

    int beyondRetention = 0;
    int expirableFiles = 0;
    // With gc.enabled=false Iceberg refuses expiry (its files may be another table's): no work.
    if (policy.retention().isPresent() && OrphanFiles.gcEnabled(table)) {
      try {
        ExpirePlan expire =
            Expire.of(table, name).clock(clock).manifestCache(manifestCache).apply();
        beyondRetention = expire.expired().size();
        expirableFiles = expire.filesToDelete().size();
      } catch (FloeException | IllegalArgumentException e) {
        problems.add("expiry unknown: " + e.getMessage());
      }
    }

    Snapshot current = table.currentSnapshot();
    List<SliceHealth> slices = List.of();
    int dataManifests = 0;
    long dataManifestBytes = 0;
    int partitions = 0;
    if (current != null) {
      List<ManifestFile> manifests = current.dataManifests(table.io());
      dataManifests = manifests.size();
      dataManifestBytes = manifests.stream().mapToLong(ManifestFile::length).sum();
      Optional<Types.NestedField> sortColumn =
          policy.strategy() == MaintenancePolicy.Strategy.SORT
              ? SortKeyOverlap.column(table)
              : Optional.empty();
      AcceptedSlices accepted = AcceptedSlices.of(table);
      Scan scan = scanFiles(table, accepted, policy, target, sortColumn);
      positionDeletes(table, accepted, current, scan);
      partitions = scan.partitions.size();
      // Without a listing (or an expiry plan) nothing says which partitions are being written:
      // every slice counts as open rather than as safe to compact.
      String unknown =
          problems.isEmpty()
              ? null
              : "state unknown, its files could not be listed: " + String.join("; ", problems);
      slices = slices(table, name, accepted, scan, young, unknown, now, policy, target, sortColumn);
    }
    return new TableHealth(
        name,
        policy,
        target,
        slices,
        size(table.snapshots()),
        beyondRetention,
        expirableFiles,
        dataManifests,
        dataManifestBytes,
        PropertyUtil.propertyAsLong(
            table.properties(),
            TableProperties.MANIFEST_TARGET_SIZE_BYTES,
            TableProperties.MANIFEST_TARGET_SIZE_BYTES_DEFAULT),
        partitions,
        orphanFiles,
        orphanBytes,
        lastMaintenance(table),
        problems,
        TableUtil.formatVersion(table));
  }

  /** Per-slice sums while scanning, keyed by slice text ("" for no slice). */
  private static final class Totals {
    Slice slice;
    long files;
    long bytes;
    long rows;
    long small;
    long smallBytes;
    // Per partition (keyed as compaction groups: PartitionPaths): current-spec small files.
    final Map<String, Long> smallByPartition = new HashMap<>();
    // Delete files of the slice's data files, of any spec (DeleteFileKeys) -> the rows they delete.
    final Map<String, Long> deleteFiles = new HashMap<>();
    // Those a compaction of the slice may remove, as CompactionPlanner decides: of the current
    // spec, in a partition wholly inside the slice. It removes them once it rewrites every data
    // file they apply to (Scan.deleteTargets).
    final Set<String> removableDeletes = new HashSet<>();
    // Per data file in binFiles (its location): the delete files that apply to it, if any.
    final Map<String, List<String>> binFileDeletes = new HashMap<>();
    // The partitions of the current spec wholly inside the slice; read when first needed.
    Evaluator wholeInside;
    long overThreshold;
    long overThresholdBytes;
    long otherSpecSmall;
    // Strategy sort: current-spec files per partition, with the sort column's bounds.
    final Map<String, List<DataFile>> sortFiles = new HashMap<>();
    // Per partition, what CompactionBins groups: binpack, the current-spec files that are
    // small or selected for their deletes; sort and z-order, every current-spec file (a rewritten
    // partition is rewritten whole).
    final Map<String, List<BinFile>> binFiles = new TreeMap<>();
    // Position delete files (not deletion vectors) of the current spec, per partition:
    // {files, bytes}, as the position-delete rewrite groups them.
    final Map<String, long[]> positionDeletes = new TreeMap<>();
  }

  private static final class Scan {
    final Map<String, Totals> bySlice = new TreeMap<>();
    // Partition keys (PartitionPaths): what compaction groups files by.
    final Set<String> partitions = new HashSet<>();
    // Iceberg's partition path (as in file locations) -> slice key.
    final Map<String, String> locations = new HashMap<>();
    // Delete file (DeleteFileKeys) -> the data files it applies to, of any spec and slice.
    final Map<String, Integer> deleteTargets = new HashMap<>();
  }

  private static Scan scanFiles(
      Table table,
      AcceptedSlices accepted,
      MaintenancePolicy policy,
      long target,
      Optional<Types.NestedField> sortColumn) {
    Scan scan = new Scan();
    long smallLimit = MaintenancePolicy.smallFileLimit(target);
    TableScan files = table.newScan();
    if (sortColumn.isPresent()) {
      // by its full name: a field inside a struct is "s.a", not "a"
      files =
          files.includeColumnStats(
              List.of(table.schema().findColumnName(sortColumn.get().fieldId())));
    }
    try (CloseableIterable<FileScanTask> tasks = files.planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        PartitionSpec spec = table.specs().get(file.specId());
        Optional<Slice> slice = accepted.of(spec, file.partition());
        String key = slice.map(TimeSlices::text).orElse("");
        Totals totals = scan.bySlice.computeIfAbsent(key, k -> new Totals());
        totals.slice = slice.orElse(null);
        // As compaction groups files (CompactionPlanner): NULL and "null" are two partitions.
        String partitionPath =
            spec.isUnpartitioned() ? "" : PartitionPaths.of(spec, file.partition());
        scan.partitions.add(partitionPath);
        // As Iceberg lays out file locations, to find the young files written into it.
        scan.locations.put(
            spec.isUnpartitioned() ? "" : spec.partitionToPath(file.partition()), key);
        totals.files++;
        totals.bytes += file.fileSizeInBytes();
        totals.rows += file.recordCount();
        List<DeleteFile> deletes = task.deletes();
        List<String> deleteKeys = new ArrayList<>(deletes.size());
        for (DeleteFile delete : deletes) {
          String deleteKey = DeleteFileKeys.of(delete);
          deleteKeys.add(deleteKey);
          scan.deleteTargets.merge(deleteKey, 1, Integer::sum);
          // Also those of older-spec files: the slice's before and after count them.
          if (totals.deleteFiles.put(deleteKey, delete.recordCount()) == null
              && removable(table, totals, delete)) {
            totals.removableDeletes.add(deleteKey);
          }
        }
        if (file.specId() != table.spec().specId()) {
          // Compaction rewrites only files of the current spec (it keeps the others): they are
          // counted in the slice, never as work.
          if (file.fileSizeInBytes() < smallLimit) {
            totals.otherSpecSmall++;
          }
          continue;
        }
        sortColumn.ifPresent(
            column ->
                totals
                    .sortFiles
                    .computeIfAbsent(partitionPath, p -> new ArrayList<>())
                    .add(file.copyWithStats(Set.of(column.fieldId()))));
        boolean small = file.fileSizeInBytes() < smallLimit;
        if (small) {
          totals.small++;
          totals.smallBytes += file.fileSizeInBytes();
          totals.smallByPartition.merge(partitionPath, 1L, Long::sum);
        }
        boolean forDeletes =
            DeletedRows.overThreshold(
                file, deletes, policy.deleteFileThreshold(), policy.deletedRowRatio());
        if (forDeletes) {
          totals.overThreshold++;
          totals.overThresholdBytes += file.fileSizeInBytes();
        }
        if (small || forDeletes || policy.strategy() != MaintenancePolicy.Strategy.BINPACK) {
          totals
              .binFiles
              .computeIfAbsent(partitionPath, p -> new ArrayList<>())
              .add(BinFile.of(file, forDeletes));
          if (!deleteKeys.isEmpty()) {
            totals.binFileDeletes.put(file.location(), deleteKeys);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return scan;
  }

  /**
   * Whether a compaction of the slice of {@code totals} may remove {@code delete}, as {@code
   * CompactionPlanner} decides: a delete file of the current spec whose partition lies wholly
   * inside the slice applies to no data file outside it.
   */
  private static boolean removable(Table table, Totals totals, DeleteFile delete) {
    if (totals.slice == null || delete.specId() != table.spec().specId()) {
      return false;
    }
    if (totals.wholeInside == null) {
      totals.wholeInside = TimeSlices.wholeInside(table.spec(), totals.slice);
    }
    return totals.wholeInside.eval(delete.partition());
  }

  /**
   * The current snapshot's position delete files (not deletion vectors) of the current spec, per
   * slice and partition, read from the delete manifests as {@code floe maintain
   * --rewrite-position-deletes} reads them (a file naming only removed data files counts too).
   */
  private static void positionDeletes(
      Table table, AcceptedSlices accepted, Snapshot current, Scan scan) {
    PartitionSpec spec = table.spec();
    for (ManifestFile manifest : current.deleteManifests(table.io())) {
      try (ManifestReader<DeleteFile> reader =
          ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
        for (DeleteFile delete : reader) {
          if (delete.content() != FileContent.POSITION_DELETES
              || ContentFileUtil.isDV(delete)
              || delete.specId() != spec.specId()) {
            continue;
          }
          Optional<Slice> slice = accepted.of(spec, delete.partition());
          String key = slice.map(TimeSlices::text).orElse("");
          Totals totals = scan.bySlice.computeIfAbsent(key, k -> new Totals());
          totals.slice = slice.orElse(null);
          String partition =
              spec.isUnpartitioned() ? "" : PartitionPaths.of(spec, delete.partition());
          scan.partitions.add(partition);
          scan.locations.putIfAbsent(
              spec.isUnpartitioned() ? "" : spec.partitionToPath(delete.partition()), key);
          long[] partitionDeletes =
              totals.positionDeletes.computeIfAbsent(partition, p -> new long[2]);
          partitionDeletes[0]++;
          partitionDeletes[1] += delete.fileSizeInBytes();
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static List<SliceHealth> slices(
      Table table,
      String name,
      AcceptedSlices accepted,
      Scan scan,
      List<OrphanFile> young,
      String unknown,
      Instant now,
      MaintenancePolicy policy,
      long target,
      Optional<Types.NestedField> sortColumn) {
    Map<String, Long> writing = new HashMap<>();
    for (OrphanFile file : young) {
      for (Map.Entry<String, String> partition : scan.locations.entrySet()) {
        if (!partition.getKey().isEmpty()
            && file.location().contains("/" + partition.getKey() + "/")) {
          writing.merge(partition.getValue(), 1L, Long::sum);
        }
      }
    }
    Map<String, String> audited = auditedSlices(table);
    LateDataWindow window = LateDataWindow.of(table, name);
    List<SliceHealth> slices = new ArrayList<>();
    for (Map.Entry<String, Totals> entry : scan.bySlice.entrySet()) {
      Totals t = entry.getValue();
      String open = unknown;
      if (open == null && t.slice != null) {
        Long files = writing.get(entry.getKey());
        String audit = auditIn(audited, t.slice);
        if (files != null) {
          // A killed run's or compaction's files look the same until they age: say the way out.
          open =
              "being written: "
                  + files
                  + " uncommitted file(s) younger than the orphan minimum age in its partitions"
                  + " (a killed run leaves such files too: with no writer running, `floe maintain "
                  + ShellWord.of(name)
                  + " --compact --slice "
                  + entry.getKey()
                  + "` compacts it now)";
        } else if (audit != null) {
          open = audit;
        } else if (window.policy().isPresent() && window.state(t.slice, now) == WindowState.OPEN) {
          open = "late-data window open until " + window.sealsAt(t.slice).orElseThrow();
        }
      }
      long deletedRows = t.deleteFiles.values().stream().mapToLong(Long::longValue).sum();
      long overlapping = 0;
      long overlappingFiles = 0;
      long overlappingBytes = 0;
      boolean reorders = policy.strategy() != MaintenancePolicy.Strategy.BINPACK;
      long rowBytes = GroupHeap.bytesPerRow(StoredRows.schema(table));
      long smallByPartition =
          t.smallByPartition.values().stream().mapToLong(Long::longValue).max().orElse(0);
      // What a compaction of the slice rewrites and writes, once it runs whatever made it due:
      // the bins of the rule compaction groups by (CompactionPlanner), so the plan counts no file
      // the bins leave out, and no bin the caps keep from forming.
      long rewriteFiles = 0;
      long rewriteBytes = 0;
      long rewriteOutputs = 0;
      // Delete file -> the data files it applies to that the bins rewrite.
      Map<String, Integer> rewrittenTargets = new HashMap<>();
      for (Map.Entry<String, List<BinFile>> partition : t.binFiles.entrySet()) {
        List<BinFile> files = partition.getValue();
        List<List<BinFile>> bins;
        if (reorders) {
          // Strategy sort: whether the files overlap on the sort column, compared once.
          List<DataFile> bounds = t.sortFiles.getOrDefault(partition.getKey(), List.of());
          Boolean[] overlaps = new Boolean[1];
          BooleanSupplier overlap =
              () -> {
                if (overlaps[0] == null) {
                  overlaps[0] =
                      sortColumn.isPresent()
                          && SortKeyOverlap.overlaps(table, bounds, sortColumn.get());
                }
                return overlaps[0];
              };
          // Without the overlap: rewritten for its small files or a file chosen for its deletes.
          List<List<BinFile>> withoutOverlap =
              CompactionBins.ordered(files, target, rowBytes, () -> false);
          long small = t.smallByPartition.getOrDefault(partition.getKey(), 0L);
          // For the reason: partitions re-sorted for overlap that small files alone would not get
          // compacted (too few of them, or not written into fewer files).
          if ((small < policy.minInputFiles() || withoutOverlap.isEmpty())
              && CompactionBins.fitsOneGroup(files, rowBytes)
              && overlap.getAsBoolean()) {
            overlapping++;
            overlappingFiles += files.size();
            overlappingBytes += CompactionBins.bytes(files);
          }
          bins =
              withoutOverlap.isEmpty()
                  ? CompactionBins.ordered(files, target, rowBytes, overlap)
                  : withoutOverlap;
        } else {
          bins = CompactionBins.binpack(files, target);
        }
        for (List<BinFile> bin : bins) {
          rewriteFiles += bin.size();
          rewriteBytes += CompactionBins.bytes(bin);
          rewriteOutputs += CompactionBins.outputs(bin, target);
          for (BinFile file : bin) {
            for (String delete : t.binFileDeletes.getOrDefault(file.location(), List.of())) {
              rewrittenTargets.merge(delete, 1, Integer::sum);
            }
          }
        }
      }
      // The delete files compaction removes: those all of whose data files it rewrites.
      long removedDeletes =
          rewrittenTargets.entrySet().stream()
              .filter(
                  d ->
                      t.removableDeletes.contains(d.getKey())
                          && d.getValue().equals(scan.deleteTargets.get(d.getKey())))
              .count();
      long positionDeleteFiles = 0;
      long mergeableFiles = 0;
      long mergeablePartitions = 0;
      long mergeableBytes = 0;
      for (long[] partition : t.positionDeletes.values()) {
        positionDeleteFiles += partition[0];
        if (partition[0] >= 2) {
          // PositionDeleteRewrite merges a partition's files into one.
          mergeableFiles += partition[0];
          mergeablePartitions++;
          mergeableBytes += partition[1];
        }
      }
      slices.add(
          new SliceHealth(
              t.slice == null ? Optional.empty() : Optional.of(entry.getKey()),
              t.files,
              t.bytes,
              t.rows,
              t.small,
              t.smallBytes,
              smallByPartition,
              t.deleteFiles.size(),
              deletedRows,
              removedDeletes,
              t.overThreshold,
              t.overThresholdBytes,
              t.otherSpecSmall,
              Optional.ofNullable(open),
              sortColumn.map(c -> table.schema().findColumnName(c.fieldId())),
              overlapping,
              overlappingFiles,
              overlappingBytes,
              rewriteFiles,
              rewriteBytes,
              rewriteOutputs,
              positionDeleteFiles,
              mergeableFiles,
              mergeablePartitions,
              mergeableBytes,
              mayHaveWork(t) && t.slice != null
                  ? accepted.refusal(table, name, t.slice)
                  : Optional.empty()));
    }
    return slices;
  }

  /** Whether a compaction or position-delete rewrite of the slice could be planned at all. */
  private static boolean mayHaveWork(Totals t) {
    return t.small >= 2
        || t.overThreshold > 0
        || !t.positionDeletes.isEmpty()
        || t.sortFiles.values().stream().anyMatch(files -> files.size() >= 2);
  }

  /**
   * Why a run waiting on an audit branch keeps {@code slice} open: a run of the slice, or of one
   * that overlaps it (a day of a month the plan names); null when none waits.
   */
  private static String auditIn(Map<String, String> audited, Slice slice) {
    for (Map.Entry<String, String> run : audited.entrySet()) {
      if (run.getKey().equals(slice.label())) {
        return "a run of it waits on audit branch " + run.getValue();
      }
    }
    for (Map.Entry<String, String> run : audited.entrySet()) {
      if (Slice.labelsOverlap(run.getKey(), slice.label())) {
        return "a run of " + run.getKey() + " waits on audit branch " + run.getValue();
      }
    }
    return null;
  }

  /** Slice label -> audit branch, for runs waiting to be published. */
  private static Map<String, String> auditedSlices(Table table) {
    Map<String, String> audited = new HashMap<>();
    for (Map.Entry<String, SnapshotRef> ref : table.refs().entrySet()) {
      if (ref.getKey().startsWith("audit-") && ref.getValue().isBranch()) {
        Snapshot head = table.snapshot(ref.getValue().snapshotId());
        String label =
            head == null || head.summary() == null ? null : head.summary().get(LineageKeys.SLICE);
        if (label != null) {
          audited.put(label, ref.getKey());
        }
      }
    }
    return audited;
  }

  private static Optional<Instant> lastMaintenance(Table table) {
    long newest = -1;
    for (Snapshot snapshot : table.snapshots()) {
      if (DataOperations.REPLACE.equals(snapshot.operation())) {
        newest = Math.max(newest, snapshot.timestampMillis());
      }
    }
    return newest < 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(newest));
  }

  private static int size(Iterable<?> items) {
    int n = 0;
    for (Object ignored : items) {
      n++;
    }
    return n;
  }
}
