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
          "Required. The table's name, `<namespace>.<table>`, e.g. `sales.fact_orders`.");
  public static final FloeOption SCHEMA =
      FloeOption.of(
          "schema",
          "list",
          null,
          "Required. The columns, in order; at least one. Each item is a mapping with the keys"
              + " below.");
  public static final FloeOption COLUMN_NAME =
      FloeOption.of(
          "schema[].name", "string", null, "Required. The column's name; unique, without `.`.");
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
              + " `keep_last` or `max_age` keeps it; `retention` needs at least one of them.");
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
              PROPERTIES));

  private TableSpecKeys() {}
}
