package dev.floe.flink.cli;

import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.Timeout;
import dev.floe.catalog.maintain.Bytes;
import dev.floe.catalog.maintain.Expire;
import dev.floe.catalog.maintain.MaintenanceAction;
import dev.floe.catalog.maintain.MaintenanceReport;
import dev.floe.catalog.maintain.ManifestRewrite;
import dev.floe.catalog.maintain.OrphanFiles;
import dev.floe.catalog.maintain.TableStats;
import dev.floe.flink.maintain.Compaction;
import dev.floe.flink.maintain.CompactionAction;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.LongFunction;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * `floe maintain <table> --expire --orphans --rewrite-manifests`: table upkeep, each action
 * printing the table's numbers before and after. The actions are {@link MaintenanceAction}s run in
 * the order {@link #actions} lists them; another action (compaction) plugs in there.
 */
@Command(
    name = "maintain",
    mixinStandardHelpOptions = true,
    description = {
      "Table upkeep: compact the small files of given slices (a Flink job, one commit per",
      "slice, content unchanged), rewrite manifests, expire snapshots by the table's retention,",
      "delete orphan files. Each action prints snapshot count, data files, average data file size and",
      "metadata size before and after. Tagged snapshots, branch heads (audit branches included)",
      "and every file they reference are never removed. With --dry-run nothing changes and",
      "\"after\" is the prediction."
    })
public final class MaintainCommand implements Callable<Integer> {
  static final String ACTION_FLAGS = "--compact, --rewrite-manifests, --expire, --orphans";

  @Mixin CommonOptions common;
  @Mixin FailureInjectionOption failure;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "TABLE", description = "namespace.table")
  String table;

  @Option(
      names = "--expire",
      description =
          "Expire snapshots by the table's retention (table spec `retention: {keep_last,"
              + " max_age}`); a snapshot stays while either limit keeps it.")
  boolean expire;

  @Option(
      names = "--orphans",
      description =
          "Delete files under the table location that nothing references and that are older than"
              + " the minimum age.")
  boolean orphans;

  @Option(
      names = "--orphan-min-age",
      paramLabel = "DURATION",
      description =
          "Minimum age of an orphan file to delete (ISO-8601, at least PT1H, and longer than the"
              + " longest job); default: table property "
              + OrphanFiles.MIN_AGE_PROPERTY
              + ", else P3D.")
  String orphanMinAge;

  @Option(
      names = "--compact",
      description =
          "Compact the small data files of each --slice with a Flink batch job: one commit per"
              + " slice, refused unless the rows read and written hash the same.")
  boolean compact;

  @Option(
      names = "--slice",
      paramLabel = "SLICE",
      split = ",",
      description =
          "A slice to compact, as `floe run --slice` takes it (2026-10-03, 2026-10,"
              + " 2026-10-03T05, or column=value); repeatable or comma-separated.")
  List<String> slices = new ArrayList<>();

  @Option(
      names = "--target-file-size",
      paramLabel = "BYTES",
      description =
          "Compaction: files below this size are small, and outputs aim at it (default: table"
              + " property write.target-file-size-bytes).")
  Long targetFileSize;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      description =
          "Compaction: how long its Flink job may take, e.g. 30m, 2h or PT30M (default: no"
              + " limit). Past it the job is cancelled, no further slice is committed, the files"
              + " of uncommitted slices are deleted and the command exits 6.")
  String timeout;

  @Option(
      names = "--rewrite-manifests",
      description = "Rewrite the current snapshot's data manifests, clustered by partition.")
  boolean rewriteManifests;

  @Option(
      names = "--dry-run",
      description = "Print what each action would do and the predicted numbers; change nothing.")
  boolean dryRun;

  private CompactionAction compaction;

  /** "Now" for retention and file ages; the CLI edge is the one place that reads the clock. */
  Clock clock = Clock.systemUTC();

  @Override
  public Integer call() {
    if (orphanMinAge != null && !orphans) {
      throw InvalidInputException.of("Cannot use --orphan-min-age without --orphans");
    }
    if ((!slices.isEmpty() || targetFileSize != null) && !compact) {
      throw InvalidInputException.of("Cannot use --slice or --target-file-size without --compact");
    }
    if (timeout != null && !compact) {
      throw InvalidInputException.of(
          "Cannot use --timeout without --compact: the other actions run no Flink job");
    }
    Timeout compactTimeout = timeout == null ? null : Timeout.ofFlag("--timeout", timeout);
    if (compact && slices.isEmpty()) {
      throw InvalidInputException.of(
          "Cannot compact %s: name the slices to compact, e.g. --slice 2026-10-03 (compaction"
              + " rewrites files, so it never picks slices on its own)",
          table);
    }
    Duration minAge = orphanMinAge == null ? null : parse(orphanMinAge);
    List<MaintenanceReport> reports = new ArrayList<>();
    Catalog catalog = Catalogs.open(common.catalog());
    try {
      Table loaded = Catalogs.loadTable(catalog, table);
      List<MaintenanceAction> actions = actions(loaded, minAge, compactTimeout);
      if (actions.isEmpty()) {
        throw InvalidInputException.of(
            "Cannot maintain %s: name at least one action: %s", table, ACTION_FLAGS);
      }
      // Refuse bad input for every action before the first one changes anything.
      actions.forEach(MaintenanceAction::check);
      for (MaintenanceAction action : actions) {
        loaded.refresh();
        reports.add(action.run(dryRun));
      }
    } finally {
      Catalogs.close(catalog);
    }
    print(reports, spec.commandLine().getOut());
    // Compaction reports failed slices in its lines; the exit code tells scripts.
    return compaction == null ? ExitCodes.OK : compaction.exitCode();
  }

  /**
   * The actions asked for, in the order they run: compact (its new files then get clustered
   * manifests, and the snapshots it replaced can expire), rewrite manifests (new manifests are
   * written before the expiry that may drop the old ones), expire snapshots, then delete orphans
   * (what expiry left behind).
   */
  List<MaintenanceAction> actions(Table loaded, Duration minAge, Timeout compactTimeout) {
    List<MaintenanceAction> actions = new ArrayList<>();
    if (compact) {
      Compaction job =
          Compaction.of(common.catalog(), table)
              .slices(slices)
              .failAt(failure.point())
              .timeout(compactTimeout);
      if (targetFileSize != null) {
        job.targetFileSizeBytes(targetFileSize);
      }
      compaction = CompactionAction.of(common.catalog(), table, job);
      actions.add(compaction);
    }
    if (rewriteManifests) {
      actions.add(ManifestRewrite.of(loaded, table));
    }
    if (expire) {
      actions.add(Expire.of(loaded, table).clock(clock));
    }
    if (orphans) {
      OrphanFiles action = OrphanFiles.of(loaded, table).clock(clock);
      if (minAge != null) {
        action.minAge(minAge);
      }
      actions.add(action);
    }
    return actions;
  }

  private static Duration parse(String text) {
    try {
      return Duration.parse(text);
    } catch (DateTimeParseException e) {
      throw InvalidInputException.of(
          "Cannot parse --orphan-min-age '%s': expected an ISO-8601 duration such as PT48H or P3D",
          text);
    }
  }

  private void print(List<MaintenanceReport> reports, PrintWriter out) {
    if (common.json) {
      Map<String, Object> map = new LinkedHashMap<>();
      map.put("table", table);
      map.put("dry_run", dryRun);
      map.put("metadata_counted", TableStats.METADATA_COUNTED);
      List<Map<String, Object>> actions = new ArrayList<>();
      for (MaintenanceReport report : reports) {
        Map<String, Object> action = new LinkedHashMap<>();
        action.put("action", report.action());
        action.put("changed", report.outcome().changed());
        action.put("before", stats(report.before()));
        action.put("after", stats(report.after()));
        action.put("after_is_prediction", report.dryRun());
        action.put("estimated", report.estimated().stream().sorted().toList());
        action.putAll(report.outcome().details());
        actions.add(action);
      }
      map.put("actions", actions);
      out.println(Json.write(map));
      return;
    }
    out.printf(
        "floe maintain %s%s%n",
        table,
        dryRun ? " (dry run: nothing changed; \"after\" is the prediction, ~ an estimate)" : "");
    for (MaintenanceReport report : reports) {
      out.println();
      out.println(report.action());
      printStats(report, out);
      report.outcome().lines().forEach(line -> out.println("  " + line));
    }
  }

  private static void printStats(MaintenanceReport report, PrintWriter out) {
    TableStats before = report.before();
    TableStats after = report.after();
    Set<String> estimated = report.estimated();
    out.printf("  %-24s %14s %16s%n", "", "before", report.dryRun() ? "after (dry run)" : "after");
    row(out, "snapshots", before.snapshots(), after.snapshots(), false, Long::toString);
    row(out, "data files", before.dataFiles(), after.dataFiles(), false, Long::toString);
    row(
        out,
        "avg data file size",
        before.averageDataFileBytes(),
        after.averageDataFileBytes(),
        false,
        Bytes::format);
    row(out, "delete files", before.deleteFiles(), after.deleteFiles(), false, Long::toString);
    row(
        out,
        "manifests",
        before.manifests(),
        after.manifests(),
        estimated.contains("manifests"),
        Long::toString);
    row(
        out,
        "metadata files",
        before.metadataFiles(),
        after.metadataFiles(),
        estimated.contains("metadataFiles"),
        Long::toString);
    row(
        out,
        "metadata size",
        before.metadataBytes(),
        after.metadataBytes(),
        estimated.contains("metadataBytes"),
        Bytes::format);
    out.println(
        "  (data files, delete files and manifests: current snapshot; metadata: "
            + TableStats.METADATA_COUNTED
            + ")");
  }

  private static void row(
      PrintWriter out,
      String label,
      long before,
      long after,
      boolean estimate,
      LongFunction<String> format) {
    out.printf(
        "  %-24s %14s %16s%n",
        label, format.apply(before), (estimate ? "~" : "") + format.apply(after));
  }

  private static Map<String, Object> stats(TableStats stats) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("snapshots", stats.snapshots());
    map.put("data_files", stats.dataFiles());
    map.put("data_bytes", stats.dataBytes());
    map.put("avg_data_file_bytes", stats.averageDataFileBytes());
    map.put("delete_files", stats.deleteFiles());
    map.put("manifests", stats.manifests());
    map.put("metadata_files", stats.metadataFiles());
    map.put("metadata_bytes", stats.metadataBytes());
    return map;
  }
}
