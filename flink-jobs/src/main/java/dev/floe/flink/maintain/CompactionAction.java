package dev.floe.flink.maintain;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.maintain.ActionOutcome;
import dev.floe.catalog.maintain.MaintenanceAction;
import dev.floe.catalog.maintain.MaintenanceReport;
import dev.floe.catalog.maintain.TableStats;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotParser;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.util.PropertyUtil;

/**
 * {@code floe maintain --compact --slice ...} as one of the command's {@link MaintenanceAction}s:
 * table numbers before and after around a {@link Compaction}. After {@link #run}, {@link
 * #exitCode()} says whether a slice failed (the report itself has no exit code).
 */
public final class CompactionAction implements MaintenanceAction {
  /**
   * What a dry run can only estimate: bytes of the new data files and metadata files (a dry run
   * writes none of them).
   */
  static final Set<String> ALWAYS_ESTIMATED =
      Set.of("dataFiles", "deleteFiles", "dataBytes", "metadataBytes");

  /** What a dry run estimates when Iceberg may merge manifests: the metadata counts too. */
  static final Set<String> ESTIMATED =
      Set.of(
          "dataFiles", "deleteFiles", "dataBytes", "manifests", "metadataFiles", "metadataBytes");

  private final CatalogConfig catalog;
  private final String table;
  private final Compaction compaction;
  private CompactionResult result;

  private CompactionAction(CatalogConfig catalog, String table, Compaction compaction) {
    this.catalog = catalog;
    this.table = table;
    this.compaction = compaction;
  }

  /**
   * @param compaction configured with slices (and optionally target size and parallelism)
   */
  public static CompactionAction of(CatalogConfig catalog, String table, Compaction compaction) {
    return new CompactionAction(catalog, table, compaction);
  }

  @Override
  public String name() {
    return "compact";
  }

  @Override
  public void check() {
    compaction.check();
  }

  @Override
  public MaintenanceReport run(boolean dryRun) {
    if (!dryRun) {
      // The catalog is not held open through the compaction's Flink job.
      TableStats before = stats();
      result = compaction.commit();
      return new MaintenanceReport(name(), false, before, stats(), Set.of(), new Outcome(result));
    }
    Catalog opened = Catalogs.open(catalog);
    try {
      Table loaded = Catalogs.loadTable(opened, table);
      TableStats before = TableStats.of(loaded);
      result = compaction.apply();
      // Planned from the snapshot just read, unless a commit landed in between: then the model
      // starts from other manifests, and nothing of it is exact.
      Prediction prediction = predicted(loaded, before, result);
      boolean sameBase =
          result.baseSnapshotId() == null
              || loaded.currentSnapshot() != null
                  && result.baseSnapshotId() == loaded.currentSnapshot().snapshotId();
      return new MaintenanceReport(
          name(),
          true,
          before,
          prediction.after(),
          sameBase ? prediction.estimated() : ESTIMATED,
          new Outcome(result));
    } finally {
      Catalogs.close(opened);
    }
  }

  private TableStats stats() {
    Catalog opened = Catalogs.open(catalog);
    try {
      return TableStats.of(Catalogs.loadTable(opened, table));
    } finally {
      Catalogs.close(opened);
    }
  }

  /** The exit code of the last run: 0 unless a slice failed, see {@link CompactionResult}. */
  public int exitCode() {
    return result == null ? 0 : result.exitCode();
  }

  /** The last run's result, or null before {@link #run}. */
  public CompactionResult result() {
    return result;
  }

