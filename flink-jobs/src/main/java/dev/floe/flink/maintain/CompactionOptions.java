package dev.floe.flink.maintain;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.spec.MaintenancePolicy;
import java.util.Map;

/**
 * Which data files compaction rewrites because of their delete files, read from the table's
 * maintenance policy ({@code maintenance.delete_file_threshold} and {@code
 * maintenance.deleted_row_ratio} in its spec, stored as {@value
 * MaintenancePolicy#DELETE_FILE_THRESHOLD} and {@value MaintenancePolicy#DELETED_ROW_RATIO}): the
 * same keys and defaults the maintenance planner scores with, so the planner never plans a rewrite
 * compaction would not do. {@link Compaction} setters override them per run. Only position deletes
 * and deletion vectors count towards the ratio (equality deletes cannot be counted without
 * reading).
 */
final class CompactionOptions {

  private CompactionOptions() {}

  /**
   * The thresholds a table's properties set, defaults for the ones it does not.
   *
   * @throws InvalidInputException (exit 2) for a value that is not a number in range
   */
  static DeleteThresholds thresholds(String table, Map<String, String> properties) {
    String files =
        properties.getOrDefault(
            MaintenancePolicy.DELETE_FILE_THRESHOLD,
            Integer.toString(MaintenancePolicy.DEFAULT_DELETE_FILE_THRESHOLD));
    String ratio =
        properties.getOrDefault(
            MaintenancePolicy.DELETED_ROW_RATIO,
            Double.toString(MaintenancePolicy.DEFAULT_DELETED_ROW_RATIO));
    try {
      return DeleteThresholds.of(table, Integer.parseInt(files.trim()), Double.parseDouble(ratio));
    } catch (NumberFormatException e) {
      throw InvalidInputException.of(
          "Cannot compact %s: table properties %s=%s and %s=%s must be an int and a number",
          table,
          MaintenancePolicy.DELETE_FILE_THRESHOLD,
          files,
          MaintenancePolicy.DELETED_ROW_RATIO,
          ratio);
    }
  }
}
