package dev.floe.flink.effects;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.effects.Delivery;
import dev.floe.catalog.effects.DeliverySettings;
import dev.floe.catalog.effects.EffectStatus;
import dev.floe.catalog.effects.EffectTemplate;
import dev.floe.catalog.effects.EnvReferences;
import dev.floe.catalog.effects.Outbox;
import dev.floe.catalog.effects.OutboxEntry;
import dev.floe.catalog.effects.OutboxKey;
import dev.floe.catalog.effects.OutboxLocation;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.EffectSpec;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.snapshot.CurrentCommit;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.RunResult;
import dev.floe.flink.run.PublishMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/**
 * A job's side effects around a run (DESIGN rule 8): checked before the run, sent once per (run
 * key, effect) after a commit to main (a job whose run key every batch shares: once per batch, see
 * {@link #effectKey}), through the outbox in the catalog's database.
 *
 * <p>What a finished run sends: a commit to main records and sends its effects. A no-op rerun sends
 * only what a commit of its own run key still owes: when the slice's current commit carries the
 * same run key and an effect of it is missing from the outbox or still pending (the process that
 * committed died before sending), the rerun sends it. For a job whose run key every batch shares, a
 * commit or no-op rerun also sends what earlier batches of it owe ({@link #earlierBatches}). A dry
 * run, an audit-branch run and a run with effects off send nothing; the last records its effects as
 * skipped, so a later rerun does not send what a backfill held back.
 */
public final class RunEffects {
  private final DeliverySettings settings;

  public RunEffects(DeliverySettings settings) {
    this.settings = settings;
  }

  /** The system clock, real waits and the process environment: for the CLI. */
  public static RunEffects system() {
    return new RunEffects(DeliverySettings.system());
  }

  /**
   * Refuses, before anything runs, a job whose effects could not be recorded or sent: no outbox
   * database, or an environment variable they reference is unset. Opens the outbox once, which
   * creates its table; a dry run calls {@link #checkOutbox(CatalogConfig, JobSpec)} instead.
   *
   * @throws InvalidInputException (exit code 2)
   */
  public void requireOutbox(CatalogConfig catalog, JobSpec job) {
    requireOutbox(catalog, job.effects(), job.source());
  }

  /** {@link #requireOutbox(CatalogConfig, JobSpec)} for any list of effects. */
  public void requireOutbox(CatalogConfig catalog, List<EffectSpec> effects, String source) {
    if (effects.isEmpty()) {
      return;
    }
    checkOutbox(catalog, effects, source);
    try (Outbox outbox = Outbox.open(location(catalog, source), settings)) {
      // opening creates the table: a database that refuses it fails here, before the run
    }
  }

  /**
   * The checks of {@link #requireOutbox(CatalogConfig, JobSpec)} that need no database: the catalog
   * has an outbox location and every referenced environment variable is set. Connects to nothing
   * and creates nothing, so a dry run changes nothing (and works for a read-only user).
   *
   * @throws InvalidInputException (exit code 2)
   */
  public void checkOutbox(CatalogConfig catalog, JobSpec job) {
    checkOutbox(catalog, job.effects(), job.source());
  }

  /** {@link #checkOutbox(CatalogConfig, JobSpec)} for any list of effects. */
  public void checkOutbox(CatalogConfig catalog, List<EffectSpec> effects, String source) {
    if (effects.isEmpty()) {
      return;
    }
    location(catalog, source);
    for (EffectSpec effect : effects) {
      List<String> names = new ArrayList<>(EnvReferences.names(effect.url()));
      effect.headers().values().forEach(v -> names.addAll(EnvReferences.names(v)));
      for (String name : names) {
        InvalidInputException.check(
            settings.environment().containsKey(name),
            "Cannot run %s: effect %s needs the environment variable %s, which is not set",
            source,
            effect.name(),
            name);
      }
    }
  }

