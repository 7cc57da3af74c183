package dev.floe.catalog.job;

import dev.floe.catalog.config.FloeOption;
import dev.floe.catalog.config.OptionGroup;
import java.util.List;

/**
 * The keys of a job manifest, declared once. {@link JobSpecParser} accepts exactly these keys, so a
 * key cannot be added without a description in docs/configuration.md.
 */
public final class JobManifestKeys {
  public static final FloeOption JOB =
      FloeOption.of(
          "job",
          "string",
          null,
          "Required. The job's name; recorded in the lineage of every commit (`floe.job`) and part"
              + " of the run key. Not blank, without spaces around it (a no-break space too) or control or"
              + " invisible characters (a zero-width space).");
  public static final FloeOption DESCRIPTION =
      FloeOption.of(
          "description", "string", null, "Free text for the people who read the manifest.");
  public static final FloeOption TARGET =
      FloeOption.of(
          "target",
          "string",
          null,
          "Required. The Iceberg table the job writes, `<namespace>.<table>`; it must exist.");
  public static final FloeOption MODE =
      FloeOption.of(
          "mode",
          "string",
          "overwrite",
          "How the result replaces what the target holds, always in one snapshot. `overwrite`"
              + " replaces exactly the slice. `merge` upserts by key: the source is reduced to the"
              + " newest row per key (by `ordering`), and a target row changes only when that"
              + " value is strictly newer. `insert-if-absent` adds the rows whose key the target"
              + " does not hold yet. `swap` replaces the whole table. There is no append mode,"
              + " because an append is not rerun-safe.");
  public static final FloeOption SLICE_COLUMN =
      FloeOption.of(
          "slice.column",
          "string",
          null,
          "The target column the slice is cut on, e.g. `order_date`. The slice's unit (hour,"
              + " day, month, year) follows from `--slice` and must cover whole partitions of the"
              + " target. Required for `overwrite`; optional for `merge` and `insert-if-absent`"
              + " (with a slice, the run owns only the target's rows in it and every source row"
              + " must lie in it); refused for `swap`.");
  public static final FloeOption KEY =
      FloeOption.of(
          "key",
          "list of columns",
          null,
          "`merge` and `insert-if-absent`: the columns that identify a row. Absent: the target's"
              + " identifier fields (the table spec's `key`). A source row with a NULL key fails"
              + " the run.");
  public static final FloeOption ORDERING =
      FloeOption.of(
          "ordering",
          "string",
          null,
          "Required for `merge`: the column whose greater value wins, e.g. `updated_at`. Two"
              + " source rows with the same key and the same ordering value but different content"
              + " fail the run, naming the key. Optional for `insert-if-absent`: among source rows"
              + " with the same key, the one with the smallest value is kept. In both modes a"
              + " source row whose ordering value is NULL fails the run (exit 3), naming the row;"
              + " a target row's NULL is older than any value.");
  public static final FloeOption DELETE_MISSING =
      FloeOption.of(
          "delete_missing",
          "boolean",
          "false",
          "`merge` with a slice: also delete the target rows of the slice whose key the source"
              + " does not have.");
  public static final FloeOption ALLOW_EMPTY =
      FloeOption.of(
          "allow_empty",
          "boolean",
          "false",
          "`swap`: let an empty result empty the table. Off by default, because an empty"
              + " rebuild is more often a broken source than an empty truth.");
  public static final FloeOption QUERY =
      FloeOption.of(
          "query",
          "string",
          null,
          "Required. A Flink SQL query producing the slice's rows with the target's column names"
              + " and types. `:slice_start` and `:slice_end` are bound as typed literals of the"
              + " half-open slice `[start, end)`; a row outside the slice fails the run.");
  public static final FloeOption CHECKS =
      FloeOption.of(
          "checks",
          "list",
          null,
          "Data checks that gate the commit: when one fails, nothing is committed (exit code 3)."
              + " Each item is a mapping with exactly one of the check kinds below.");
  public static final FloeOption NOT_NULL =
      FloeOption.of(
          "checks[].not_null", "list of columns", null, "No row of the slice has a null here.");
  public static final FloeOption UNIQUE =
      FloeOption.of(
          "checks[].unique",
          "list of columns",
          null,
          "No two rows of the slice share a value of these columns (taken together). A row"
              + " with NULL in any of them is never a duplicate (as SQL's UNIQUE). Values compare"
              + " as stored, as Flink's GROUP BY compares them: a float's -0.0 and 0.0 differ.");
  public static final FloeOption ROW_COUNT_MIN =
      FloeOption.of(
          "checks[].row_count.min", "int", null, "The slice has at least this many rows.");
  public static final FloeOption ROW_COUNT_MAX =
      FloeOption.of("checks[].row_count.max", "int", null, "The slice has at most this many rows.");
  public static final FloeOption ACCEPTED_VALUES_COLUMN =
      FloeOption.of(
          "checks[].accepted_values.column",
          "string",
          null,
          "The column whose non-null values must be one of `values`.");
  public static final FloeOption ACCEPTED_VALUES_VALUES =
      FloeOption.of(
          "checks[].accepted_values.values",
          "list",
          null,
          "The accepted values, compared as values of the column's type (`1.5` accepts a"
              + " decimal 1.50; a timestamp in any ISO spelling, a timestamptz with its offset).");
  public static final FloeOption ALLOW_NONDETERMINISTIC =
      FloeOption.of(
          "allow_nondeterministic",
          "boolean",
          "false",
          "Allow wall-clock and random functions (`CURRENT_DATE`, `NOW`, `RAND`, `UUID`, ...) in"
              + " the query. Off by default, because such a query is not rerun-safe.");
  public static final FloeOption PARALLELISM =
      FloeOption.of(
          "parallelism",
          "int",
          null,
          "Writer parallelism; `floe run --parallelism` wins. Absent or 0: Flink's default.");
  public static final FloeOption TIMEOUT =
      FloeOption.of(
          "timeout",
          "duration",
          null,
          "How long one run of the job may take, from its start to its commit, as ISO-8601"
              + " (`PT30M`, `PT2H`) or `90s`, `30m`, `2h`, `1d`; `--timeout` wins. Past it the"
              + " run's Flink job is cancelled, nothing is committed, the files it wrote are"
              + " deleted and the run exits 6; rerunning it is safe. A commit already under way at"
              + " that moment is looked up by run id afterwards, so the run reports what the table"
              + " holds. `floe verify` gives each of its two runs this long, `floe backfill` each"
              + " slice. Absent: no limit (`floe lint` warns).");

