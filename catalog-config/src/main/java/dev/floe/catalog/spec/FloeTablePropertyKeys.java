package dev.floe.catalog.spec;

import dev.floe.catalog.config.FloeOption;
import dev.floe.catalog.config.OptionGroup;
import java.util.List;

/**
 * The table properties Floe owns, declared once for the configuration reference. A table carries
 * its own policy in them: {@code floe tables apply} writes them from the spec, and the commands
 * that get only a table name ({@code floe maintain}, {@code floe late}, {@code floe report}) read
 * them. Set them through the spec, not by hand: a later {@code floe tables apply} rewrites them.
 */
public final class FloeTablePropertyKeys {

  public static final FloeOption RETENTION_KEEP_LAST =
      FloeOption.of(
          FloeTableProperties.RETENTION_KEEP_LAST,
          "int",
          null,
          "From `retention.keep_last`: snapshot expiry keeps at least this many newest snapshots"
              + " of each branch.");
  public static final FloeOption RETENTION_MAX_AGE =
      FloeOption.of(
          FloeTableProperties.RETENTION_MAX_AGE,
          "duration",
          null,
          "From `retention.max_age` (ISO-8601): snapshot expiry keeps every snapshot younger than"
              + " this.");
  public static final FloeOption LATE_DATA_WINDOW =
      FloeOption.of(
          FloeTableProperties.LATE_DATA_WINDOW,
          "duration",
          null,
          "From `late_data.window` (ISO-8601): a slice stays open for late rows until its end plus"
              + " this.");
  public static final FloeOption LATE_DATA_AFTER_WINDOW =
      FloeOption.of(
          FloeTableProperties.LATE_DATA_AFTER_WINDOW,
          "string",
          null,
          "From `late_data.after_window`: what `floe late` does with rows that arrive after the"
              + " window (`report` or `reopen`).");
  public static final FloeOption SPEC_PROPERTIES =
      FloeOption.of(
          FloeTableProperties.SPEC_PROPERTIES,
          "list",
          null,
          "Written by `floe tables apply`: the keys the spec's `properties` set, comma-separated."
              + " A key the spec no longer declares is removed from the table at the next apply;"
              + " properties other tools set stay.");
  public static final FloeOption SEALED_THROUGH =
      FloeOption.of(
          FloeTableProperties.SEALED_THROUGH,
          "date or instant",
          null,
          "Written by `floe late apply`, never by a spec: every slice ending at or before it is"
              + " sealed (`floe late` reruns it no more; an explicit `floe run` or `floe backfill`"
              + " of it still replaces it); it never moves backwards.");
  public static final FloeOption TARGET_FILE_SIZE =
      FloeOption.of(
          MaintenancePolicy.TARGET_FILE_SIZE,
          "bytes",
          null,
          "From `maintenance.target_file_size`: compaction's output size (a file below 3/4 of it is small).");
  public static final FloeOption MIN_INPUT_FILES =
      FloeOption.of(
          MaintenancePolicy.MIN_INPUT_FILES,
          "int",
          Integer.toString(MaintenancePolicy.DEFAULT_MIN_INPUT_FILES),
          "From `maintenance.min_input_files`.");
  public static final FloeOption DELETE_FILE_THRESHOLD =
      FloeOption.of(
          MaintenancePolicy.DELETE_FILE_THRESHOLD,
          "int",
          Integer.toString(MaintenancePolicy.DEFAULT_DELETE_FILE_THRESHOLD),
          "From `maintenance.delete_file_threshold`.");
  public static final FloeOption DELETED_ROW_RATIO =
      FloeOption.of(
          MaintenancePolicy.DELETED_ROW_RATIO,
          "ratio",
          Double.toString(MaintenancePolicy.DEFAULT_DELETED_ROW_RATIO),
          "From `maintenance.deleted_row_ratio`.");
  public static final FloeOption STRATEGY =
      FloeOption.of(
          MaintenancePolicy.STRATEGY, "string", "binpack", "From `maintenance.strategy`.");
  public static final FloeOption ZORDER_COLUMNS =
      FloeOption.of(
          MaintenancePolicy.ZORDER_COLUMNS,
          "list of columns",
          null,
          "From `maintenance.zorder_columns`, comma-separated.");
  public static final FloeOption MAX_MANIFESTS =
      FloeOption.of(
          MaintenancePolicy.MAX_MANIFESTS,
          "int",
          Integer.toString(MaintenancePolicy.DEFAULT_MAX_MANIFESTS),
          "From `maintenance.max_manifests`.");
  public static final FloeOption ORPHAN_MIN_AGE =
      FloeOption.of(
          MaintenancePolicy.ORPHAN_MIN_AGE,
          "duration",
          MaintenancePolicy.DEFAULT_ORPHAN_MIN_AGE.toString(),
          "From `maintenance.orphan_min_age`; `floe maintain --orphans` reads it (its"
              + " `--orphan-min-age` flag wins).");

  public static final OptionGroup GROUP =
      new OptionGroup(
          "Table properties Floe owns",
          "Iceberg table properties under `floe.` that carry a table's policy, so a command that"
              + " gets only the table's name finds it. `floe tables apply` writes them from the"
              + " table spec keys above; keys the spec does not set are absent and the default"
              + " applies.",
          List.of(
              RETENTION_KEEP_LAST,
              RETENTION_MAX_AGE,
              LATE_DATA_WINDOW,
              LATE_DATA_AFTER_WINDOW,
              SEALED_THROUGH,
              SPEC_PROPERTIES,
              TARGET_FILE_SIZE,
              MIN_INPUT_FILES,
              DELETE_FILE_THRESHOLD,
              DELETED_ROW_RATIO,
              STRATEGY,
              ZORDER_COLUMNS,
              MAX_MANIFESTS,
              ORPHAN_MIN_AGE));

  private FloeTablePropertyKeys() {}
}