  /**
   * Sends (or records) the effects of a finished run.
   *
   * @param request what was run: its catalog, job, dry-run flag and publish mode
   * @param result what the run reported
   * @param enabled false for a backfill without {@code --allow-effects}: nothing is sent, and the
   *     effects of a commit are recorded as skipped
   */
  public EffectsReport deliver(RunRequest request, RunResult result, boolean enabled) {
    JobSpec job = request.job();
    CatalogConfig catalog = request.catalog();
    if (job.effects().isEmpty()) {
      return EffectsReport.NONE;
    }
    CommitOutcome outcome = result.outcome();
    if (outcome == null) {
      return EffectsReport.note(
          "effects not sent: the run was submitted detached; the next run of this slice sends"
              + " them once it finds the commit");
    }
    if (request.options().dryRun()) {
      // A dry run that would be a no-op reports NO_OP: it must not recover anything either.
      return outcome.status() == CommitOutcome.Status.DRY_RUN
          ? wouldSend(
              job.effects(),
              everyBatch(result.mode().text(), result.scope().isWholeTable())
                  ? result.runKey() + "@<its snapshot id>"
                  : result.runKey(),
              "dry run: nothing recorded or sent")
          : EffectsReport.note(
              "dry run: nothing recorded or sent (a real run would be a no-op and send only what"
                  + " this run key still owes)");
    }
    if (request.options().publish() == PublishMode.MANUAL) {
      return EffectsReport.note(
          "effects not sent: the run commits to an audit branch"
              + (result.branch() == null ? "" : " (" + result.branch() + ")")
              + "; effects fire when a run commits to main");
    }
    Optional<OutboxLocation> location = OutboxLocation.of(catalog);
    if (!enabled) {
      if (outcome.status() != CommitOutcome.Status.COMMITTED || location.isEmpty()) {
        return EffectsReport.note("effects off: nothing sent");
      }
      return record(location.get(), job.effects(), committed(result), EffectStatus.SKIPPED);
    }
    OutboxLocation outbox = location(catalog, job.source());
    boolean wholeTable = result.scope().isWholeTable();
    if (outcome.status() == CommitOutcome.Status.COMMITTED) {
      RunValues run = committed(result);
      return earlierBatches(catalog, result.target(), outbox, job.effects(), run, wholeTable)
          .then(send(outbox, job.effects(), run, Outbox.Recording.COMMIT));
    }
    // A no-op: the table is read once, for what its current commit and earlier batches owe.
    Catalog opened = Catalogs.open(catalog);
    try {
      Table table = Catalogs.loadTable(opened, result.target());
      Optional<RunValues> owed = owedByCurrentCommit(table, request, result);
      if (owed.isEmpty()) {
        return EffectsReport.NONE; // the slice's content is another run key's: nothing is owed
      }
      return earlierBatches(table, outbox, job.effects(), owed.get(), wholeTable)
          .then(send(outbox, job.effects(), owed.get(), Outbox.Recording.RECOVERY));
    } finally {
      Catalogs.close(opened);
    }
  }

  /**
   * At most this many earlier commits of a run key are looked at for a batch whose effects were
   * never filed ({@link #earlierBatches}).
   */
  static final int EARLIER_BATCHES_LOOKED_AT = 100;

