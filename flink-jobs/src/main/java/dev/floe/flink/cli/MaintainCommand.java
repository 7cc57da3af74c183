package dev.floe.flink.cli;

import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.config.Durations;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.Timeout;
import dev.floe.catalog.maintain.Expire;
import dev.floe.catalog.maintain.MaintenanceAction;
import dev.floe.catalog.maintain.MaintenanceManifest;
import dev.floe.catalog.maintain.MaintenanceReport;
import dev.floe.catalog.maintain.ManifestRewrite;
import dev.floe.catalog.maintain.OrphanFiles;
import dev.floe.catalog.maintain.plan.MaintenancePlan;
import dev.floe.catalog.maintain.plan.MaintenancePlanner;
import dev.floe.catalog.maintain.plan.PlanAction;
import dev.floe.catalog.spec.MaintenancePolicy;
import dev.floe.flink.effects.EffectsReport;
import dev.floe.flink.effects.RunEffects;
import dev.floe.flink.maintain.ApplyResult;
import dev.floe.flink.maintain.Compaction;
import dev.floe.flink.maintain.CompactionAction;
import dev.floe.flink.maintain.MaintenanceNotification;
import dev.floe.flink.maintain.PlanApply;
import dev.floe.flink.maintain.PositionDeleteRewriteAction;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
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
    header = "Compact, expire, rewrite manifests, delete orphans; plan it.",
    mixinStandardHelpOptions = true,
    description = {
      "Table upkeep: compact the small files of given slices (a Flink job, one commit per",
      "slice, content unchanged; without --slice, the slices the table's maintenance policy",
      "picks), rewrite position delete files, rewrite manifests, expire snapshots by the",
      "table's retention,",
      "delete orphan files. Each action prints snapshot count, data files, average data file size and",
      "metadata size before and after. Tagged snapshots, branch heads (audit branches included)",
      "and every file they reference are never removed. With --dry-run nothing changes and",
      "\"after\" is the prediction.",
      "--plan ranks the work of many tables against their policies; --apply runs it within a",
      "budget."
    })
public final class MaintainCommand implements Callable<Integer> {
  /** The flags that name one action on one table. */
  static final String ACTION_FLAGS =
      "--compact, --rewrite-position-deletes, --rewrite-manifests, --expire, --orphans";

