package dev.floe.flink.maintain;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.maintain.MaintenanceManifest;
import dev.floe.catalog.maintain.plan.PlanItem;
import dev.floe.flink.effects.EffectsReport;
import dev.floe.flink.effects.RunEffects;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The {@code on_maintenance_done} webhooks of {@code floe maintain --apply --notify FILE}: one
 * notification per apply with its summary, recorded in the effect outbox under {@code
 * maintenance:<apply id>} and sent from there (at least once: {@code floe effects --retry} resends
 * one that failed). Delivery never changes the apply's result.
 */
public final class MaintenanceNotification {
  private final CatalogConfig catalog;
  private final MaintenanceManifest manifest;
  private final RunEffects effects;
  private final String applyId = UUID.randomUUID().toString();

  private MaintenanceNotification(
      CatalogConfig catalog, MaintenanceManifest manifest, RunEffects effects) {
    this.catalog = catalog;
    this.manifest = manifest;
    this.effects = effects;
  }

  public static MaintenanceNotification of(
      CatalogConfig catalog, MaintenanceManifest manifest, RunEffects effects) {
    return new MaintenanceNotification(catalog, manifest, effects);
  }

  /**
   * Refuses, before anything is maintained, webhooks that could not be recorded or sent (no outbox
   * database, an unset environment variable). A dry run only checks, creating nothing.
   *
   * @throws dev.floe.catalog.error.InvalidInputException (exit 2)
   */
  public void check(boolean dryRun) {
    String source = manifest.source() + " on_maintenance_done";
    if (dryRun) {
      effects.checkOutbox(catalog, manifest.onMaintenanceDone(), source);
    } else {
      effects.requireOutbox(catalog, manifest.onMaintenanceDone(), source);
    }
  }

  /** What a dry run would send: nothing recorded or sent. */
  public EffectsReport wouldSend() {
    return effects.deliverOnce(
        catalog, key(), manifest.onMaintenanceDone(), Map.of(), "maintenance", "apply", true);
  }

  /**
   * Records and sends the summary of {@code result}; never throws for a delivery that failed (the
   * report says so, and {@link EffectsReport#warnings()} has the line for stderr).
   *
   * @param target what {@code floe effects TABLE} files it under: the one table maintained, or
   *     {@code *} / {@code NS.*} for a catalog or a namespace
   */
  public EffectsReport deliver(ApplyResult result, int exitCode, String target) {
    try {
      return effects.deliverOnce(
          catalog,
          key(),
          manifest.onMaintenanceDone(),
          summary(result, exitCode),
          target,
          "apply " + result.plan().asOf(),
          false);
    } catch (RuntimeException e) {
      // The outbox itself failed (checked up front, so rare): maintenance stands as it is.
      return new EffectsReport(
          java.util.List.of(),
          "on_maintenance_done not recorded: " + e.getMessage() + "; nothing was sent");
    }
  }

  private String key() {
    return MaintenanceManifest.outboxKey(applyId);
  }

  /** The template values of {@link MaintenanceManifest#VARIABLES}. */
  Map<String, Object> summary(ApplyResult result, int exitCode) {
    Set<String> touched = new LinkedHashSet<>();
    Set<String> failed = new LinkedHashSet<>();
    Set<String> left = new LinkedHashSet<>();
    long bytes = 0;
    for (ItemOutcome outcome : result.outcomes()) {
      PlanItem item = outcome.item();
      touched.add(item.table());
      switch (outcome.status()) {
        case FAILED -> failed.add(item.table());
        case NOT_STARTED -> left.add(item.table());
        case DONE -> bytes += item.bytesToRewrite();
        case NOTHING_TO_DO -> {}
      }
    }
    left.removeAll(failed);
    Set<String> done = new LinkedHashSet<>(touched);
    done.removeAll(failed);
    done.removeAll(left);
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("apply_id", applyId);
    values.put("as_of", result.plan().asOf().toString());
    values.put("tables", result.plan().health().size());
    values.put("tables_done", done.size());
    values.put("tables_failed", failed.size());
    values.put("tables_left", left.size());
    values.put("items_done", result.count(ItemOutcome.Status.DONE));
    values.put("items_failed", result.count(ItemOutcome.Status.FAILED));
    values.put("items_left", result.count(ItemOutcome.Status.NOT_STARTED));
    values.put("bytes_rewritten", bytes);
    values.put("exit_code", exitCode);
    // how the outbox files it (not body variables)
    values.put("run_id", applyId);
    values.put("job", "floe maintain --apply");
    return values;
  }
}