  /**
   * Sends what earlier batches of a job whose run key every batch shares (merge, insert-if-absent,
   * whole-table swap) still owe: the process that committed one died before filing its effects (or
   * could not reach the outbox), and a newer batch committed before any rerun could recover them (a
   * rerun recovers only the current commit). Walks main back from {@code run}'s commit through the
   * commits of its run key to the newest one with an effect filed (sent, pending, failed or
   * skipped), and sends the effects of the commits after it, oldest first, and that one's pending
   * effects. Without such a commit among the last {@link #EARLIER_BATCHES_LOOKED_AT}, nothing is
   * sent: commits an outbox never heard of may have been sent through another (the catalog's outbox
   * database was replaced) or made with no outbox at all, and an effect is sent at most once. So a
   * job's very first batch, when its process dies before filing, is not sent by the next. A commit
   * of a backfill stops the walk too: what a backfill held back is not sent here.
   */
  private EffectsReport earlierBatches(
      CatalogConfig config,
      String target,
      OutboxLocation location,
      List<EffectSpec> effects,
      RunValues run,
      boolean wholeTable) {
    if (!sharesRunKey(run)) {
      return EffectsReport.NONE; // the catalog is not even opened
    }
    try {
      Catalog catalog = Catalogs.open(config);
      try {
        return earlierBatches(
            Catalogs.loadTable(catalog, target), location, effects, run, wholeTable);
      } finally {
        Catalogs.close(catalog);
      }
    } catch (RuntimeException e) {
      return notAllChecked(List.of(), e);
    }
  }

  /** {@link #earlierBatches(CatalogConfig, String, OutboxLocation, List, RunValues, boolean)}. */
  private EffectsReport earlierBatches(
      Table table,
      OutboxLocation location,
      List<EffectSpec> effects,
      RunValues run,
      boolean wholeTable) {
    if (!sharesRunKey(run)) {
      return EffectsReport.NONE; // one key per slice: a retry or rerun recovers it
    }
    List<Delivery> deliveries = new ArrayList<>();
    try (Outbox outbox = Outbox.open(location, settings)) {
      Optional<Walk> walk = walkBack(table, outbox, effects, run, wholeTable);
      if (walk.isPresent()) {
        for (RunValues owed : walk.get().unfiled()) {
          for (EffectSpec effect : effects) {
            deliveries.add(
                outbox.deliver(
                    entry(effect, owed, EffectStatus.PENDING), Outbox.Recording.RECOVERY));
          }
        }
        for (EffectSpec effect : effects) {
          // The anchor's effect, under its key or the one an older Floe filed that commit under.
          RunValues anchor = walk.get().anchor();
          OutboxKey key = new OutboxKey(anchor.outboxKey(), effect.name());
          if (outbox.find(key).isEmpty()) {
            key = filedByOlderFloe(outbox, anchor, effect).orElse(key);
          }
          if (outbox.find(key).map(e -> e.status() == EffectStatus.PENDING).orElse(false)) {
            deliveries.add(outbox.send(key));
          }
        }
      }
    } catch (RuntimeException e) {
      return notAllChecked(deliveries, e);
    }
    return new EffectsReport(
        deliveries,
        deliveries.isEmpty()
            ? null
            : "sent what earlier batches owed: their process stopped before sending");
  }

  /** Whether {@code run}'s key is shared by every batch of its job, so earlier ones may owe. */
  private static boolean sharesRunKey(RunValues run) {
    return !run.outboxKey().equals(run.runKey()) && run.snapshotId() != null;
  }

  private static EffectsReport notAllChecked(List<Delivery> deliveries, RuntimeException e) {
    return EffectsReport.unsettled(
        deliveries,
        "effects of earlier batches not all checked: "
            + e.getMessage()
            + "; the next batch looks again");
  }

  /**
   * The commits of a run key before one of them: {@code anchor}, the newest with an effect filed,
   * and {@code unfiled}, those after it with none, oldest first.
   */
  private record Walk(RunValues anchor, List<RunValues> unfiled) {}

