package dev.floe.catalog.maintain.plan;

import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.maintain.Bytes;
import dev.floe.catalog.maintain.SortKeyOverlap;
import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.catalog.spec.MaintenancePolicy;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Scores tables against their maintenance policies and ranks the work: {@code floe maintain
 * --plan}. Metadata only (see {@link HealthScan}); changes nothing.
 *
 * <p>Every item's score counts files: small files a compaction replaces minus the files it writes,
 * plus the delete files it removes (those all of whose data files it rewrites), plus the partitions
 * it re-sorts for overlap, or when none of these counts, the files it rewrites for their delete
 * files (after which those no longer apply to their rows); manifests a rewrite merges; snapshots
 * and the files only they keep that expiry removes; orphan files. One unit makes the ranking
 * explainable: the first item is the one that removes the most files.
 */
public final class MaintenancePlanner {
  /** Highest score first; then the cheaper item; then by name, so plans are deterministic. */
  public static final Comparator<PlanItem> RANK =
      Comparator.comparingLong(PlanItem::score)
          .reversed()
          .thenComparingLong(PlanItem::bytesToRewrite)
          .thenComparing(PlanItem::table)
          .thenComparing(PlanItem::action)
          .thenComparing(item -> item.slice().orElse(""));

  /**
   * Tables read at once: the core count, and at least 4, since listing a table location (S3) waits
   * on storage more than on the CPU.
   */
  public static final int DEFAULT_THREADS = Math.max(4, Runtime.getRuntime().availableProcessors());

  private final Clock clock;
  private boolean includeOpen;
  private int threads = DEFAULT_THREADS;
  private Map<String, String> propertyOverrides = Map.of();

  private MaintenancePlanner(Clock clock) {
    this.clock = clock;
  }

  /** A planner judging ages and windows by {@code clock}. */
  public static MaintenancePlanner withClock(Clock clock) {
    return new MaintenancePlanner(clock);
  }

  /** Plan open slices too (a late-data window still open, a run writing or waiting on audit). */
  public MaintenancePlanner includeOpen(boolean value) {
    this.includeOpen = value;
    return this;
  }

  /**
   * Plan as if every table had a target file size of {@code bytes} (an operator's {@code
   * --target-file-size}); null keeps each table's own.
   */
  public MaintenancePlanner targetFileSize(Long bytes) {
    this.propertyOverrides =
        bytes == null ? Map.of() : Map.of(MaintenancePolicy.TARGET_FILE_SIZE, bytes.toString());
    return this;
  }

  /** How many tables are read at once (default {@link #DEFAULT_THREADS}). */
  public MaintenancePlanner threads(int value) {
    InvalidInputException.check(value >= 1, "Cannot plan with %d threads: at least 1", value);
    this.threads = value;
    return this;
  }

  /**
   * The tables a command names: the given names, every table of {@code namespace}, or with {@code
   * all} every table of the catalog; sorted, each once.
   *
   * @throws InvalidInputException when nothing or too much is asked for, or a namespace is unknown
   */
  public static List<String> select(
      Catalog catalog, List<String> names, boolean all, String namespace) {
    int ways = (names.isEmpty() ? 0 : 1) + (all ? 1 : 0) + (namespace == null ? 0 : 1);
    InvalidInputException.check(
        ways == 1,
        "Cannot choose the tables to plan: give TABLE names, --namespace NS or --all (exactly one"
            + " of them), got %s",
        ways == 0 ? "none" : "several");
    TreeSet<String> tables = new TreeSet<>();
    if (!names.isEmpty()) {
      names.forEach(name -> tables.add(Catalogs.identifier(name).toString()));
      return List.copyOf(tables);
    }
    List<Namespace> namespaces = new ArrayList<>();
    if (namespace != null) {
      namespaces.add(Namespace.of(namespace.split("\\.")));
    } else {
      InvalidInputException.check(
          catalog instanceof SupportsNamespaces,
          "Cannot list the tables of catalog %s: it does not list namespaces; name the tables",
          catalog.name());
      collect((SupportsNamespaces) catalog, Namespace.empty(), namespaces);
    }
    for (Namespace ns : namespaces) {
      try {
        for (TableIdentifier id : catalog.listTables(ns)) {
          tables.add(id.toString());
        }
      } catch (org.apache.iceberg.exceptions.NoSuchNamespaceException e) {
        throw InvalidInputException.of(
            "Cannot list the tables of namespace %s: it does not exist", ns);
      }
    }
    return List.copyOf(tables);
  }

  private static void collect(SupportsNamespaces catalog, Namespace parent, List<Namespace> out) {
    for (Namespace child : catalog.listNamespaces(parent)) {
      out.add(child);
      collect(catalog, child, out);
    }
  }