  @Mixin CommonOptions common;
  @Mixin FailureInjectionOption failure;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      arity = "0..*",
      paramLabel = "TABLE",
      description =
          "namespace.table; exactly one for the actions below, any number (or --all,"
              + " --namespace) for --plan and --apply")
  List<String> tables = new ArrayList<>();

  /** The one table of the actions below. */
  String table;

  @Option(
      names = "--plan",
      description =
          "Score every table and slice named against its maintenance policy (table spec"
              + " `maintenance:`) and print a ranked plan: action, why (the numbers against the"
              + " policy), before -> after, bytes to rewrite. Reads metadata only.")
  boolean plan;

  @Option(
      names = "--apply",
      description =
          "Plan, then run the plan highest rank first within --max-bytes, --max-tables and"
              + " --timeout (one commit per slice, as the actions below make them). A failing"
              + " table is reported and the rest go on; a rerun picks up what is left. With"
              + " --dry-run: the plan.")
  boolean apply;

  @Option(names = "--all", description = "--plan/--apply: every table of the catalog.")
  boolean all;

  @Option(
      names = "--namespace",
      paramLabel = "NS",
      description = "--plan/--apply: every table of this namespace.")
  String namespace;

  @Option(
      names = "--include-open",
      description =
          "--plan/--apply and --compact without --slice: also plan slices whose late-data window"
              + " is open, that a run is writing (unreferenced files younger than the orphan"
              + " minimum age) or that wait on an audit branch.")
  boolean includeOpen;

  @Option(
      names = "--max-bytes",
      paramLabel = "BYTES",
      description = "--apply: rewrite at most this many bytes (default: no limit).")
  Long maxBytes;

  @Option(
      names = "--max-tables",
      paramLabel = "N",
      description = "--apply: touch at most this many tables (default: no limit).")
  Integer maxTables;

  @Option(
      names = "--notify",
      paramLabel = "FILE",
      description =
          "--apply: a maintenance manifest (YAML) whose `on_maintenance_done` webhooks are sent"
              + " once when the apply finishes, with its summary (tables done, failed and left,"
              + " bytes rewritten, exit code), through the effect outbox (`floe effects`). A"
              + " failed delivery is a warning on stderr and never changes the result; with"
              + " --dry-run nothing is sent.")
  Path notify;

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
          "Minimum age of an orphan file to delete (P3D, 48h, ...: at least 1h, and longer than the"
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
          "A slice to compact or whose position deletes to rewrite, as `floe run --slice` takes"
              + " it (2026-10-03, 2026-10, 2026-10-03T05, or column=value); repeatable or"
              + " comma-separated.")
  List<String> slices = new ArrayList<>();

  @Option(
      names = "--target-file-size",
      paramLabel = "BYTES",
      description =
          "Compaction: outputs aim at this size, and files below 3/4 of it are small (default: table"
              + " property write.target-file-size-bytes).")
  Long targetFileSize;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      description =
          "Compaction: how long its Flink job may take, e.g. 30m, 2h or PT30M (default: no"
              + " limit). Past it the job is cancelled, no further slice is committed, the files"
              + " of uncommitted slices are deleted and the command exits 6. --apply: counted"
              + " from the start of planning; no table starts after it.")
  String timeout;

  @Option(
      names = "--rewrite-position-deletes",
      description =
          "Rewrite the position delete files (not deletion vectors) of each --slice, as Spark's"
              + " rewrite_position_delete_files: per partition, entries naming data files that"
              + " are gone are dropped and the rest written into one file; one commit per slice,"
              + " rows unchanged. Without --slice: every slice holding position delete files."
              + " Reads metadata and delete files only (no Flink job).")
  boolean rewritePositionDeletes;

  @Option(
      names = "--rewrite-manifests",
      description = "Rewrite the current snapshot's data manifests, clustered by partition.")
  boolean rewriteManifests;

  @Option(
      names = "--dry-run",
      description = "Print what each action would do and the predicted numbers; change nothing.")
  boolean dryRun;

  private CompactionAction compaction;
  private PositionDeleteRewriteAction positionDeletes;

  /** The --slice values as typed, before compaction without --slice takes the policy's. */
  private List<String> givenSlices = List.of();

  /**
   * "Now" for retention and file ages; the CLI edge is the one place that reads the clock. In
   * milliseconds, as every other instant Floe prints.
   */
  Clock clock = Clock.tickMillis(ZoneOffset.UTC);

  /** How webhooks are delivered (tests swap in an injected clock and no waits). */
  Supplier<RunEffects> effects = RunEffects::system;

  @Override
  public Integer call() {
    if (plan || apply) {
      return planOrApply();
    }
    if (all
        || namespace != null
        || includeOpen && !compact
        || maxBytes != null
        || maxTables != null
        || notify != null) {
      throw InvalidInputException.of(
          "Cannot use --all, --namespace, --include-open, --max-bytes, --max-tables or --notify"
              + " without --plan or --apply");
    }
    if (tables.size() != 1) {
      throw InvalidInputException.of(
          "Cannot maintain %s: name exactly one table for %s (or plan many with --plan or"
              + " --apply)",
          tables.isEmpty() ? "no table" : String.join(", ", tables), ACTION_FLAGS);
    }
    table = tables.get(0);
    if (orphanMinAge != null && !orphans) {
      throw InvalidInputException.of("Cannot use --orphan-min-age without --orphans");
    }
    if (!slices.isEmpty() && !compact && !rewritePositionDeletes) {
      throw InvalidInputException.of(
          "Cannot use --slice without --compact or --rewrite-position-deletes");
    }
    if (targetFileSize != null && !compact) {
      throw InvalidInputException.of("Cannot use --target-file-size without --compact");
    }
    // Checked before the policy picks slices: a run that finds none must not accept it either.
    if (targetFileSize != null && targetFileSize <= 0) {
      throw InvalidInputException.of(
          "Cannot use --target-file-size %d: the target file size must be positive",
          targetFileSize);
    }
    if (includeOpen && !slices.isEmpty()) {
      throw InvalidInputException.of(
          "Cannot use --include-open with --slice: it chooses which slices the policy picks");
    }
    if (timeout != null && !compact) {
      throw InvalidInputException.of(
          "Cannot use --timeout without --compact: the other actions run no Flink job");
    }
    Timeout compactTimeout = timeout == null ? null : Timeout.ofFlag("--timeout", timeout);
    Duration minAge = orphanMinAge == null ? null : parse(orphanMinAge);
    List<MaintenanceReport> reports = new ArrayList<>();
    Catalog catalog = Catalogs.open(common.catalog());
    try {
      Table loaded = Catalogs.loadTable(catalog, table);
      givenSlices = List.copyOf(slices);
      if (compact && slices.isEmpty()) {
        slices = policySlices(catalog);
        if (slices.isEmpty()) {
          String notice =
              String.format(
                  "compact: no slice of %s needs compaction by its maintenance policy%s",
                  table, includeOpen ? "" : " (open slices left out; --include-open plans them)");
          // With --json stdout holds the one JSON object, so the notice goes beside it.
          (common.json ? spec.commandLine().getErr() : spec.commandLine().getOut()).println(notice);
          compact = false;
          if (!rewritePositionDeletes && !rewriteManifests && !expire && !orphans) {
            if (common.json) {
              print(List.of(), spec.commandLine().getOut());
            }
            return ExitCodes.OK;
          }
        }
      }
      List<MaintenanceAction> actions = actions(loaded, minAge, compactTimeout);
      if (actions.isEmpty()) {
        throw InvalidInputException.of(
            "Cannot maintain %s: name at least one action: %s (or --plan, --apply)",
            table, ACTION_FLAGS);
      }
      // Refuse bad input for every action before the first one changes anything.
      actions.forEach(MaintenanceAction::check);
      for (MaintenanceAction action : actions) {
        loaded.refresh();
        try {
          reports.add(action.run(dryRun));
        } catch (RuntimeException e) {
          if (!reports.isEmpty()) {
            // What the earlier actions did stays reported: they may have committed.
            MaintenanceReportOutput.writeFailed(
                table,
                dryRun,
                reports,
                action.name(),
                e instanceof FloeException floe ? floe.exitCode() : ExitCodes.UNEXPECTED,
                FloeMain.describe(e),
                common.json,
                spec.commandLine().getOut());
          }
          throw e;
        }
      }
    } finally {
      Catalogs.close(catalog);
    }
    print(reports, spec.commandLine().getOut());
    // Compaction and the position-delete rewrite report failed slices in their lines; the exit
    // code tells scripts (the first failing action's).
    if (compaction != null && compaction.exitCode() != ExitCodes.OK) {
      return compaction.exitCode();
    }
    return positionDeletes == null ? ExitCodes.OK : positionDeletes.exitCode();
  }

  /**
   * The actions asked for, in the order they run: compact (its new files then get clustered
   * manifests, and the snapshots it replaced can expire), rewrite position deletes (after the
   * compaction that may already have applied them), rewrite manifests (new manifests are written
   * before the expiry that may drop the old ones), expire snapshots, then delete orphans (what
   * expiry left behind).
   */
  List<MaintenanceAction> actions(Table loaded, Duration minAge, Timeout compactTimeout) {
    List<MaintenanceAction> actions = new ArrayList<>();
    if (compact) {
      Compaction job =
          Compaction.of(common.catalog(), table)
              .slices(slices)
              .failAt(failure.point())
              .timeout(compactTimeout);
      // The table's policy decides the target unless --target-file-size overrides it, for
      // --slice as for the slices the policy picks.
      job.targetFileSizeBytes(
          targetFileSize != null
              ? targetFileSize
              : MaintenancePolicy.of(loaded.properties()).targetFileSizeBytes(loaded.properties()));
      compaction = CompactionAction.of(common.catalog(), table, job);
      actions.add(compaction);
    }
    if (rewritePositionDeletes) {
      // The --slice values as typed (the policy's slices are for compaction only).
      positionDeletes = PositionDeleteRewriteAction.of(loaded, table, givenSlices);
      actions.add(positionDeletes);
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

  /** The slices the table's policy wants compacted, highest rank first. */
  private List<String> policySlices(Catalog catalog) {
    MaintenancePlan planned =
        MaintenancePlanner.withClock(clock)
            .includeOpen(includeOpen)
            .targetFileSize(targetFileSize)
            .plan(catalog, List.of(table));
    if (!planned.unreadable().isEmpty()) {
      throw InvalidInputException.of(
          "Cannot plan the compaction of %s: %s", table, planned.unreadable().get(table));
    }
    return planned.items().stream()
        .filter(item -> item.action() == PlanAction.COMPACT)
        .map(item -> item.slice().orElseThrow())
        .toList();
  }

  private int planOrApply() {
    if (plan && apply) {
      throw InvalidInputException.of(
          "Cannot use --plan with --apply: --plan prints the plan, --apply runs it (--apply"
              + " --dry-run prints it too)");
    }
    if (compact || rewritePositionDeletes || expire || orphans || rewriteManifests) {
      throw InvalidInputException.of(
          "Cannot use %s with --plan or --apply: the plan chooses the actions", ACTION_FLAGS);
    }
    if (!slices.isEmpty() || targetFileSize != null || orphanMinAge != null) {
      throw InvalidInputException.of(
          "Cannot use --slice, --target-file-size or --orphan-min-age with --plan or --apply: the"
              + " tables' policies set them (table spec `maintenance:`)");
    }
    if (plan && (maxBytes != null || maxTables != null || timeout != null)) {
      throw InvalidInputException.of(
          "Cannot use --max-bytes, --max-tables or --timeout with --plan: they budget --apply");
    }
    InvalidInputException.check(
        notify == null || apply,
        "Cannot use --notify %s with --plan: it tells when --apply finishes",
        notify);
    InvalidInputException.check(
        maxBytes == null || maxBytes > 0,
        "Cannot apply with --max-bytes %s: expected a positive number of bytes",
        maxBytes);
    InvalidInputException.check(
        maxTables == null || maxTables > 0,
        "Cannot apply with --max-tables %s: expected a positive number",
        maxTables);
    Timeout applyTimeout = timeout == null ? null : Timeout.ofFlag("--timeout", timeout);
    PrintWriter out = spec.commandLine().getOut();
    // Refuse a bad manifest, an unset variable or a catalog without an outbox before any work.
    MaintenanceNotification notification =
        notify == null
            ? null
            : MaintenanceNotification.of(
                common.catalog(), MaintenanceManifest.load(notify), effects.get());
    if (notification != null) {
      notification.check(dryRun);
    }
    // --timeout counts from here: planning a large catalog is part of the budget.
    Instant started = clock.instant();
    Catalog catalog = Catalogs.open(common.catalog());
    MaintenancePlan planned;
    try {
      List<String> names = MaintenancePlanner.select(catalog, tables, all, namespace);
      planned = MaintenancePlanner.withClock(clock).includeOpen(includeOpen).plan(catalog, names);
    } finally {
      Catalogs.close(catalog);
    }
    PlanApply applying =
        PlanApply.of(common.catalog(), planned)
            .maxBytes(maxBytes)
            .maxTables(maxTables)
            .timeout(applyTimeout)
            .timeoutFrom(started)
            .clock(clock)
            .failAt(failure.point());
    if (plan || dryRun) {
      // --apply --dry-run shows what the budget would take and leave, as --apply would.
      Map<dev.floe.catalog.maintain.plan.PlanItem, String> outside =
          apply ? applying.select().outside() : Map.of();
      EffectsReport wouldSend =
          notification == null ? EffectsReport.NONE : notification.wouldSend();
      MaintenancePlanOutput.writePlan(planned, dryRun, outside, wouldSend, common.json, out);
      out.flush();
      MaintenancePlanOutput.printUnreadable(planned, spec.commandLine().getErr());
      return MaintenancePlanOutput.exitCode(planned);
    }
    ApplyResult result = applying.run();
    int code = result.exitCode();
    int exitCode = code == ExitCodes.OK ? MaintenancePlanOutput.exitCode(planned) : code;
    EffectsReport notified =
        notification == null
            ? EffectsReport.NONE
            : notification.deliver(result, exitCode, notifyTarget());
    MaintenancePlanOutput.writeApply(result, exitCode, notified, common.json, out);
    out.flush();
    MaintenancePlanOutput.printUnreadable(planned, spec.commandLine().getErr());
    // As floe backfill: an undelivered notification is a warning; the apply's result stands.
    notified
        .warnings()
        .forEach(w -> spec.commandLine().getErr().println("floe maintain: warning: " + w));
    if (notified.note() != null) {
      // only set when recording in the outbox failed
      spec.commandLine().getErr().println("floe maintain: warning: " + notified.note());
    }
    return exitCode;
  }

  /** What {@code floe effects TABLE} files the notification under. */
  private String notifyTarget() {
    if (tables.size() == 1) {
      return Catalogs.identifier(tables.get(0)).toString();
    }
    return namespace != null ? namespace + ".*" : "*";
  }

  private static Duration parse(String text) {
    try {
      return Durations.parse(text);
    } catch (IllegalArgumentException e) {
      throw InvalidInputException.of(
          "Cannot parse --orphan-min-age '%s': %s", text, e.getMessage());
    }
  }

  private void print(List<MaintenanceReport> reports, PrintWriter out) {
    MaintenanceReportOutput.write(table, dryRun, reports, common.json, out);
  }
}
