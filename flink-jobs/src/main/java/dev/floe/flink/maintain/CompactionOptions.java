package dev.floe.flink.maintain;

import dev.floe.catalog.config.FloeOption;
import dev.floe.catalog.config.OptionGroup;
import dev.floe.catalog.error.InvalidInputException;
import java.util.List;
import java.util.Map;

/**
 * Which data files compaction rewrites because of their delete files, read from the table's
 * properties (set them with {@code floe tables apply} under {@code properties}, or any engine's
 * {@code ALTER TABLE ... SET TBLPROPERTIES}); {@link Compaction} setters override them per run.
 */
public final class CompactionOptions {

  public static final FloeOption DELETE_FILE_THRESHOLD =
      FloeOption.of(
          "floe.compaction.delete-file-threshold",
          "int",
          "10",
          "Table property: compaction rewrites a data file of any size once this many delete files"
              + " (position deletes, equality deletes, deletion vectors) apply to it, applying them."
              + " Small files are rewritten anyway, with their deletes applied.");

  public static final FloeOption DELETE_RATIO_THRESHOLD =
      FloeOption.of(
          "floe.compaction.delete-ratio-threshold",
          "double",
          "0.3",
          "Table property: compaction rewrites a data file of any size once at least this share"
              + " of its rows is deleted by position deletes or a deletion vector that name it"
              + " (equality deletes cannot be counted without reading), between 0 and 1.");

  public static final OptionGroup GROUP =
      new OptionGroup(
          "Compaction table properties",
          "Iceberg table properties that `floe maintain --compact` reads, next to Iceberg's"
              + " `write.target-file-size-bytes` (files below it are small). A partition is"
              + " rewritten when it has two or more small files, or one file selected by these"
              + " thresholds; the commit removes the delete files that no longer apply.",
          List.of(DELETE_FILE_THRESHOLD, DELETE_RATIO_THRESHOLD));

  private CompactionOptions() {}

  /**
   * The thresholds a table's properties set, defaults for the ones it does not.
   *
   * @throws InvalidInputException (exit 2) for a value that is not a number in range
   */
  static DeleteThresholds thresholds(String table, Map<String, String> properties) {
    String files =
        properties.getOrDefault(DELETE_FILE_THRESHOLD.key(), DELETE_FILE_THRESHOLD.defaultValue());
    String ratio =
        properties.getOrDefault(
            DELETE_RATIO_THRESHOLD.key(), DELETE_RATIO_THRESHOLD.defaultValue());
    try {
      return DeleteThresholds.of(table, Integer.parseInt(files.trim()), Double.parseDouble(ratio));
    } catch (NumberFormatException e) {
      throw InvalidInputException.of(
          "Cannot compact %s: table properties %s=%s and %s=%s must be an int and a number",
          table, DELETE_FILE_THRESHOLD.key(), files, DELETE_RATIO_THRESHOLD.key(), ratio);
    }
  }
}
