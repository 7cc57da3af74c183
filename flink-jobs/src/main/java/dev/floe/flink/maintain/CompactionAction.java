package dev.floe.flink.maintain;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.maintain.ActionOutcome;
import dev.floe.catalog.maintain.MaintenanceAction;
import dev.floe.catalog.maintain.MaintenanceReport;
import dev.floe.catalog.maintain.TableStats;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.catalog.Catalog;

/**
 * {@code floe maintain --compact --slice ...} as one of the command's {@link MaintenanceAction}s:
 * table numbers before and after around a {@link Compaction}. After {@link #run}, {@link
 * #exitCode()} says whether a slice failed (the report itself has no exit code).
 */
public final class CompactionAction implements MaintenanceAction {
  /** What a dry run can only estimate: bytes of the new files and the metadata they need. */
  static final Set<String> ESTIMATED =
      Set.of("dataBytes", "manifests", "metadataFiles", "metadataBytes");

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
    TableStats before = stats();
    result = dryRun ? compaction.apply() : compaction.commit();
    TableStats after = dryRun ? predicted(before, result) : stats();
    return new MaintenanceReport(
        name(), dryRun, before, after, dryRun ? ESTIMATED : Set.of(), new Outcome(result));
  }

  /** The exit code of the last run: 0 unless a slice failed, see {@link CompactionResult}. */
  public int exitCode() {
    return result == null ? 0 : result.exitCode();
  }

  /** The last run's result, or null before {@link #run}. */
  public CompactionResult result() {
    return result;
  }

  private TableStats stats() {
    Catalog opened = Catalogs.open(catalog);
    try {
      return TableStats.of(Catalogs.loadTable(opened, table));
    } finally {
      Catalogs.close(opened);
    }
  }

  /**
   * One more snapshot per slice to compact, its small files replaced by the expected ones and the
   * delete files that no longer apply removed.
   */
  static TableStats predicted(TableStats before, CompactionResult result) {
    int commits = 0;
    long files = before.dataFiles();
    long deleteFiles = before.deleteFiles();
    for (SliceCompaction slice : result.slices()) {
      if (slice.status() == SliceCompaction.Status.WOULD_COMPACT) {
        commits++;
        files += slice.expectedOutputFiles() - slice.rewritten().files();
        deleteFiles -= slice.removedDeleteFiles();
      }
    }
    return new TableStats(
        before.snapshots() + commits,
        files,
        before.dataBytes(),
        deleteFiles,
        before.manifests(),
        before.metadataFiles(),
        before.metadataBytes());
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