  /** Reads every table and ranks the work; a table that cannot be read is listed, not fatal. */
  public MaintenancePlan plan(Catalog catalog, List<String> tables) {
    long started = System.nanoTime(); // timing for the report only
    List<TableHealth> health = new ArrayList<>();
    Map<String, String> unreadable = new TreeMap<>();
    ExecutorService pool =
        Executors.newFixedThreadPool(Math.min(threads, Math.max(1, tables.size())));
    try {
      List<Future<TableHealth>> scans = new ArrayList<>();
      for (String name : tables) {
        scans.add(
            pool.submit(
                () ->
                    HealthScan.of(
                        Catalogs.loadTable(catalog, name), name, clock, propertyOverrides)));
      }
      for (int i = 0; i < tables.size(); i++) {
        try {
          health.add(scans.get(i).get());
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          unreadable.put(
              tables.get(i), cause.getMessage() == null ? cause.toString() : cause.getMessage());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("Cannot plan maintenance: interrupted", e);
        }
      }
    } finally {
      pool.shutdownNow();
    }
    return plan(health, unreadable, (System.nanoTime() - started) / 1_000_000);
  }

  /** Ranks the work for tables already read. */
  public MaintenancePlan plan(
      List<TableHealth> health, Map<String, String> unreadable, long elapsedMillis) {
    List<PlanItem> items = new ArrayList<>();
    List<LeftOut> leftOut = new ArrayList<>();
    for (TableHealth table : health) {
      for (SliceHealth slice : table.slices()) {
        compaction(table, slice)
            .ifPresent(
                item -> {
                  if (slice.slice().isEmpty()) {
                    leftOut.add(
                        new LeftOut(
                            item,
                            "compaction rewrites one time slice at a time and these files lie in"
                                + " none --slice can name (no time partition, a year outside 0001"
                                + " to 9998, or 1582-10-05 to 1582-10-14) or in an hour, day,"
                                + " month or year before 1970 or among the first two from it,"
                                + " whose partitions Iceberg cannot prove lie inside a slice"));
                  } else if (slice.refused().isPresent()) {
                    leftOut.add(new LeftOut(item, slice.refused().get()));
                  } else if (slice.open().isPresent() && !includeOpen) {
                    leftOut.add(
                        new LeftOut(item, slice.open().get() + " (--include-open plans it)"));
                  } else {
                    items.add(item);
                  }
                });
      }
      for (SliceHealth slice : table.slices()) {
        positionDeletes(table, slice)
            .ifPresent(
                item -> {
                  if (table.formatVersion() >= 3) {
                    leftOut.add(new LeftOut(item, v3Refusal(table, slice)));
                  } else if (slice.slice().isEmpty()) {
                    leftOut.add(
                        new LeftOut(
                            item,
                            "the position-delete rewrite commits one time slice at a time and"
                                + " these files lie in none --slice can name (a null or non-time"
                                + " partition value, a year outside 0001 to 9998, 1582-10-05 to"
                                + " 1582-10-14, or an hour, day, month or year before 1970 or"
                                + " among the first two from it)"));
                  } else if (slice.refused().isPresent()) {
                    leftOut.add(new LeftOut(item, slice.refused().get()));
                  } else if (slice.open().isPresent() && !includeOpen) {
                    leftOut.add(
                        new LeftOut(item, slice.open().get() + " (--include-open plans it)"));
                  } else {
                    items.add(item);
                  }
                });
      }
      for (SliceHealth slice : table.slices()) {
        if (slice.otherSpecSmallFiles() >= table.policy().minInputFiles()) {
          leftOut.add(new LeftOut(olderSpec(table, slice), OLDER_SPEC));
        }
      }
      manifests(table).ifPresent(items::add);
      expiry(table).ifPresent(items::add);
      orphans(table).ifPresent(items::add);
    }
    items.sort(RANK);
    leftOut.sort(Comparator.comparing(LeftOut::item, RANK));
    return new MaintenancePlan(clock.instant(), items, leftOut, health, unreadable, elapsedMillis);
  }

