package dev.floe.catalog.maintain;

import dev.floe.catalog.job.EffectSpec;
import dev.floe.catalog.job.EffectSpecParser;
import dev.floe.catalog.manifest.ManifestNode;
import dev.floe.catalog.manifest.Manifests;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * A parsed maintenance manifest (keys in {@link MaintenanceManifestKeys}): the webhooks {@code floe
 * maintain --apply --notify FILE} sends when it finishes.
 *
 * @param onMaintenanceDone the webhooks, checked as a job's {@code effects} are
 * @param source the manifest's path, for messages
 */
public record MaintenanceManifest(List<EffectSpec> onMaintenanceDone, String source) {
  private static final Set<String> KEYS = MaintenanceManifestKeys.GROUP.keysUnder("");

  /** The variables a body may reference. */
  public static final List<String> VARIABLES =
      List.of(
          "apply_id",
          "as_of",
          "tables",
          "tables_done",
          "tables_failed",
          "tables_left",
          "items_done",
          "items_failed",
          "items_left",
          "bytes_rewritten",
          "exit_code");

  public MaintenanceManifest {
    onMaintenanceDone = List.copyOf(onMaintenanceDone);
  }

  /**
   * @throws dev.floe.catalog.error.InvalidInputException (exit 2) for an unknown key or a bad
   *     effect, naming the key and the file
   */
  public static MaintenanceManifest load(Path file) {
    return parse(Manifests.load(file).root());
  }

  static MaintenanceManifest parse(ManifestNode root) {
    root.requireOnlyKeys(KEYS);
    return new MaintenanceManifest(
        EffectSpecParser.parse(root.child("on_maintenance_done"), VARIABLES), root.source());
  }

  /** The outbox key of one apply's notification. */
  public static String outboxKey(String applyId) {
    return "maintenance:" + applyId;
  }
}
