package dev.floe.catalog.maintain;

/**
 * One action of {@code floe maintain} (expire, orphans, rewrite-manifests; compaction plugs in the
 * same way). The command runs the actions it was asked for in a fixed order and prints each one's
 * report: table statistics before and after, and what the action did or would do.
 */
public interface MaintenanceAction {

  /** The action's name as the command prints it, e.g. {@code expire}. */
  String name();

  /**
   * Refuses bad input (a missing retention, a too short minimum age) without reading much, so that
   * the command can check every action before the first one changes anything.
   *
   * @throws dev.floe.catalog.error.InvalidInputException when the action cannot run
   */
  default void check() {}

  /**
   * Does the action, or with {@code dryRun} only plans it and changes nothing.
   *
   * @return statistics before and after (predicted for a dry run) and the action's outcome
   */
  MaintenanceReport run(boolean dryRun);
}
