package dev.floe.flink.cli;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.config.Redaction;
import dev.floe.catalog.effects.Delivery;
import dev.floe.catalog.effects.DeliverySettings;
import dev.floe.catalog.effects.EffectStatus;
import dev.floe.catalog.effects.Outbox;
import dev.floe.catalog.effects.OutboxEntry;
import dev.floe.catalog.effects.OutboxLocation;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.flink.effects.EffectsReport;
import dev.floe.flink.sql.ResultTable;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.iceberg.catalog.Catalog;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `floe effects [TABLE] [--pending] [--retry]`: the effect outbox, and resending what failed. */
@Command(
    name = "effects",
    header = "List and retry the effect outbox (webhooks).",
    mixinStandardHelpOptions = true,
    description = {
      "List the effect outbox (webhooks a job manifest declares under `effects:`): each effect",
      "with its run key, status (pending, sent, failed, skipped), attempts and last error. With",
      "--retry, send the failed and pending ones again; a sent effect is never sent twice."
    })
public final class EffectsCommand implements Callable<Integer> {
  @Mixin CommonOptions common;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "TABLE",
      description = "Only the effects about this table (namespace.table); default: all.")
  String table;

  @Option(
      names = "--pending",
      description =
          "Only effects not delivered yet: pending or failed (and skipped, with"
              + " --include-skipped).")
  boolean pending;

  @Option(names = "--run-key", paramLabel = "KEY", description = "Only this run key's effects.")
  String runKey;

  @Option(names = "--effect", paramLabel = "NAME", description = "Only effects with this name.")
  String effect;

  @Option(
      names = "--retry",
      description =
          "Send the selected failed and pending effects again (each up to its max_attempts, with"
              + " backoff). Exit code 1 when one still failed.")
  boolean retry;

  @Option(
      names = "--include-skipped",
      description =
          "With --retry: also send effects a backfill recorded as skipped (effects were off).")
  boolean includeSkipped;

  @Option(
      names = "--dry-run",
      description = "With --retry: list what would be sent, and send nothing.")
  boolean dryRun;

  @Override
  public Integer call() {
    InvalidInputException.check(
        retry || !(dryRun || includeSkipped),
        "Cannot use --dry-run or --include-skipped without --retry: listing sends nothing");
    if (table != null) {
      Catalogs.identifier(table); // namespace.table, else exit 2 naming the value
    }
    CatalogConfig catalog = common.catalog();
    if (OutboxLocation.inCatalogDatabase(catalog)) {
      // Opening the outbox in an embedded catalog's database would create the file.
      Catalogs.requireHome(catalog);
    }
    OutboxLocation location =
        OutboxLocation.of(catalog)
            .orElseThrow(
                () ->
                    InvalidInputException.of(
                        "Cannot list effects: catalog type %s keeps no database for the effect"
                            + " outbox; set the catalog property %s to its JDBC URL",
                        catalog.type(), OutboxLocation.URI_PROPERTY));
    PrintWriter out = spec.commandLine().getOut();
    try (Outbox outbox = Outbox.open(location, DeliverySettings.system())) {
      requireKnown(catalog, outbox);
      List<OutboxEntry> selected = select(outbox);
      if (!retry) {
        print(selected, out);
        return ExitCodes.OK;
      }
      List<OutboxEntry> owed = selected.stream().filter(this::resendable).toList();
      List<Delivery> deliveries = new ArrayList<>();
      for (OutboxEntry entry : owed) {
        deliveries.add(dryRun ? outbox.wouldRetry(entry) : outbox.retry(entry.key()));
      }
      EffectsReport report =
          new EffectsReport(
              deliveries, owed.isEmpty() ? "nothing to send: no failed or pending effect" : null);
      Optional<String> failure = failure(deliveries);
      printRetry(report, failure, out);
      // As every failed command: one line on stderr that says what failed.
      failure.ifPresent(error -> spec.commandLine().getErr().println("floe: " + error));
      return exitCode(failure);
    }
  }

  /** 1 when an effect was not delivered (see {@link #failure}), else 0. */
  private static int exitCode(Optional<String> failure) {
    return failure.isPresent() ? ExitCodes.UNEXPECTED : ExitCodes.OK;
  }

  /**
   * The error line of a retry that left effects undelivered: how many, and the first with its
   * outcome and error. One another process is still sending has not arrived as far as this command
   * knows.
   */
  private static Optional<String> failure(List<Delivery> deliveries) {
    List<Delivery> undelivered =
        deliveries.stream()
            .filter(d -> d.needsAttention() || d.outcome() == Delivery.Outcome.IN_FLIGHT)
            .toList();
    if (undelivered.isEmpty()) {
      return Optional.empty();
    }
    Delivery first = undelivered.get(0);
    return Optional.of(
        String.format(
            "Cannot deliver %d of %d effects; the first, %s of run key %s: %s%s",
            undelivered.size(),
            deliveries.size(),
            first.key().effect(),
            first.key().runKey(),
            first.outcome().text(),
            first.error() == null ? "" : " (" + first.error() + ")"));
  }

  /**
   * Refuses a TABLE that is neither in the catalog nor named by any effect of the outbox, and a
   * --run-key or --effect no effect of the outbox has (a mistyped name read as "nothing owed"); a
   * dropped table's effects are still listed.
   */
  private void requireKnown(CatalogConfig catalog, Outbox outbox) {
    if (runKey == null && effect == null && table == null) {
      return;
    }
    List<OutboxEntry> all = outbox.list(null, EnumSet.allOf(EffectStatus.class));
    InvalidInputException.check(
        runKey == null || all.stream().anyMatch(e -> ofRunKey(e, runKey)),
        "Cannot list effects of run key %s: the outbox holds none (see `floe effects` for every"
            + " run key)",
        runKey);
    InvalidInputException.check(
        effect == null || all.stream().anyMatch(e -> effect.equals(e.key().effect())),
        "Cannot list effects named %s: the outbox holds none; it holds %s",
        effect,
        all.stream().map(e -> e.key().effect()).distinct().sorted().toList());
    if (table == null || all.stream().anyMatch(e -> table.equals(e.target()))) {
      return;
    }
    Catalog opened = Catalogs.open(catalog);
    try {
      InvalidInputException.check(
          opened.tableExists(Catalogs.identifier(table)),
          "Cannot list effects of %s: no such table, and the outbox holds no effect about it (see"
              + " `floe effects` for every table)",
          table);
    } finally {
      Catalogs.close(opened);
    }
  }

  private List<OutboxEntry> select(Outbox outbox) {
    Set<EffectStatus> statuses = Set.of();
    if (pending) {
      // --include-skipped widens what "not delivered yet" means: without it here, --pending would
      // filter the skipped rows out before --retry looks at them.
      statuses = EnumSet.of(EffectStatus.PENDING, EffectStatus.FAILED);
      if (includeSkipped) {
        statuses.add(EffectStatus.SKIPPED);
      }
    }
    return outbox.list(table, statuses).stream()
        .filter(e -> runKey == null || ofRunKey(e, runKey))
        .filter(e -> effect == null || effect.equals(e.key().effect()))
        .toList();
  }

  /** Whether {@code entry} is of {@code runKey}: filed under it, or under it and a batch. */
  private static boolean ofRunKey(OutboxEntry entry, String runKey) {
    return runKey.equals(entry.key().runKey()) || entry.key().runKey().startsWith(runKey + "@");
  }

  private boolean resendable(OutboxEntry entry) {
    return entry.status() == EffectStatus.FAILED
        || entry.status() == EffectStatus.PENDING
        || (includeSkipped && entry.status() == EffectStatus.SKIPPED);
  }

  private void print(List<OutboxEntry> entries, PrintWriter out) {
    List<Map<String, Object>> rows = entries.stream().map(EffectsCommand::toMap).toList();
    if (common.json) {
      out.println(Json.write(rows));
      return;
    }
    if (rows.isEmpty()) {
      out.println("No effects" + (pending ? " waiting to be sent." : " in the outbox."));
      return;
    }
    List<String> columns =
        List.of(
            "run_key",
            "effect",
            "status",
            "attempts",
            "http_status",
            "last_error",
            "target",
            "slice",
            "snapshot_id",
            "updated_at");
    List<List<Object>> cells = new ArrayList<>();
    for (Map<String, Object> row : rows) {
      List<Object> line = new ArrayList<>();
      columns.forEach(column -> line.add(row.get(column)));
      cells.add(line);
    }
    out.println(ResultTable.render(columns, cells));
  }

  private void printRetry(EffectsReport report, Optional<String> failure, PrintWriter out) {
    if (common.json) {
      out.println(Json.write(retryMap(report, failure)));
      return;
    }
    for (int i = 0; i < report.deliveries().size(); i++) {
      out.println(report.deliveries().get(i).key().runKey() + "  " + report.lines().get(i));
    }
    if (report.note() != null) {
      out.println(report.note());
    }
  }

  /** A retry as --json shows it: as every command's, a failure with its exit code and error. */
  private Map<String, Object> retryMap(EffectsReport report, Optional<String> failure) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("status", failure.isPresent() ? "failed" : dryRun ? "dry-run" : "delivered");
    map.putAll(report.toMap());
    map.put("exit_code", exitCode(failure));
    failure.ifPresent(error -> map.put("error", Redaction.redact(error)));
    return map;
  }

  static Map<String, Object> toMap(OutboxEntry entry) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("run_key", entry.key().runKey());
    map.put("effect", entry.key().effect());
    map.put("status", entry.status().text());
    map.put("attempts", entry.attempts());
    map.put("http_status", entry.httpStatus());
    map.put("last_error", entry.lastError());
    map.put("target", entry.target());
    map.put("slice", entry.slice());
    map.put("snapshot_id", entry.snapshotId());
    map.put("run_id", entry.runId());
    map.put("job", entry.job());
    map.put("url", entry.url());
    map.put("created_at", entry.createdAt().toString());
    map.put("updated_at", entry.updatedAt().toString());
    map.put("sent_at", entry.sentAt() == null ? null : entry.sentAt().toString());
    return map;
  }
}