  public static final FloeOption EFFECTS =
      FloeOption.of(
          "effects",
          "list",
          null,
          "Side effects, each a webhook POSTed once per run key (merge, insert-if-absent and"
              + " swap: once per batch) after the run committed to main"
              + " (docs/operators/effects.md). Recorded in an outbox in the catalog's database"
              + " first, so a retry or a rerun never sends one twice. Nothing is sent for a dry"
              + " run, an audit-branch run (`--publish manual`) or a backfill (unless"
              + " `--allow-effects`), nor by a no-op rerun whose effects were already sent.");
  public static final FloeOption EFFECT_NAME =
      FloeOption.of(
          "effects[].name",
          "string",
          null,
          "Required. The effect's name, unique in the manifest; with the run key it is the"
              + " effect's outbox key.");
  public static final FloeOption EFFECT_WEBHOOK_URL =
      FloeOption.of(
          "effects[].webhook.url",
          "string",
          null,
          "Required. The http(s) URL to POST to. May reference `${env:NAME}` (a webhook URL can"
              + " be a secret); the outbox keeps the reference, never its value.");
  public static final FloeOption EFFECT_WEBHOOK_HEADERS =
      FloeOption.of(
          "effects[].webhook.headers",
          "mapping",
          null,
          "Request headers, name to value. Values may reference `${env:NAME}`, resolved only when"
              + " sending and never logged; a header whose name looks secret (`Authorization`,"
              + " `*token*`, `*key`, ...) must take its value from the environment, e.g. `Bearer"
              + " ${env:BI_TOKEN}`. `Content-Type` defaults to `application/json`; every POST"
              + " also carries `Idempotency-Key: <run key>/<effect name>`.");
  public static final FloeOption EFFECT_WEBHOOK_BODY =
      FloeOption.of(
          "effects[].webhook.body",
          "string",
          "a JSON object of every variable",
          "The JSON body; `${variable}` takes a value of the run: `job`, `target`, `mode`,"
              + " `slice`, `run_key`, `run_id`, `snapshot_id`, `rows`, `content_hash`. Inside a"
              + " JSON string the value is escaped; outside one, text becomes a quoted JSON string"
              + " and numbers stay numbers. It must be valid JSON once filled in.");
  public static final FloeOption EFFECT_MAX_ATTEMPTS =
      FloeOption.of(
          "effects[].max_attempts",
          "int",
          Integer.toString(EffectSpec.DEFAULT_MAX_ATTEMPTS),
          "POSTs one delivery makes, with exponential backoff (1 s, 2 s, 4 s, ... capped at"
              + " 30 s), before the effect is left `failed` for `floe effects --retry`. A failed"
              + " effect does not fail the committed run.");

  public static final OptionGroup GROUP =
      new OptionGroup(
          "Job manifest keys",
          "A job manifest (YAML) says what one slice of a target table holds. Keys are written as"
              + " paths: `slice.column` is `column` inside `slice`, `checks[]` is an item of the"
              + " `checks` list. An unknown key is an error that names the key and the file.",
          List.of(
              JOB,
              DESCRIPTION,
              TARGET,
              MODE,
              SLICE_COLUMN,
              QUERY,
              KEY,
              ORDERING,
              DELETE_MISSING,
              ALLOW_EMPTY,
              CHECKS,
              NOT_NULL,
              UNIQUE,
              ROW_COUNT_MIN,
              ROW_COUNT_MAX,
              ACCEPTED_VALUES_COLUMN,
              ACCEPTED_VALUES_VALUES,
              ALLOW_NONDETERMINISTIC,
              PARALLELISM,
              TIMEOUT,
              EFFECTS,
              EFFECT_NAME,
              EFFECT_WEBHOOK_URL,
              EFFECT_WEBHOOK_HEADERS,
              EFFECT_WEBHOOK_BODY,
              EFFECT_MAX_ATTEMPTS));

  private JobManifestKeys() {}
}
