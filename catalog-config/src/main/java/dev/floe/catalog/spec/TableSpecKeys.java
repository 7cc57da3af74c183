package dev.floe.catalog.spec;

import dev.floe.catalog.config.FloeOption;
import dev.floe.catalog.config.OptionGroup;
import java.util.List;

/**
 * The keys of a table spec, declared once. {@link TableSpecParser} accepts exactly these keys, so a
 * key cannot be added without a description in docs/configuration.md.
 */
public final class TableSpecKeys {
  public static final FloeOption TABLE =
      FloeOption.of(
          "table",
          "string",
          null,
          "Required. The table's name, `<namespace>.<table>`, e.g. `sales.fact_orders`; no level"
              + " empty, none with `,` `=` `[` `]`, spaces around it (a no-break space too) or a control or"
              + " invisible character (a zero-width space), none longer than 200 bytes.");
  public static final FloeOption SCHEMA =
      FloeOption.of(
          "schema",
          "list",
          null,
          "Required. The columns, in order; at least one. Each item is a mapping with the keys"
              + " below.");
  public static final FloeOption COLUMN_NAME =
      FloeOption.of(
          "schema[].name",
          "string",
          null,
          "Required. The column's name; unique (also ignoring case), without `.` or `,`, not `*`,"
              + " no spaces around it or control or invisible characters, at most 200 bytes.");
  public static final FloeOption COLUMN_TYPE =
      FloeOption.of(
          "schema[].type",
          "string",
          null,
          "Required. One of "
              + ColumnTypes.ACCEPTED
              + " (1 <= P <= 38, S <= P), e.g. `long` or `\"decimal(10,2)\"`.");
  public static final FloeOption COLUMN_REQUIRED =
      FloeOption.of(
          "schema[].required",
          "boolean",
          "false",
          "Whether the column refuses nulls; key columns must be required.");
  public static final FloeOption COLUMN_DOC =
      FloeOption.of("schema[].doc", "string", null, "The column's comment in the catalog.");
  public static final FloeOption PARTITION =
      FloeOption.of(
          "partition",
          "list",
          null,
          "Partition fields: a column (identity), `year(c)`, `month(c)`, `day(c)`, `hour(c)`,"
              + " `bucket(N, c)` or `truncate(W, c)`. Quote fields with a comma:"
              + " `\"bucket(16, id)\"`. Absent: unpartitioned.");
  public static final FloeOption KEY =
      FloeOption.of(
          "key",
          "list of columns",
          null,
          "Iceberg identifier fields: required columns, neither `float` nor `double`.");
  public static final FloeOption LATE_DATA_WINDOW =
      FloeOption.of(
          "late_data.window",
          "duration",
          null,
          "Required in `late_data`. How long after a slice ends late rows are still folded in by"
              + " a rerun, as ISO-8601 in days or less, e.g. `P3D` or `PT6H`.");
  public static final FloeOption LATE_DATA_AFTER_WINDOW =
      FloeOption.of(
          "late_data.after_window",
          "string",
          "report",
          "What happens to rows that arrive after the window: `report` lists them and leaves the"
              + " slice alone; `reopen` lets the next rerun rewrite the slice with them.");
  public static final FloeOption RETENTION_KEEP_LAST =
      FloeOption.of(
          "retention.keep_last",
          "int",
          null,
          "Snapshot expiry keeps at least this many of the newest snapshots.");
  public static final FloeOption RETENTION_MAX_AGE =
      FloeOption.of(
          "retention.max_age",
          "duration",
          null,
          "Snapshot expiry keeps snapshots younger than this, e.g. `P7D`. A snapshot is kept while"
              + " `keep_last` or `max_age` keeps it; `retention` needs at least one of them. At"
              + " least `late_data.window`: `floe late` finds a slice by the snapshot that loaded"
              + " it.");
  public static final FloeOption MAINTENANCE_TARGET_FILE_SIZE =
      FloeOption.of(
          "maintenance.target_file_size",
          "size",
          "table property `write.target-file-size-bytes`, else 512 MiB",
          "Compaction writes files of about this size; files below 3/4 of it are small (as Iceberg counts them). Bytes,"
              + " or a number with KiB, MiB or GiB, e.g. `128 MiB`. Stored as `"
              + MaintenancePolicy.TARGET_FILE_SIZE
              + "`.");
  public static final FloeOption MAINTENANCE_MIN_INPUT_FILES =
      FloeOption.of(
          "maintenance.min_input_files",
          "int",
          String.valueOf(MaintenancePolicy.DEFAULT_MIN_INPUT_FILES),
          "A slice is planned for compaction when one of its partitions holds at least this many small"
              + " files (2 or more); compacting it then rewrites each of its partitions that holds two or"
              + " more. Stored as `"
              + MaintenancePolicy.MIN_INPUT_FILES
              + "`.");
  public static final FloeOption MAINTENANCE_DELETE_FILE_THRESHOLD =
      FloeOption.of(
          "maintenance.delete_file_threshold",
          "int",
          String.valueOf(MaintenancePolicy.DEFAULT_DELETE_FILE_THRESHOLD),
          "Compaction rewrites a data file of any size once this many delete files (position,"
              + " equality, deletion vectors) apply to it, and the plan scores it so. Stored as `"
              + MaintenancePolicy.DELETE_FILE_THRESHOLD
              + "`.");
  public static final FloeOption MAINTENANCE_DELETED_ROW_RATIO =
      FloeOption.of(
          "maintenance.deleted_row_ratio",
          "ratio",
          String.valueOf(MaintenancePolicy.DEFAULT_DELETED_ROW_RATIO),
          "Compaction rewrites a data file once at least this share of its rows, in (0, 1], is"
              + " deleted by position deletes or deletion vectors (equality deletes cannot be counted"
              + " without reading); the plan proposes compaction by the same rule. Stored as `"
              + MaintenancePolicy.DELETED_ROW_RATIO
              + "`.");
  public static final FloeOption MAINTENANCE_STRATEGY =
      FloeOption.of(
          "maintenance.strategy",
          "string",
          MaintenancePolicy.Strategy.BINPACK.text(),
          "How compaction lays rows out: `binpack` (read order), `sort` (the table's sort order)"
              + " or `zorder` (needs `zorder_columns`). Stored as `"
              + MaintenancePolicy.STRATEGY
              + "`.");
  public static final FloeOption MAINTENANCE_ZORDER_COLUMNS =
      FloeOption.of(
          "maintenance.zorder_columns",
          "list of columns",
          null,
          "The columns z-order interleaves; required with `strategy: zorder`, refused otherwise."
              + " Stored as `"
              + MaintenancePolicy.ZORDER_COLUMNS
              + "`.");
  public static final FloeOption MAINTENANCE_MAX_MANIFESTS =
      FloeOption.of(
          "maintenance.max_manifests",
          "int",
          String.valueOf(MaintenancePolicy.DEFAULT_MAX_MANIFESTS),
          "Manifests are rewritten when the current snapshot has more data manifests than this."
              + " Stored as `"
              + MaintenancePolicy.MAX_MANIFESTS
              + "`.");
  public static final FloeOption MAINTENANCE_ORPHAN_MIN_AGE =
      FloeOption.of(
          "maintenance.orphan_min_age",
          "duration",
          FloeTableProperties.iso(MaintenancePolicy.DEFAULT_ORPHAN_MIN_AGE),
          "Unreferenced files younger than this are never deleted as orphans (a running job's"
              + " uncommitted files look like orphans); at least `PT1H` and longer than the longest"
              + " job. Stored as `"
              + MaintenancePolicy.ORPHAN_MIN_AGE
              + "`, which `floe maintain --orphans` reads. Snapshot retention is `retention`"
              + " above.");
  public static final FloeOption PROPERTIES =
      FloeOption.of(
          "properties",
          "mapping",
          null,
          "Iceberg table properties, e.g. `write.parquet.compression-codec: zstd`. Properties"
              + " Iceberg reserves (such as `format-version`) are refused.");