  /**
   * The table after one {@code RewriteFiles} commit per slice to compact, as Iceberg writes it
   * (measured on Iceberg 1.11). Each commit adds:
   *
   * <ul>
   *   <li>one snapshot and one manifest list (as large as the current one);
   *   <li>one manifest for the new data files (as large as the line through the current data
   *       manifests' (entries, length) puts it, or their mean length);
   *   <li>a new copy of every manifest that holds a file it removes (the rewritten data files, the
   *       delete files that no longer apply), as large as the one it replaces; a copy left without
   *       live files stays in that commit and is dropped by the next one, as is every such manifest
   *       of the current snapshot;
   *   <li>to the current metadata.json, the entry of the snapshot (as large as the current one's),
   *       its snapshot log entry and a metadata log entry.
   * </ul>
   *
   * <p>Data bytes: the rewritten files' bytes less the per-file overhead of the files saved ({@link
   * PlannedSlice#expectedOutputBytes()}). Snapshots, data and delete files and, where the model is
   * exact, manifests and metadata files are predictions; {@link Prediction#estimated()} names the
   * rest: always the data files (a writer may roll a file over early) and the delete files (Iceberg
   * may drop deletes no file needs any more in the same commit). Manifests and metadata files are
   * not exact when Iceberg may merge manifests (as many as the table's {@value
   * TableProperties#MANIFEST_MIN_MERGE_COUNT}, 100 by default, or more bytes of them than its
   * {@value TableProperties#MANIFEST_TARGET_SIZE_BYTES}) or a removed file's manifest is unknown.
   */
  static Prediction predicted(Table table, TableStats before, CompactionResult result) {
    Snapshot current = table.currentSnapshot();
    if (current == null) {
      return new Prediction(before, Set.of());
    }
    FileIO io = table.io();
    // Live files per manifest of the current snapshot; one without any goes with the next commit.
    Map<String, Long> live = new HashMap<>();
    Map<String, Long> length = new HashMap<>();
    Set<String> emptied = new HashSet<>();
    List<ManifestSize> dataManifests = new ArrayList<>();
    for (ManifestFile manifest : current.allManifests(io)) {
      long files = count(manifest.addedFilesCount()) + count(manifest.existingFilesCount());
      live.put(manifest.path(), files);
      length.put(manifest.path(), manifest.length());
      if (!manifest.hasAddedFiles() && !manifest.hasExistingFiles()) {
        emptied.add(manifest.path());
      }
      if (manifest.content() == ManifestContent.DATA) {
        dataManifests.add(
            new ManifestSize(files + count(manifest.deletedFilesCount()), manifest.length()));
      }
    }
    long listBytes =
        current.manifestListLocation() == null
            ? 0
            : io.newInputFile(current.manifestListLocation()).getLength();
    TableMetadata metadata = ((HasTableOperations) table).operations().current();
    long metadataJsonGrowth =
        SnapshotParser.toJson(current).length()
            + "{\"timestamp-ms\":1234567890123,\"snapshot-id\":1234567890123456789},".length()
            + "{\"timestamp-ms\":1234567890123,\"metadata-file\":\"\"},".length()
            + (metadata.metadataFileLocation() == null
                ? 0
                : metadata.metadataFileLocation().length());
    boolean mayMerge =
        PropertyUtil.propertyAsBoolean(
            table.properties(),
            TableProperties.MANIFEST_MERGE_ENABLED,
            TableProperties.MANIFEST_MERGE_ENABLED_DEFAULT);
    int minMerge =
        PropertyUtil.propertyAsInt(
            table.properties(),
            TableProperties.MANIFEST_MIN_MERGE_COUNT,
            TableProperties.MANIFEST_MIN_MERGE_COUNT_DEFAULT);
    // Iceberg bin-packs a spec's manifests to this size and merges every bin of two or more but
    // the one holding the new manifest, which it keeps until it counts minMerge.
    long mergeTarget =
        PropertyUtil.propertyAsLong(
            table.properties(),
            TableProperties.MANIFEST_TARGET_SIZE_BYTES,
            TableProperties.MANIFEST_TARGET_SIZE_BYTES_DEFAULT);
    long manifestBytes = length.values().stream().mapToLong(Long::longValue).sum();

    boolean exact = true;
    int commits = 0;
    long dataFiles = before.dataFiles();
    long dataBytes = before.dataBytes();
    long deleteFiles = before.deleteFiles();
    int manifests = before.manifests();
    long metadataFiles = before.metadataFiles();
    long metadataBytes = before.metadataBytes();
    for (SliceCompaction slice : result.slices()) {
      if (slice.status() != SliceCompaction.Status.WOULD_COMPACT) {
        continue;
      }
      commits++;
      dataFiles += slice.after().files() - slice.before().files();
      dataBytes += slice.after().bytes() - slice.before().bytes();
      deleteFiles -= slice.removedDeleteFiles();
      manifests -= emptied.size();
      emptied.clear();
      metadataFiles++; // the manifest list
      metadataBytes += listBytes + metadataJsonGrowth;
      if (slice.expectedOutputFiles() > 0) {
        manifests++;
        metadataFiles++;
        long added = newManifestBytes(dataManifests, slice.expectedOutputFiles());
        metadataBytes += added;
        manifestBytes += added;
      }
      for (Map.Entry<String, Integer> removed : slice.removedByManifest().entrySet()) {
        String path = removed.getKey();
        if (!live.containsKey(path)) {
          exact = false; // not a manifest of the current snapshot: counted as one rewritten
          metadataFiles++;
          continue;
        }
        metadataFiles++;
        metadataBytes += length.get(path);
        long left = live.merge(path, (long) -removed.getValue(), Long::sum);
        if (left <= 0) {
          emptied.add(path);
        }
      }
      if (mayMerge && (manifests >= minMerge || manifestBytes > mergeTarget)) {
        exact = false;
      }
    }
    TableStats after =
        new TableStats(
            before.snapshots() + commits,
            dataFiles,
            dataBytes,
            deleteFiles,
            manifests,
            metadataFiles,
            metadataBytes);
    if (commits == 0) {
      return new Prediction(after, Set.of()); // nothing would commit: "after" is "before"
    }
    Set<String> estimated = new HashSet<>(exact ? ALWAYS_ESTIMATED : ESTIMATED);
    if (before.deleteFiles() == 0) {
      estimated.remove("deleteFiles"); // none to drop
    }
    return new Prediction(after, Set.copyOf(estimated));
  }

  /**
   * A dry run's "after" and the values of it that are estimates ({@link MaintenanceReport#
   * estimated()}).
   */
  record Prediction(TableStats after, Set<String> estimated) {}

  /** A new data manifest of {@code entries} files, by the current data manifests. */
  private static long newManifestBytes(List<ManifestSize> dataManifests, long entries) {
    long[] x = dataManifests.stream().mapToLong(ManifestSize::entries).toArray();
    long[] y = dataManifests.stream().mapToLong(ManifestSize::length).toArray();
    LinearFit fit = LinearFit.of(x, y);
    if (fit != null) {
      return fit.at(entries);
    }
    return (long) java.util.Arrays.stream(y).average().orElse(0);
  }

  /** A data manifest's entries (live and deleted) and its length in bytes. */
  private record ManifestSize(long entries, long length) {}

  private static long count(Integer value) {
    return value == null ? 0 : value;
  }

  private record Outcome(CompactionResult result) implements ActionOutcome {
    @Override
    public boolean changed() {
      return result.slices().stream().anyMatch(s -> s.status() == SliceCompaction.Status.COMPACTED);
    }

    @Override
    public List<String> lines() {
      return CompactionReport.lines(result);
    }

    @Override
    public Map<String, Object> details() {
      // Under its own key: `floe maintain --json` already has "before"/"after" table numbers.
      return Map.of("compaction", CompactionReport.toMap(result));
    }
  }
}