  static Optional<PlanItem> compaction(TableHealth table, SliceHealth slice) {
    MaintenancePolicy policy = table.policy();
    long target = table.targetFileSizeBytes();
    List<String> reasons = new ArrayList<>();
    boolean bySmallFiles = slice.smallFilesByPartition() >= policy.minInputFiles();
    if (bySmallFiles) {
      reasons.add(
          String.format(
              Locale.ROOT,
              "%d small files (< %s), up to %d in one partition >= min_input_files %d",
              slice.smallFiles(),
              Bytes.format(MaintenancePolicy.smallFileLimit(target)),
              slice.smallFilesByPartition(),
              policy.minInputFiles()));
    }
    if (slice.overlappingPartitions() > 0) {
      reasons.add(
          String.format(
              Locale.ROOT,
              "strategy sort: %d partition(s) whose %d files overlap on sort column %s (a"
                  + " partition of at most %s is re-sorted when, ordered by lower bound, a file"
                  + " starts before the previous ones end)",
              slice.overlappingPartitions(),
              slice.overlappingFiles(),
              slice.sortColumn().orElse("?"),
              Bytes.format(SortKeyOverlap.MAX_GROUP_BYTES)));
    }
    boolean deletes = slice.filesOverDeleteThreshold() > 0;
    if (deletes) {
      reasons.add(
          String.format(
              Locale.ROOT,
              "%d data files with >= delete_file_threshold %d delete files, or whose position"
                  + " deletes remove >= deleted_row_ratio %.1f%% of their rows",
              slice.filesOverDeleteThreshold(),
              policy.deleteFileThreshold(),
              100 * policy.deletedRowRatio()));
    }
    if (reasons.isEmpty()) {
      return Optional.empty();
    }
    // What a compaction of the slice does once it runs, whatever made it due: the bins it
    // rewrites (dev.floe.catalog.maintain.CompactionBins: sort and z-order rewrite their
    // partitions whole, binpack the small files of each partition with two or more; both also
    // the files chosen for their deletes), at least one file each.
    long rewrittenFiles = slice.rewrittenFiles();
    long rewrittenBytes = slice.rewrittenBytes();
    long outputs = slice.rewrittenOutputs();
    if (rewrittenFiles == 0) {
      // Due, but no bin forms (say sorted files each over half a group's cap): compaction would
      // rewrite nothing, so planning it would repeat forever.
      return Optional.empty();
    }
    // The delete files it removes: only those all of whose data files it rewrites (as the
    // compaction commit does), not every one of the slice. With any, the item counts data and
    // delete files.
    long removedDeletes = slice.removedDeleteFiles();
    boolean countsDeletes = deletes || removedDeletes > 0;
    // A re-sorted partition removes no file, but counts: it is the work the policy asks for.
    long score =
        Math.max(0, rewrittenFiles - outputs) + removedDeletes + slice.overlappingPartitions();
    if (score == 0) {
      // Files chosen for delete files that all stay (an equality delete of an older spec, or one
      // also applying to a file compaction keeps) remove no file either, but count: the new files
      // keep the base snapshot's data sequence number, after every one of those deletes, so none
      // applies to their rows any more and the files are not chosen again.
      score = slice.filesOverDeleteThreshold();
    }
    if (score <= 0) {
      // Nothing compaction would remove (one small file rewritten into one, say with
      // min_input_files 1 set as a table property): planning it would repeat forever.
      return Optional.empty();
    }
    if (policy.strategy() != MaintenancePolicy.Strategy.BINPACK) {
      reasons.add(
          "strategy "
              + policy.strategy().text()
              + (policy.strategy() == MaintenancePolicy.Strategy.SORT
                  ? ": rows ordered by the table's sort order"
                  : ": rows ordered by z-value of " + String.join(", ", policy.zorderColumns()))
              + "; a rewritten partition is rewritten whole");
    }
    return Optional.of(
        new PlanItem(
            table.table(),
            PlanAction.COMPACT,
            slice.slice(),
            score,
            reasons,
            slice.dataFiles() + (countsDeletes ? slice.deleteFiles() : 0),
            slice.dataFiles()
                - rewrittenFiles
                + outputs
                + (countsDeletes ? slice.deleteFiles() - removedDeletes : 0),
            countsDeletes ? "data + delete files" : "data files",
            rewrittenBytes,
            0));
  }

  /**
   * True when compacting {@code slice} would apply its delete files (removing those all of whose
   * data files it rewrites).
   */
  static boolean compactionAppliesDeletes(SliceHealth slice) {
    return slice.filesOverDeleteThreshold() > 0;
  }