  /**
   * Walks main back from {@code run}'s commit through the earlier commits of its run key; empty
   * when none has an effect filed before the history, a backfill's commit or {@link
   * #EARLIER_BATCHES_LOOKED_AT} unfiled ones end the walk.
   */
  private static Optional<Walk> walkBack(
      Table table, Outbox outbox, List<EffectSpec> effects, RunValues run, boolean wholeTable) {
    List<RunValues> unfiled = new ArrayList<>();
    Snapshot commit = table.snapshot(run.snapshotId());
    Long parent = commit == null ? null : commit.parentId();
    while (parent != null) {
      Snapshot snapshot = table.snapshot(parent);
      if (snapshot == null) {
        break; // expired: the history ends here
      }
      Optional<Lineage> lineage = Lineage.of(snapshot);
      if (lineage.isPresent()
          && run.runKey().equals(lineage.get().runKey())
          && !WriteMode.preservesContent(lineage.get().mode())) {
        if (lineage.get().backfillId() != null) {
          break;
        }
        RunValues earlier = loaded(lineage.get(), run.target(), wholeTable, snapshot.snapshotId());
        if (filed(outbox, effects, earlier)) {
          return Optional.of(new Walk(earlier, unfiled));
        }
        if (unfiled.size() == EARLIER_BATCHES_LOOKED_AT) {
          return Optional.empty();
        }
        unfiled.add(0, earlier);
      }
      parent = snapshot.parentId();
    }
    return Optional.empty();
  }