  public static final OptionGroup GROUP =
      new OptionGroup(
          "Table spec keys",
          "A table spec (YAML, one table per file) declares a table for `floe tables`. Keys are"
              + " written as paths: `late_data.window` is `window` inside `late_data`, `schema[]`"
              + " is an item of the `schema` list. An unknown key is an error that names the key and"
              + " the file.",
          List.of(
              TABLE,
              SCHEMA,
              COLUMN_NAME,
              COLUMN_TYPE,
              COLUMN_REQUIRED,
              COLUMN_DOC,
              PARTITION,
              KEY,
              LATE_DATA_WINDOW,
              LATE_DATA_AFTER_WINDOW,
              RETENTION_KEEP_LAST,
              RETENTION_MAX_AGE,
              MAINTENANCE_TARGET_FILE_SIZE,
              MAINTENANCE_MIN_INPUT_FILES,
              MAINTENANCE_DELETE_FILE_THRESHOLD,
              MAINTENANCE_DELETED_ROW_RATIO,
              MAINTENANCE_STRATEGY,
              MAINTENANCE_ZORDER_COLUMNS,
              MAINTENANCE_MAX_MANIFESTS,
              MAINTENANCE_ORPHAN_MIN_AGE,
              PROPERTIES));

  private TableSpecKeys() {}
}