  /**
   * Merging a slice's position delete files, one per partition ({@code floe maintain
   * --rewrite-position-deletes}): planned when a partition holds two or more of them and the
   * deletes are below the policy's thresholds that make compaction apply them (then compaction
   * removes them with the data files it rewrites). Right after the rewrite each partition holds at
   * most one, so the item does not come back. On a v3 table any position delete file (written
   * before an upgrade from v2) is an item the planner reports as refused.
   */
  static Optional<PlanItem> positionDeletes(TableHealth table, SliceHealth slice) {
    MaintenancePolicy policy = table.policy();
    boolean v3 = table.formatVersion() >= 3;
    if (v3 ? slice.positionDeleteFiles() == 0 : slice.mergeablePositionDeleteFiles() == 0) {
      return Optional.empty();
    }
    if (!v3 && compactionAppliesDeletes(slice)) {
      return Optional.empty();
    }
    long removed = slice.mergeablePositionDeleteFiles() - slice.mergeablePartitions();
    String reason =
        v3
            ? String.format(
                Locale.ROOT,
                "%d position delete files (not deletion vectors) on a format v%d table",
                slice.positionDeleteFiles(),
                table.formatVersion())
            : String.format(
                Locale.ROOT,
                "%d position delete files in %d partition(s) holding 2 or more (one each after the"
                    + " rewrite); below what makes compaction apply them: no data file with >="
                    + " delete_file_threshold %d delete files or >= deleted_row_ratio %.1f%% of its"
                    + " rows deleted",
                slice.mergeablePositionDeleteFiles(),
                slice.mergeablePartitions(),
                policy.deleteFileThreshold(),
                100 * policy.deletedRowRatio());
    return Optional.of(
        new PlanItem(
            table.table(),
            PlanAction.REWRITE_POSITION_DELETES,
            slice.slice(),
            removed,
            List.of(reason),
            slice.positionDeleteFiles(),
            slice.positionDeleteFiles() - removed,
            "position delete files",
            slice.mergeablePositionDeleteBytes(),
            0));
  }

  static String v3Refusal(TableHealth table, SliceHealth slice) {
    return String.format(
        Locale.ROOT,
        "refused: %s is format v%d, where position deletes must be deletion vectors, and slice"
            + " %s holds %d position delete file(s) from before the upgrade (Floe writes no"
            + " deletion vectors; Spark's rewrite_position_delete_files turns them into ones)",
        table.table(),
        table.formatVersion(),
        slice.label(),
        slice.positionDeleteFiles());
  }

  static final String OLDER_SPEC =
      "compaction rewrites only files of the table's current partition spec and keeps these";

  /** What compacting the small files of an older partition spec would have been. */
  static PlanItem olderSpec(TableHealth table, SliceHealth slice) {
    return new PlanItem(
        table.table(),
        PlanAction.COMPACT,
        slice.slice(),
        slice.otherSpecSmallFiles() - 1,
        List.of(
            String.format(
                Locale.ROOT,
                "%d small files written with an older partition spec",
                slice.otherSpecSmallFiles())),
        slice.dataFiles(),
        slice.dataFiles() - slice.otherSpecSmallFiles() + 1,
        "data files",
        0,
        0);
  }

  static Optional<PlanItem> manifests(TableHealth table) {
    int max = table.policy().maxManifests();
    if (table.dataManifests() <= max) {
      return Optional.empty();
    }
    long target = Math.max(1, table.manifestTargetBytes());
    long after = Math.max(1, (table.dataManifestBytes() + target - 1) / target);
    after = Math.min(after, table.dataManifests());
    return Optional.of(
        new PlanItem(
            table.table(),
            PlanAction.REWRITE_MANIFESTS,
            Optional.empty(),
            table.dataManifests() - after,
            List.of(
                String.format(
                    Locale.ROOT,
                    "%d data manifests (%s) > max_manifests %d",
                    table.dataManifests(),
                    Bytes.format(table.dataManifestBytes()),
                    max)),
            table.dataManifests(),
            after,
            "data manifests",
            0,
            0));
  }

  static Optional<PlanItem> expiry(TableHealth table) {
    if (table.snapshotsBeyondRetention() == 0) {
      return Optional.empty();
    }
    var retention = table.policy().retention().orElseThrow();
    return Optional.of(
        new PlanItem(
            table.table(),
            PlanAction.EXPIRE,
            Optional.empty(),
            table.expirableFiles(),
            List.of(
                String.format(
                    Locale.ROOT,
                    "%d of %d snapshots are beyond retention (keep_last %s, max_age %s); %d files"
                        + " only they reference",
                    table.snapshotsBeyondRetention(),
                    table.snapshots(),
                    retention.keepLast() == null ? "-" : retention.keepLast(),
                    retention.maxAge() == null ? "-" : FloeTableProperties.iso(retention.maxAge()),
                    table.expirableFiles())),
            table.snapshots(),
            table.snapshots() - table.snapshotsBeyondRetention(),
            "snapshots",
            0,
            0));
  }

  static Optional<PlanItem> orphans(TableHealth table) {
    if (table.orphanFiles() <= 0) {
      return Optional.empty();
    }
    return Optional.of(
        new PlanItem(
            table.table(),
            PlanAction.ORPHANS,
            Optional.empty(),
            table.orphanFiles(),
            List.of(
                String.format(
                    Locale.ROOT,
                    "%d unreferenced files (%s) older than orphan_min_age %s",
                    table.orphanFiles(),
                    Bytes.format(table.orphanBytes()),
                    FloeTableProperties.iso(table.policy().effectiveOrphanMinAge()))),
            table.orphanFiles(),
            0,
            "orphan files",
            0,
            table.orphanBytes()));
  }
}