  /**
   * Whether any of the effects of {@code run} is in the outbox: under its key, under the key an
   * older Floe filed that very commit under ({@link #filedByOlderFloe}), or under the plain run key
   * whatever its commit (the oldest Floe sent one effect per run key, and nothing for the batches
   * after it).
   */
  private static boolean filed(Outbox outbox, List<EffectSpec> effects, RunValues run) {
    for (EffectSpec effect : effects) {
      if (outbox.find(new OutboxKey(run.outboxKey(), effect.name())).isPresent()
          || outbox.find(new OutboxKey(run.runKey(), effect.name())).isPresent()
          || filedByOlderFloe(outbox, run, effect).isPresent()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The key an older Floe filed {@code effect} of {@code run}'s very commit under, if any: the
   * plain run key, or the run key and the batch's content hash. Only an entry for the same snapshot
   * counts: under the content-hash key, an earlier commit of the same rows is another commit.
   */
  private static Optional<OutboxKey> filedByOlderFloe(
      Outbox outbox, RunValues run, EffectSpec effect) {
    if (run.outboxKey().equals(run.runKey())) {
      return Optional.empty(); // one key per slice: it never changed
    }
    for (String older : olderKeys(run)) {
      OutboxKey key = new OutboxKey(older, effect.name());
      Optional<OutboxEntry> entry = outbox.find(key);
      if (entry.isPresent() && Objects.equals(entry.get().snapshotId(), run.snapshotId())) {
        return Optional.of(key);
      }
    }
    return Optional.empty();
  }

  /** The keys older Floes filed a batch's effects under, newest first. */
  private static List<String> olderKeys(RunValues run) {
    String hash = (String) run.values().get("content_hash");
    return hash == null
        ? List.of(run.runKey())
        : List.of(
            run.runKey() + "@" + hash.substring(0, Math.min(16, hash.length())), run.runKey());
  }

  /**
   * Sends {@code effects} once under an arbitrary outbox key, e.g. a backfill's {@code
   * on_backfill_done} keyed by the backfill id. A second call with the same key sends nothing more;
   * one after a failed delivery tries again.
   *
   * @param key the outbox key, e.g. {@code backfill:<id>}
   * @param values the template values the bodies reference
   * @param target what the effects are about, for {@code floe effects TABLE}
   * @param slice a label for the slice(s), for {@code floe effects}
   * @param dryRun report what would be sent; record and send nothing
   */
  public EffectsReport deliverOnce(
      CatalogConfig catalog,
      String key,
      List<EffectSpec> effects,
      Map<String, ?> values,
      String target,
      String slice,
      boolean dryRun) {
    if (effects.isEmpty()) {
      return EffectsReport.NONE;
    }
    if (dryRun) {
      return wouldSend(effects, key, "dry run: nothing recorded or sent");
    }
    Object runId = values.get("run_id");
    Object snapshot = values.get("snapshot_id");
    RunValues run =
        new RunValues(
            key,
            key,
            runId == null ? key : runId.toString(),
            values.get("job") == null ? key : values.get("job").toString(),
            target,
            slice,
            snapshot instanceof Number number ? number.longValue() : null,
            values);
    return send(location(catalog, key), effects, run, Outbox.Recording.COMMIT);
  }

  /**
   * The values of a run, and where its effects are filed: under {@code outboxKey}, the run key
   * itself or, for a job whose run key every batch shares, the run key and the batch ({@link
   * #effectKey}).
   */
  private record RunValues(
      String outboxKey,
      String runKey,
      String runId,
      String job,
      String target,
      String slice,
      Long snapshotId,
      Map<String, ?> values) {}

  private static RunValues committed(RunResult result) {
    CommitOutcome outcome = result.outcome();
    return values(
        result.runKey(),
        result.scope().isWholeTable(),
        result.runId(),
        result.job(),
        result.target(),
        result.mode().text(),
        result.scope().label(),
        outcome.snapshotId(),
        outcome.rows(),
        outcome.contentHash());
  }

  /**
   * The values of the slice's current commit when it carries the rerun's own run key, so its
   * effects may still be owed; empty otherwise. A backfill's commit owes something here only to a
   * rerun of the same backfill that sends effects ({@code --allow-effects}): a plain rerun must not
   * send what a backfill with effects off held back.
   */
  private static Optional<RunValues> owedByCurrentCommit(
      Table table, RunRequest request, RunResult result) {
    Optional<CurrentCommit.Found> found = CurrentCommit.of(table, result.scope());
    if (found.isEmpty() || !result.runKey().equals(found.get().lineage().runKey())) {
      return Optional.empty();
    }
    Lineage lineage = found.get().lineage();
    if (lineage.backfillId() != null
        && !(request.options().sendsEffects()
            && lineage.backfillId().equals(request.options().backfillId()))) {
      return Optional.empty();
    }
    return Optional.of(
        loaded(lineage, result.target(), result.scope().isWholeTable(), found.get().snapshotId()));
  }

  /**
   * Sends what the commit of a slice a backfill finds loaded already still owes (the process that
   * committed it died before sending): only what is not in the outbox at all, as a rerun's recovery
   * does. For a backfill with {@code --allow-effects}; one with effects off calls nothing.
   *
   * @param snapshotId the commit (of one slice: a backfill never loads the whole table)
   * @param lineage its lineage
   */
  public EffectsReport owedByLoad(
      CatalogConfig catalog, JobSpec job, long snapshotId, Lineage lineage) {
    if (job.effects().isEmpty()) {
      return EffectsReport.NONE;
    }
    return send(
        location(catalog, job.source()),
        job.effects(),
        loaded(lineage, job.target(), false, snapshotId),
        Outbox.Recording.RECOVERY);
  }

  private static RunValues loaded(
      Lineage lineage, String target, boolean wholeTable, long snapshotId) {
    return values(
        lineage.runKey(),
        wholeTable,
        lineage.runId(),
        lineage.job(),
        target,
        lineage.mode(),
        lineage.slice(),
        snapshotId,
        lineage.rows(),
        lineage.contentHash());
  }

  /**
   * The key a commit's effects are filed under: its run key, which a retry or a rerun of the same
   * slice shares, so each effect is sent once per slice. A merge, an insert-if-absent and a swap of
   * the whole table keep one run key for every batch, so their key also names the commit: each
   * batch that commits is news (also one whose rows an earlier batch had: a swap back to
   * yesterday's rows), a retry or an unchanged rerun of it, which finds that commit current, is
   * not.
   *
   * @param snapshotId the commit
   */
  static String effectKey(String runKey, String mode, boolean wholeTable, Long snapshotId) {
    return everyBatch(mode, wholeTable) && snapshotId != null ? runKey + "@" + snapshotId : runKey;
  }

  /** Whether every batch of the job shares its run key (merge, insert-if-absent, whole table). */
  private static boolean everyBatch(String mode, boolean wholeTable) {
    return wholeTable || !WriteMode.replacesScope(mode);
  }

  private static RunValues values(
      String runKey,
      boolean wholeTable,
      String runId,
      String job,
      String target,
      String mode,
      String slice,
      Long snapshotId,
      long rows,
      String contentHash) {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("job", job);
    values.put("target", target);
    values.put("mode", mode);
    values.put("slice", slice);
    values.put("run_key", runKey);
    values.put("run_id", runId);
    values.put("snapshot_id", snapshotId);
    values.put("rows", rows);
    values.put("content_hash", contentHash);
    return new RunValues(
        effectKey(runKey, mode, wholeTable, snapshotId),
        runKey,
        runId,
        job,
        target,
        slice,
        snapshotId,
        values);
  }

  private EffectsReport send(
      OutboxLocation location,
      List<EffectSpec> effects,
      RunValues run,
      Outbox.Recording recording) {
    List<Delivery> deliveries = new ArrayList<>();
    try (Outbox outbox = Outbox.open(location, settings)) {
      for (EffectSpec effect : effects) {
        Optional<OutboxKey> filedBefore =
            recording == Outbox.Recording.RECOVERY
                ? filedByOlderFloe(outbox, run, effect)
                : Optional.empty();
        if (filedBefore.isPresent()) {
          // Filed by an older Floe under another key, for this very commit: as recorded.
          deliveries.add(outbox.send(filedBefore.get()));
        } else {
          deliveries.add(outbox.deliver(entry(effect, run, EffectStatus.PENDING), recording));
        }
      }
    } catch (RuntimeException e) {
      // The commit stands whatever happens here; an effect not recorded is owed, and the next
      // run of the slice (a no-op finding this run key's commit) records and sends it.
      return EffectsReport.unsettled(
          deliveries,
          "effects not all recorded: "
              + e.getMessage()
              + "; the next run of this slice sends what is owed");
    }
    return new EffectsReport(deliveries, null);
  }

  private EffectsReport record(
      OutboxLocation location, List<EffectSpec> effects, RunValues run, EffectStatus status) {
    List<Delivery> deliveries = new ArrayList<>();
    try (Outbox outbox = Outbox.open(location, settings)) {
      for (EffectSpec effect : effects) {
        deliveries.add(outbox.skip(entry(effect, run, status)));
      }
    } catch (RuntimeException e) {
      // The commit stands: an effect not recorded as skipped is only a note.
      return EffectsReport.unsettled(
          deliveries, "effects off: nothing sent; not all recorded as skipped: " + e.getMessage());
    }
    return new EffectsReport(deliveries, "effects off: recorded as skipped, nothing sent");
  }

  private OutboxEntry entry(EffectSpec effect, RunValues run, EffectStatus status) {
    return OutboxEntry.recorded(
        new OutboxKey(run.outboxKey(), effect.name()),
        run.runId(),
        run.job(),
        run.target(),
        run.slice(),
        run.snapshotId(),
        effect.url(),
        effect.headers(),
        EffectTemplate.renderJson(effect.body(), run.values()),
        effect.maxAttempts(),
        status,
        settings.clock().instant());
  }

  private static EffectsReport wouldSend(List<EffectSpec> effects, String key, String note) {
    List<Delivery> deliveries = new ArrayList<>();
    for (EffectSpec effect : effects) {
      deliveries.add(
          new Delivery(
              new OutboxKey(key, effect.name()),
              effect.url(),
              Delivery.Outcome.WOULD_SEND,
              0,
              null,
              null));
    }
    return new EffectsReport(deliveries, note);
  }

  private static OutboxLocation location(CatalogConfig catalog, String source) {
    return OutboxLocation.of(catalog)
        .orElseThrow(
            () ->
                InvalidInputException.of(
                    "Cannot run %s with effects: catalog type %s keeps no database Floe can put"
                        + " its effect outbox in; set the catalog property %s to a JDBC URL (e.g."
                        + " jdbc:postgresql://host/db)",
                    source, catalog.type(), OutboxLocation.URI_PROPERTY));
  }
}
