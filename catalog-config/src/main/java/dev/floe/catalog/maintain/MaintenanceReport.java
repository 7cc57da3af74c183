package dev.floe.catalog.maintain;

import java.util.Set;

/**
 * One maintenance action's result.
 *
 * @param action the action's name
 * @param dryRun true when nothing was changed and {@code after} is a prediction
 * @param before the table's statistics before the action
 * @param after after the action; for a dry run the prediction (equal to {@code before} where the
 *     action changes nothing)
 * @param estimated names of the {@link TableStats} components of {@code after} that are estimates
 *     rather than exact predictions (e.g. {@code metadataBytes}); empty after a real run
 * @param outcome what the action did or would do
 */
public record MaintenanceReport(
    String action,
    boolean dryRun,
    TableStats before,
    TableStats after,
    Set<String> estimated,
    ActionOutcome outcome) {

  public MaintenanceReport {
    estimated = Set.copyOf(estimated);
  }
}
