package dev.floe.flink.cli;

import static dev.floe.flink.cli.BadInput.row;

import dev.floe.flink.cli.BadInput.Group;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * The rows of the bad-input catalogue in docs/reliability.md. Each row is run by {@link
 * BadInputCatalogueTest} against one Floe home holding the examples (tables applied, staging
 * seeded, 2026-10-03 loaded, the customer dimension merged); no row may change it.
 */
final class BadInputCatalogue {
  private BadInputCatalogue() {}

  private static final String DAILY = "jobs/fact_orders_daily.yaml";
  private static final String MERGE = "jobs/dim_customer_merge.yaml";

  /** The example query of the daily job, for rows that change one part of it. */
  private static final String SELECT =
      "SELECT order_id, customer_id, amount, order_date\nFROM sales.staging_orders\n";

  private static final String IN_SLICE =
      "WHERE order_date >= :slice_start AND order_date < :slice_end";

  /** A table spec with one of each thing the spec rows break. */
  private static final String SPEC =
      """
      table: bad.events
      schema:
        - {name: id,    type: long, required: true}
        - {name: score, type: double, required: true}
        - {name: note,  type: string}
        - {name: day,   type: date, required: true}
      partition: [day]
      key: [id]
      """;

  static final List<Group> GROUPS =
      List.of(
          new Group(
              "Manifest files",
              "What every manifest reader refuses before it looks at a key (job manifests, table"
                  + " specs, backfill manifests and floe.yaml share it), shown through `floe run"
                  + " job.yaml --slice 2026-10-03`.",
              List.of(
                  row(
                      "a 50 MB file",
                      2,
                      "floe: Cannot read job manifest job.yaml: it is 52428800 bytes; a manifest"
                          + " may be at most 1048576 bytes",
                      f -> f.run(sized(f.write("job.yaml", new byte[0]), 52_428_800L))),
                  row(
                      "Latin-1 bytes, not UTF-8 (`job: café`)",
                      2,
                      "floe: Cannot read job manifest job.yaml: it is not valid UTF-8 (byte 0xE9"
                          + " at offset 8, line 1); save it as UTF-8",
                      f ->
                          f.run(
                              f.write(
                                  "job.yaml",
                                  "job: caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1)))),
                  row(
                      "a YAML alias bomb (`a0: &a0 [lol, lol]`, `a1: &a1 [*a0, *a0]`, ... nine levels)",
                      2,
                      "floe: Cannot read job.yaml: line 1 declares the YAML anchor &a0; anchors (&)"
                          + " and aliases (*) are not supported in manifests, write the value out",
                      f -> f.run(f.write("job.yaml", aliasBomb()))),
                  row(
                      "an alias standing for a column list (`cols: &cols [order_id]`, then"
                          + " `unique: *cols`)",
                      2,
                      "floe: Cannot read job.yaml: line 13 uses the YAML alias *cols; …",
                      f ->
                          f.run(
                              f.job(
                                  t ->
                                      t.replace("  - unique: [order_id]", "  - unique: *cols")
                                          + "cols: &cols [order_id]\n"))),
                  row(
                      "a YAML tag (`job: !env JOB_NAME`), which YAML readers drop",
                      2,
                      "floe: Cannot read job.yaml at 'job': line 2 uses the YAML tag !env; tags (!)"
                          + " are not supported in manifests, write the value out (quote it to keep"
                          + " it as text)",
                      f ->
                          f.run(
                              f.job(
                                  t -> t.replace("job: fact_orders_daily", "job: !env JOB_NAME")))),
                  row(
                      "a key given twice (`target:` on two lines)",
                      2,
                      "floe: Cannot read job.yaml: key 'target' appears twice, on lines 3 and 15;"
                          + " a key may appear once per mapping",
                      f -> f.run(f.job(t -> t + "target: sales.dim_customer\n"))),
                  row(
                      "a second YAML document (`---` and more keys)",
                      2,
                      "floe: Cannot read job.yaml: a second YAML document starts on line 16; a"
                          + " manifest holds one",
                      f -> f.run(f.job(t -> t + "---\njob: other\n"))),
                  row(
                      "not YAML (an unclosed `[`)",
                      2,
                      "floe: Cannot read job.yaml: not valid YAML: …",
                      f -> f.run(f.job(t -> t.replace("[order_id]", "[order_id")))),
                  row(
                      "an empty file",
                      2,
                      "floe: Cannot read job.yaml: expected a YAML mapping at the top",
                      f -> f.run(f.write("job.yaml", ""))),
                  row(
                      "a list at the top instead of a mapping",
                      2,
                      "floe: Cannot read job.yaml: expected a YAML mapping at the top",
                      f -> f.run(f.write("job.yaml", "- job: fact_orders_daily\n"))),
                  row(
                      "a file that does not exist",
                      2,
                      "floe: Cannot read job manifest nope.yaml: no such file",
                      f -> f.run(f.dir().resolve("nope.yaml"))),
                  row(
                      "a folder where the manifest file belongs",
                      2,
                      "floe: Cannot read job manifest jobs: it is a folder, not a file",
                      f -> f.run(f.mkdir("jobs"))))),
          new Group(
              "Job manifests",
              "examples/jobs/fact_orders_daily.yaml (or dim_customer_merge.yaml for merge rows)"
                  + " with one change, run with `floe run job.yaml --slice 2026-10-03`.",
              List.of(
                  row(
                      "an unknown key, a typo of `checks`: `chekcs:`",
                      2,
                      "floe: Cannot read job.yaml: unknown key 'chekcs' (allowed: …); did you mean"
                          + " 'checks'?",
                      f -> f.run(f.job(t -> t.replace("checks:", "chekcs:")))),
                  row(
                      "a list where one value belongs: `job: [a, b]`",
                      2,
                      "floe: Cannot read job.yaml at 'job': expected a single value, got a list",
                      f -> f.run(f.job(t -> t.replace("job: fact_orders_daily", "job: [a, b]")))),
                  row(
                      "a job name with spaces around it: `job: \" daily \"`",
                      2,
                      "floe: Cannot read job.yaml at 'job': job name ' daily ' has spaces around it",
                      f ->
                          f.run(
                              f.job(t -> t.replace("job: fact_orders_daily", "job: \" daily \"")))),
                  row(
                      "text where a number belongs: `parallelism: four`",
                      2,
                      "floe: Cannot read job.yaml at 'parallelism': expected a whole number, got"
                          + " 'four'",
                      f -> f.run(f.job(t -> t + "parallelism: four\n"))),
                  row(
                      "a number too large for any type: `parallelism: 99999999999999999999`",
                      2,
                      "floe: Cannot read job.yaml at 'parallelism': expected a whole number between"
                          + " …, got 99999999999999999999",
                      f -> f.run(f.job(t -> t + "parallelism: 99999999999999999999\n"))),
                  row(
                      "a negative parallelism: `parallelism: -2`",
                      2,
                      "floe: Cannot read job.yaml at 'parallelism': expected a positive number of at"
                          + " most 32768 (Flink's most parallel tasks of an operator), got -2",
                      f -> f.run(f.job(t -> t + "parallelism: -2\n"))),
                  row(
                      "text where true or false belongs: `allow_nondeterministic: \"no\"`",
                      2,
                      "floe: Cannot read job.yaml at 'allow_nondeterministic': expected true or"
                          + " false, got 'no'",
                      f -> f.run(f.job(t -> t + "allow_nondeterministic: \"no\"\n"))),
                  row(
                      "a mapping where a list belongs: `checks: {not_null: [order_id]}`",
                      2,
                      "floe: Cannot read job.yaml at 'checks': expected a list, got a mapping",
                      f ->
                          f.run(
                              f.job(
                                  t ->
                                      t.substring(0, t.indexOf("checks:"))
                                          + "checks: {not_null: [order_id]}\n"))),
                  row(
                      "a typo of the mode: `mode: overwrit`",
                      2,
                      "floe: Cannot read job.yaml at 'mode': unknown mode 'overwrit' (expected one"
                          + " of overwrite, merge, insert-if-absent, swap; …)",
                      f -> f.run(f.job(t -> t.replace("mode: overwrite", "mode: overwrit")))),
                  row(
                      "a mode Floe refuses on purpose: `mode: append`",
                      2,
                      "floe: Cannot read job.yaml at 'mode': unknown mode 'append' (…; there is no"
                          + " append mode, because an append is not rerun-safe)",
                      f -> f.run(f.job(t -> t.replace("mode: overwrite", "mode: append")))),
                  row(
                      "a required key left out: no `target:`",
                      2,
                      "floe: Cannot read job.yaml: missing required key 'target'",
                      f -> f.run(f.job(t -> t.replace("target: sales.fact_orders\n", "")))),
                  row(
                      "a required key set to NULL: `target: ~`",
                      2,
                      "floe: Cannot read job.yaml: missing required key 'target'",
                      f -> f.run(f.job(t -> t.replace("target: sales.fact_orders", "target: ~")))),
                  row(
                      "a target without its namespace: `target: fact_orders`",
                      2,
                      "floe: Cannot read job.yaml at 'target': expected <namespace>.<table>, e.g."
                          + " sales.fact_orders, got 'fact_orders'",
                      f ->
                          f.run(
                              f.job(
                                  t ->
                                      t.replace(
                                          "target: sales.fact_orders", "target: fact_orders")))),
                  row(
                      "a target table that does not exist: `target: sales.fact_order`",
                      2,
                      "floe: Cannot load table sales.fact_order: it does not exist (create it with"
                          + " `floe tables apply`)",
                      f ->
                          f.run(
                              f.job(
                                  t ->
                                      t.replace(
                                          "target: sales.fact_orders",
                                          "target: sales.fact_order")))),
                  row(
                      "an empty query: `query: \"\"`",
                      2,
                      "floe: Cannot read job.yaml at 'query': the query is empty",
                      f -> f.run(f.write("job.yaml", replaceQuery(f, "query: \"\"\n")))),
                  row(
                      "an overwrite without `slice:`",
                      2,
                      "floe: Cannot read job.yaml: missing required key 'slice': an overwrite"
                          + " replaces one slice (use mode: swap to replace a whole table)",
                      f -> f.run(f.job(t -> t.replace("slice: {column: order_date}\n", "")))),
                  row(
                      "a slice column the target does not have: `slice: {column: order_day}`",
                      2,
                      "floe: Cannot slice sales.fact_orders by 'order_day': no such column"
                          + " (columns: order_id, customer_id, amount, order_date)",
                      f -> f.run(f.job(t -> t.replace("column: order_date", "column: order_day")))),
                  row(
                      "a slice column that is not a date or timestamp: `slice: {column:"
                          + " customer_id}`",
                      2,
                      "floe: Cannot slice sales.fact_orders by 'customer_id': its type is long; a"
                          + " slice column must be a date or timestamp",
                      f ->
                          f.run(
                              f.job(t -> t.replace("column: order_date", "column: customer_id")))),
                  row(
                      "a slice on two columns: `slice: {column: [order_date, customer_id]}`",
                      2,
                      "floe: Cannot read job.yaml at 'slice.column': a slice is cut on exactly one"
                          + " column, got [order_date, customer_id]; multi-column slices are not"
                          + " supported",
                      f ->
                          f.run(
                              f.job(
                                  t ->
                                      t.replace(
                                          "column: order_date",
                                          "column: [order_date, customer_id]")))),
                  row(
                      "a check naming a column the target does not have: `not_null: [order_idd]`",
                      2,
                      "floe: Cannot read job.yaml at 'checks[0]': not_null: [order_idd] names column"
                          + " 'order_idd', which sales.fact_orders does not have",
                      f ->
                          f.run(
                              f.job(
                                  t ->
                                      t.replace(
                                          "not_null: [order_id, amount]",
                                          "not_null: [order_idd]")))),
                  row(
                      "an unknown check: `- positive: [amount]`",
                      2,
                      "floe: Cannot read job.yaml at 'checks[3]': unknown key 'positive' (allowed:"
                          + " …)",
                      f -> f.run(f.job(t -> t + "  - positive: [amount]\n"))),
                  row(
                      "a row count whose minimum is above its maximum: `row_count: {min: 5, max:"
                          + " 1}`",
                      2,
                      "floe: Cannot read job.yaml at 'checks[2].row_count': min 5 is greater than"
                          + " max 1",
                      f -> f.run(f.job(t -> t.replace("{min: 0}", "{min: 5, max: 1}")))),
                  row(
                      "a merge without `ordering:`",
                      2,
                      "floe: Cannot read job.yaml: missing required key 'ordering' for mode merge:"
                          + " …",
                      f ->
                          f.runWithout(
                              f.mergeJob(t -> t.replaceAll("ordering: updated_at[^\\n]*\\n", "")))),
                  row(
                      "`delete_missing: true` on a merge without a slice",
                      2,
                      "floe: Cannot read job.yaml at 'delete_missing': delete_missing needs a"
                          + " slice: without one, an empty source would delete every row of the"
                          + " table (…)",
                      f -> f.runWithout(f.mergeJob(t -> t + "delete_missing: true\n"))),
                  row(
                      "`key:` on an overwrite",
                      2,
                      "floe: Cannot read job.yaml at 'key': 'key' applies to modes merge and"
                          + " insert-if-absent, not overwrite",
                      f -> f.run(f.job(t -> t + "key: [order_id]\n"))),
                  row(
                      "a swap with a slice: `mode: swap`",
                      2,
                      "floe: Cannot read job.yaml at 'slice': mode swap replaces the whole table,"
                          + " so it takes no slice (use mode: overwrite)",
                      f -> f.run(f.job(t -> t.replace("mode: overwrite", "mode: swap")))),
                  row(
                          "a webhook header with a literal secret: `Authorization: Bearer"
                              + " s3cr3t-token`",
                          2,
                          "floe: Cannot read job.yaml at 'effects[0].webhook.headers"
                              + ".Authorization': header 'Authorization' looks secret, so its"
                              + " value must come from the environment, …",
                          f ->
                              f.run(
                                  f.job(
                                      t ->
                                          t
                                              + "effects:\n"
                                              + "  - name: notify\n"
                                              + "    webhook:\n"
                                              + "      url: https://bi.example.com/hook\n"
                                              + "      headers: {Authorization: \"Bearer"
                                              + " s3cr3t-token\"}\n")))
                      .hiding("s3cr3t-token"))),
          new Group(
              "Slices",
              "`floe run examples/jobs/fact_orders_daily.yaml --slice VALUE` on the day-partitioned"
                  + " sales.fact_orders; a value is never spliced into SQL, so an injection attempt"
                  + " is just a value that is not a slice.",
              List.of(
                  slice(
                      "a day that does not exist: `2026-02-30`",
                      "2026-02-30",
                      "floe: Cannot parse --slice '2026-02-30': Invalid date 'FEBRUARY 30'"),
                  slice(
                      "a five-digit year: `99999-01-01`",
                      "99999-01-01",
                      "floe: Cannot parse --slice '99999-01-01': expected yyyy-MM-dd, …"),
                  slice(
                      "the last day SQL can write: `9999-12-31`",
                      "9999-12-31",
                      "floe: Cannot parse --slice '9999-12-31': year 9999 is outside the supported"
                          + " years 0001 to 9998"),
                  slice(
                      "year zero: `0000-01-01`",
                      "0000-01-01",
                      "floe: Cannot parse --slice '0000-01-01': year 0000 is outside the supported"
                          + " years 0001 to 9998"),
                  slice(
                      "a day the Julian calendar skipped: `1582-10-10`",
                      "1582-10-10",
                      "floe: Cannot use --slice 1582-10-10 on sales.fact_orders: its start"
                          + " 1582-10-10 falls in 1582-10-05 to 1582-10-14, the days the Julian"
                          + " calendar skipped, which Flink's SQL cannot write as a DATE literal;"
                          + " load that month (1582-10) as one slice instead"),
                  slice(
                      "month 13: `2026-13`",
                      "2026-13",
                      "floe: Cannot parse --slice '2026-13': Invalid value for MonthOfYear …"),
                  slice(
                      "hour 24: `2026-10-03T24`",
                      "2026-10-03T24",
                      "floe: Cannot parse --slice '2026-10-03T24': Invalid value for HourOfDay …"),
                  slice(
                      "an injection attempt: `2026-10-03; DROP TABLE sales.fact_orders`",
                      "2026-10-03; DROP TABLE sales.fact_orders",
                      "floe: Cannot parse --slice '2026-10-03; DROP TABLE sales.fact_orders':"
                          + " expected yyyy-MM-dd, …"),
                  slice(
                      "a quote to break out of a literal: `2026-10-03' OR '1'='1`",
                      "2026-10-03' OR '1'='1",
                      "floe: Cannot parse --slice '2026-10-03' OR '1'='1': expected yyyy-MM-dd, …"),
                  slice(
                      "digits that are not ASCII: `２０２６-10-03`",
                      "２０２６-10-03",
                      "floe: Cannot parse --slice '２０２６-10-03': expected yyyy-MM-dd, …"),
                  slice(
                      "an hour slice on a day-partitioned table: `2026-10-03T05`",
                      "2026-10-03T05",
                      "floe: Cannot use --slice 2026-10-03T05 on sales.fact_orders: an hour slice"
                          + " does not cover whole partitions of spec [identity(order_date)]; give"
                          + " a day (yyyy-MM-dd, e.g. 2026-10-03) or coarser"),
                  slice(
                      "an empty value: `--slice \"\"`",
                      "",
                      "floe: Cannot run examples/jobs/fact_orders_daily.yaml: missing --slice …"),
                  slice(
                      "a 100 000-character value",
                      "2".repeat(100_000),
                      "floe: Cannot parse --slice '2222… (100000 characters)':"
                          + " expected yyyy-MM-dd, …"),
                  row(
                      "no `--slice` for a job that has a slice",
                      2,
                      "floe: Cannot run examples/jobs/fact_orders_daily.yaml: missing --slice (a"
                          + " job never derives its slice from the clock; …)",
                      f -> f.runWithout(f.examples(DAILY))),
                  row(
                      "`--slice` for a merge that has no slice",
                      2,
                      "floe: Cannot run examples/jobs/dim_customer_merge.yaml with --slice"
                          + " 2026-10-03: the manifest has no slice, …",
                      f -> f.run(f.examples(MERGE))))),
          new Group(
              "Queries",
              "The daily job with another `query:`, run for 2026-10-03. The query is planned by"
                  + " Flink before anything runs, so these fail in a second.",
              List.of(
                  row(
                      "a second statement: `…; DROP TABLE sales.staging_orders`",
                      2,
                      "floe: Cannot read job.yaml at 'query': the query must be one SELECT"
                          + " statement; a second statement starts on line 3 of the query",
                      f -> f.run(f.query(SELECT + IN_SLICE + "; DROP TABLE sales.staging_orders"))),
                  row(
                      "a wall-clock function: `AND order_date <= CURRENT_DATE`",
                      2,
                      "floe: Cannot run job.yaml: its query calls CURRENT_DATE, whose result"
                          + " depends on when the job runs; …",
                      f -> f.run(f.query(SELECT + IN_SLICE + " AND order_date <= CURRENT_DATE"))),
                  row(
                      "its own target: `FROM sales.fact_orders`",
                      2,
                      "floe: Cannot run job.yaml: its query reads its own target"
                          + " sales.fact_orders, so a rerun reads what the last run wrote …",
                      f ->
                          f.run(
                              f.query(
                                  "SELECT order_id, customer_id, amount, order_date\nFROM"
                                      + " sales.fact_orders\n"
                                      + IN_SLICE))),
                  row(
                      "another slice's rows: `WHERE order_date = DATE '2026-10-04'`",
                      3,
                      "floe: Cannot commit slice order_date=[2026-10-03,2026-10-04) of"
                          + " sales.fact_orders: a row lies outside the slice"
                          + " (order_date=2026-10-04): {order_id=3, …}; filter the query with"
                          + " :slice_start and :slice_end",
                      f -> f.run(f.query(SELECT + "WHERE order_date = DATE '2026-10-04'"))),
                  row(
                      "`:slice_start` as a name: `order_date AS :slice_start`",
                      2,
                      "floe: Cannot plan the query of job.yaml: …",
                      f ->
                          f.run(
                              f.query(
                                  "SELECT order_id, customer_id, amount, order_date AS"
                                      + " :slice_start\nFROM sales.staging_orders\n"
                                      + IN_SLICE))),
                  row(
                      "a parameter that does not exist: `:slice_day`",
                      2,
                      "floe: Cannot read job.yaml at 'query': unknown parameter ':slice_day'"
                          + " (available: :slice_start, :slice_end)",
                      f -> f.run(f.query(SELECT + "WHERE order_date = :slice_day"))),
                  row(
                      "a column of the target left out: no `amount`",
                      2,
                      "floe: Cannot write the query result of job.yaml to sales.fact_orders:"
                          + " column amount of sales.fact_orders is missing",
                      f ->
                          f.run(
                              f.query(
                                  "SELECT order_id, customer_id, order_date\n"
                                      + "FROM sales.staging_orders\n"
                                      + IN_SLICE))),
                  row(
                      "a column of the wrong type: `CAST(order_id AS INT)`",
                      2,
                      "floe: Cannot write the query result of job.yaml to sales.fact_orders:"
                          + " column order_id is INT, sales.fact_orders expects BIGINT"
                          + " (CAST it in the query)",
                      f ->
                          f.run(
                              f.query(
                                  "SELECT CAST(order_id AS INT) AS order_id, customer_id, amount,"
                                      + " order_date\nFROM sales.staging_orders\n"
                                      + IN_SLICE))),
                  row(
                      "a column wider than the target: `CAST(amount AS DECIMAL(12, 2))`",
                      2,
                      "floe: Cannot write the query result of job.yaml to sales.fact_orders:"
                          + " column amount is DECIMAL(12, 2), sales.fact_orders expects"
                          + " DECIMAL(10, 2) (a narrowing CAST in the query changes values that do"
                          + " not fit without an error: they wrap around, become NULL or Infinity,"
                          + " or lose digits; check them first)",
                      f ->
                          f.run(
                              f.query(
                                  "SELECT order_id, customer_id, CAST(amount AS DECIMAL(12, 2))"
                                      + " AS amount, order_date\nFROM sales.staging_orders\n"
                                      + IN_SLICE))),
                  row(
                      "a syntax error: `SELEC`",
                      2,
                      "floe: Cannot plan the query of job.yaml: …",
                      f -> f.run(f.query("SELEC" + SELECT.substring(6) + IN_SLICE))),
                  row(
                      "a source table that does not exist: `FROM sales.staging_ordrs`",
                      2,
                      "floe: Cannot plan the query of job.yaml: table sales.staging_ordrs does not"
                          + " exist (line 2, column 6)",
                      f ->
                          f.run(
                              f.query(
                                  SELECT.replace("staging_orders", "staging_ordrs") + IN_SLICE))),
                  row(
                      "a statement that writes: `INSERT INTO sales.fact_orders SELECT …`",
                      2,
                      "floe: Cannot plan the query of job.yaml: …",
                      f -> f.run(f.query("INSERT INTO sales.fact_orders\n" + SELECT + IN_SLICE))))),
          new Group(
              "Data",
              "Queries whose rows break a rule; the run fails while writing, before the commit,"
                  + " with exit code 3. A value is quoted at most 100 characters long and on one"
                  + " line.",
              List.of(
                  row(
                      "NULL in a required column: `CAST(NULL AS BIGINT) AS order_id`",
                      3,
                      "floe: Cannot write NULL into required column order_id of sales.fact_orders:"
                          + " row {order_id=NULL, …}",
                      f ->
                          f.run(
                              f.query(
                                  "SELECT CAST(NULL AS BIGINT) AS order_id, customer_id, amount,"
                                      + " order_date\nFROM sales.staging_orders\n"
                                      + IN_SLICE))),
                  row(
                      "duplicate keys under `unique: [order_id]` (the slice's rows twice)",
                      3,
                      "floe: Cannot commit slice order_date=[2026-10-03,2026-10-04) of"
                          + " sales.fact_orders: 1 check(s) failed: unique: [order_id] failed: 2"
                          + " duplicated keys, e.g. order_id=1; order_id=2",
                      f -> f.run(f.query(SELECT + IN_SLICE + "\nUNION ALL\n" + SELECT + IN_SLICE))),
                  row(
                      "a decimal too large for `decimal(10,2)`: `amount * 1000000000`",
                      3,
                      "floe: Cannot commit slice order_date=[2026-10-03,2026-10-04) of"
                          + " sales.fact_orders: 1 check(s) failed: not_null: [order_id, amount]"
                          + " failed: 2 rows, e.g. {order_id=1, customer_id=10, amount=NULL,"
                          + " order_date=2026-10-03}; …",
                      f ->
                          f.run(
                              f.query(
                                  "SELECT order_id, customer_id, CAST(amount * 1000000000 AS"
                                      + " DECIMAL(10, 2)) AS amount, order_date\n"
                                      + "FROM sales.staging_orders\n"
                                      + IN_SLICE))),
                  row(
                      "a 2 MB string failing `accepted_values`",
                      3,
                      "floe: Cannot merge into sales.dim_customer: 1 check(s) failed:"
                          + " accepted_values: {column: tier, values: [free, pro]} failed: 2"
                          + " rows, e.g. {customer_id=11, tier=xxxx… (2000000 characters), …",
                      f ->
                          f.runWithout(
                              f.mergeQuery(
                                  "SELECT customer_id, REPEAT('x', 2000000) AS tier, updated_at\n"
                                      + "FROM sales.staging_customer"))),
                  row(
                      "a line break in a value failing `accepted_values`",
                      3,
                      "floe: Cannot merge into sales.dim_customer: 1 check(s) failed:"
                          + " accepted_values: {column: tier, values: [free, pro]} failed: 2"
                          + " rows, e.g. {customer_id=11, tier=pro\\nfloe: fake line, …",
                      f ->
                          f.runWithout(
                              f.mergeQuery(
                                  "SELECT customer_id, CONCAT('pro', CHR(10), 'floe: fake line')"
                                      + " AS tier, updated_at\nFROM sales.staging_customer"))),
                  row(
                      "a NULL merge key",
                      3,
                      "floe: Cannot match a row with a NULL key (customer_id) against"
                          + " sales.dim_customer: …",
                      f ->
                          f.runWithout(
                              f.mergeQuery(
                                  "SELECT CAST(NULL AS BIGINT) AS customer_id, tier, updated_at\n"
                                      + "FROM sales.staging_customer"))),
                  row(
                      "two rows with the same key and `ordering` value but different content",
                      3,
                      "floe: Cannot merge into sales.dim_customer: two source rows have key"
                          + " customer_id=11 and the same updated_at but different content, so"
                          + " neither is newer: …",
                      f ->
                          f.runWithout(
                              f.mergeQuery(
                                  "SELECT customer_id, tier, updated_at FROM"
                                      + " sales.staging_customer\nUNION ALL\n"
                                      + "SELECT customer_id, 'gold' AS tier, updated_at FROM"
                                      + " sales.staging_customer"))),
                  row(
                      "a query that fails while it runs: `AND 1 / (order_id - order_id) > 0`",
                      2,
                      "floe: Cannot run fact_orders_daily for 2026-10-03: its query failed while running: / by"
                          + " zero; nothing was committed",
                      f ->
                          f.run(f.query(SELECT + IN_SLICE + " AND 1 / (order_id - order_id) > 0"))),
                  row(
                      "a constant the planner cannot fold: `AND order_id > 1 / 0`",
                      2,
                      "floe: Cannot plan the query of job.yaml: …by zero",
                      f -> f.run(f.query(SELECT + IN_SLICE + " AND order_id > 1 / 0"))))),
          new Group(
              "Table specs",
              "`floe tables apply spec.yaml`, where spec.yaml declares a new table bad.events"
                  + " with one mistake; the table is not created.",
              List.of(
                  spec(
                      "an unknown type: `type: varchar`",
                      s -> s.replace("type: string", "type: varchar"),
                      "floe: Cannot read spec.yaml at 'schema[2].type': unknown type 'varchar'"
                          + " (expected one of …)"),
                  spec(
                      "a precision over 38: `type: \"decimal(50,2)\"`",
                      s -> s.replace("type: string", "type: \"decimal(50,2)\""),
                      "floe: Cannot read spec.yaml at 'schema[2].type': unknown type"
                          + " 'decimal(50,2)' (expected one of …, with 1 <= P <= 38 and S <= P)"),
                  spec(
                      "a column declared twice",
                      s -> s.replace("{name: note,", "{name: score,"),
                      "floe: Cannot read spec.yaml at 'schema[2].name': duplicate column 'score'"
                          + " (already declared at schema[1]; names differing only in case"
                          + " collide)"),
                  spec(
                      "a column declared twice in another case: `name: Score`",
                      s -> s.replace("{name: note,", "{name: Score,"),
                      "floe: Cannot read spec.yaml at 'schema[2].name': duplicate column 'Score'"
                          + " (already declared at schema[1]; names differing only in case"
                          + " collide)"),
                  spec(
                      "a column name with a dot: `name: note.text`",
                      s -> s.replace("{name: note,", "{name: note.text,"),
                      "floe: Cannot read spec.yaml at 'schema[2].name': expected a column name"
                          + " without '.', got 'note.text'"),
                  spec(
                      "a column name set to NULL: `name: ~`",
                      s -> s.replace("{name: note,", "{name: ~,"),
                      "floe: Cannot read spec.yaml at 'schema[2]': missing required key 'name'"),
                  spec(
                      "text where true or false belongs: `required: \"yes\"`",
                      s -> s.replace("type: string}", "type: string, required: \"yes\"}"),
                      "floe: Cannot read spec.yaml at 'schema[2].required': expected true or"
                          + " false, got 'yes'"),
                  spec(
                      "a partition on a column that does not exist: `partition: [dy]`",
                      s -> s.replace("partition: [day]", "partition: [dy]"),
                      "floe: Cannot read spec.yaml at 'partition[0]': unknown column 'dy' in"
                          + " partition field 'dy' (columns: id, score, note, day)"),
                  spec(
                      "a transform that does not exist: `week(day)`",
                      s -> s.replace("partition: [day]", "partition: [\"week(day)\"]"),
                      "floe: Cannot read spec.yaml at 'partition[0]': unknown partition transform"
                          + " 'week' in 'week(day)' (expected identity, year, month, day, hour,"
                          + " bucket(N, column) or truncate(W, column))"),
                  spec(
                      "a transform on the wrong type: `day(note)`",
                      s -> s.replace("partition: [day]", "partition: [\"day(note)\"]"),
                      "floe: Cannot read spec.yaml at 'partition[0]': day(note) does not apply to"
                          + " column note of type string (day works on date, timestamp,"
                          + " timestamptz)"),
                  spec(
                      "zero buckets: `bucket(0, id)`",
                      s -> s.replace("partition: [day]", "partition: [\"bucket(0, id)\"]"),
                      "floe: Cannot read spec.yaml at 'partition[0]': expected a positive bucket"
                          + " count in 'bucket(0, id)'"),
                  spec(
                      "a key on an optional column: `key: [note]`",
                      s -> s.replace("key: [id]", "key: [note]"),
                      "floe: Cannot read spec.yaml at 'key[0]': key column 'note' must be required"
                          + " (set required: true on it): a key cannot be null"),
                  spec(
                      "a key on a double: `key: [score]`",
                      s -> s.replace("key: [id]", "key: [score]"),
                      "floe: Cannot read spec.yaml at 'key[0]': key column 'score' cannot be"
                          + " double: Iceberg keys cannot be float or double"),
                  spec(
                      "a retention that is no duration: `max_age: 7 days`",
                      s -> s + "retention: {max_age: 7 days}\n",
                      "floe: Cannot read spec.yaml at 'retention.max_age': invalid ISO-8601"
                          + " duration '7 days' (expected e.g. P3D or PT6H; …)"),
                  spec(
                      "a retention keeping nothing: `keep_last: 0`",
                      s -> s + "retention: {keep_last: 0}\n",
                      "floe: Cannot read spec.yaml at 'retention.keep_last': expected a positive"
                          + " number of snapshots, got 0"),
                  spec(
                      "an unknown late-data action: `after_window: ignore`",
                      s -> s + "late_data: {window: P3D, after_window: ignore}\n",
                      "floe: Cannot read spec.yaml at 'late_data.after_window': unknown"
                          + " after_window 'ignore' (expected report or reopen)"),
                  spec(
                      "a table without its namespace: `table: events`",
                      s -> s.replace("table: bad.events", "table: events"),
                      "floe: Cannot read spec.yaml at 'table': expected <namespace>.<table>, e.g."
                          + " sales.fact_orders, got 'events'"),
                  spec(
                      "a property Iceberg reserves: `format-version: 1`",
                      s -> s + "properties: {format-version: 1}\n",
                      "floe: Cannot read spec.yaml at 'properties.format-version': property"
                          + " 'format-version' is reserved by Iceberg and cannot be set"),
                  row(
                      "a folder with one good and one bad spec",
                      2,
                      "floe: Cannot read specs/b.yaml at 'schema[0].type': unknown type 'text' …",
                      f -> {
                        f.write("specs/a.yaml", SPEC);
                        f.write(
                            "specs/b.yaml",
                            "table: bad.other\nschema:\n  - {name: id, type: text}\n");
                        return f.args("tables", "apply", f.dir().resolve("specs"));
                      }),
                  row(
                      "an incompatible change to an existing table: sales.fact_orders without"
                          + " `customer_id`",
                      2,
                      "floe: Cannot apply table specs: 1 change is refused, so no table was changed:"
                          + " Cannot drop optional column sales.fact_orders.customer_id long: …"
                          + " (use --allow-drop-columns to drop it)",
                      f ->
                          f.args(
                              "tables",
                              "apply",
                              f.write(
                                  "spec.yaml",
                                  f.example("tables/fact_orders.yaml")
                                      .replace("  - {name: customer_id, type: long}\n", "")))),
                  row(
                      "the same change as a dry run: the plan is printed, the exit code is the"
                          + " apply's",
                      2,
                      "floe: Cannot apply table specs: 1 change is refused, so no table was changed:"
                          + " Cannot drop optional column sales.fact_orders.customer_id long: …"
                          + " (use --allow-drop-columns to drop it)",
                      f ->
                          f.args(
                              "tables",
                              "apply",
                              f.write(
                                  "spec.yaml",
                                  f.example("tables/fact_orders.yaml")
                                      .replace("  - {name: customer_id, type: long}\n", "")),
                              "--dry-run")))),
          new Group(
              "Backfill manifests",
              "`floe backfill backfills/backfill.yaml`, next to a copy of the daily job in"
                  + " jobs/ as in examples/; the range is checked before any slice runs.",
              List.of(
                  backfill(
                      "`to` before `from`",
                      "from: 2026-01-10\nto: 2026-01-01\n",
                      "floe: Cannot read backfills/backfill.yaml at 'to': '2026-01-01' is not after"
                          + " from '2026-01-10': the range is empty (to is exclusive)"),
                  backfill(
                      "an empty range: `from` equal to `to`",
                      "from: 2026-01-01\nto: 2026-01-01\n",
                      "floe: Cannot read backfills/backfill.yaml at 'to': '2026-01-01' is not after"
                          + " from '2026-01-01': the range is empty (to is exclusive)"),
                  backfill(
                      "a day that does not exist: `from: 2026-02-30`",
                      "from: 2026-02-30\nto: 2026-03-05\n",
                      "floe: Cannot read backfills/backfill.yaml at 'from': '2026-02-30' is not a"
                          + " slice value: Invalid date 'FEBRUARY 30'"),
                  backfill(
                      "an hour in a day-partitioned table's range: `from: 2026-01-01T00`",
                      "from: 2026-01-01T00\nto: 2026-01-02T00\n",
                      "floe: Cannot use range start (backfills/backfill.yaml: from) 2026-01-01T00"
                          + " on sales.fact_orders: an hour slice does not cover whole partitions of"
                          + " spec [identity(order_date)]; …"),
                  backfill(
                      "ends of two units: `from: 2026-01`, `to: 2026-02-01`",
                      "from: 2026-01\nto: 2026-02-01\n",
                      "floe: Cannot read backfills/backfill.yaml at 'to': '2026-02-01' is a day and"
                          + " from '2026-01' a month: both ends must be slices of the same unit"),
                  backfill(
                      "a range of 3.6 million days: `from: 0001-01-01`, `to: 9998-01-01`",
                      "from: 0001-01-01\nto: 9998-01-01\n",
                      "floe: Cannot backfill sales.fact_orders from 0001-01-01 to 9998-01-01: more"
                          + " than 100000 slices; split the range"),
                  backfill(
                      "no parallel slices: `max_concurrency: 0`",
                      "from: 2026-01-01\nto: 2026-01-03\nmax_concurrency: 0\n",
                      "floe: Cannot read backfills/backfill.yaml at 'max_concurrency': expected 1"
                          + " to 1024, got 0"),
                  backfill(
                      "too many parallel slices: `max_concurrency: 10000`",
                      "from: 2026-01-01\nto: 2026-01-03\nmax_concurrency: 10000\n",
                      "floe: Cannot read backfills/backfill.yaml at 'max_concurrency': expected 1"
                          + " to 1024, got 10000"),
                  row(
                      "a job file that does not exist: `job: ../jobs/nope.yaml`",
                      2,
                      "floe: Cannot read job manifest jobs/nope.yaml: no such file",
                      f ->
                          f.args(
                              "backfill",
                              f.backfill(
                                  "job: ../jobs/nope.yaml\nfrom: 2026-01-01\nto: 2026-01-03\n"))),
                  row(
                          "`job: ../secret.txt`, a `../` path to a credentials file",
                          2,
                          "floe: Cannot read secret.txt: expected a YAML mapping at the top",
                          f -> {
                            f.write("secret.txt", "aws_secret_access_key=wJalrXUtnFEMI/K7MDENG\n");
                            return f.args(
                                "backfill",
                                f.backfill(
                                    "job: ../secret.txt\nfrom: 2026-01-01\nto: 2026-01-03\n"));
                          })
                      .hiding("wJalrXUtnFEMI"),
                  row(
                      "`job: ../jobs`, a folder",
                      2,
                      "floe: Cannot read job manifest jobs: it is a folder, not a file",
                      f ->
                          f.args(
                              "backfill",
                              f.backfill("job: ../jobs\nfrom: 2026-01-01\nto: 2026-01-03\n"))),
                  row(
                      "`--max-concurrency 0`",
                      2,
                      "floe: Cannot backfill …: --max-concurrency must be 1 to 1024, got 0",
                      f ->
                          f.args(
                              "backfill",
                              f.backfill(
                                  "job: ../jobs/fact_orders_daily.yaml\nfrom: 2026-01-01\n"
                                      + "to: 2026-01-03\n"),
                              "--max-concurrency",
                              "0")),
                  row(
                      "`--max-concurrency 5000` (the manifest's max_concurrency stops at 1024)",
                      2,
                      "floe: Cannot backfill …: --max-concurrency must be 1 to 1024, got 5000",
                      f ->
                          f.args(
                              "backfill",
                              f.backfill(
                                  "job: ../jobs/fact_orders_daily.yaml\nfrom: 2026-01-01\n"
                                      + "to: 2026-01-03\n"),
                              "--max-concurrency",
                              "5000",
                              "--dry-run")),
                  backfill(
                      "a backfill id with a slash: `backfill: jan/rebuild`",
                      "backfill: jan/rebuild\nfrom: 2026-01-01\nto: 2026-01-03\n",
                      "floe: Cannot use backfill id 'jan/rebuild' from backfills/backfill.yaml: use"
                          + " 1 to 128 letters, digits, '.', '_' or '-', starting with a letter or"
                          + " digit"),
                  backfill(
                      "a sample outside the range: `sample: 2026-02-01`",
                      "from: 2026-01-01\nto: 2026-01-03\nsample: 2026-02-01\n",
                      "floe: Cannot use sample of backfills/backfill.yaml: 2026-02-01 is not one"
                          + " of the 2 slices of the range, 2026-01-01 to 2026-01-02 (inclusive)"),
                  backfill(
                          "a literal secret in `on_backfill_done`",
                          "from: 2026-01-01\nto: 2026-01-03\non_backfill_done:\n  - name: bi\n"
                              + "    webhook:\n      url: https://bi.example.com/hook\n"
                              + "      headers: {X-Api-Key: \"k3y-0f-th3-bi\"}\n",
                          "floe: Cannot read backfills/backfill.yaml at"
                              + " 'on_backfill_done[0].webhook.headers.X-Api-Key': header"
                              + " 'X-Api-Key' looks secret, …")
                      .hiding("k3y-0f-th3-bi"))),
          new Group(
              "Catalog settings",
              "`floe run examples/jobs/fact_orders_daily.yaml --slice 2026-10-03` with `--config"
                  + " floe.yaml` or `--catalog-property`. A `FLOE_CATALOG_<KEY>` variable goes the"
                  + " same way as `--catalog-property <key>=...` (CatalogConfigLoaderTest covers the"
                  + " variables; the CLI reads the real environment, which a test cannot set).",
              List.of(
                  catalog(
                      "an unknown catalog type: `--catalog-property type=oracle`",
                      f -> new String[] {"--catalog-property", "type=oracle"},
                      2,
                      "floe: Cannot configure catalog: unknown catalog.type 'oracle' (expected one"
                          + " of embedded, glue, hadoop, jdbc, rest)"),
                  catalog(
                          "a secret in floe.yaml: `s3.secret-access-key: …`",
                          f ->
                              config(
                                  f,
                                  "catalog:\n  type: rest\n  properties:\n"
                                      + "    uri: http://127.0.0.1:1\n"
                                      + "    s3.secret-access-key: wJalrXUtnFEMI-K7MDENG\n"),
                          2,
                          "floe: Cannot read catalog property 's3.secret-access-key' from"
                              + " floe.yaml: credentials never belong in files; set the"
                              + " environment variable FLOE_CATALOG_S3__SECRET_ACCESS_KEY instead"
                              + " …")
                      .hiding("wJalrXUtnFEMI"),
                  catalog(
                          "a password inside the uri in floe.yaml",
                          f ->
                              config(
                                  f,
                                  "catalog:\n  type: jdbc\n  properties:\n"
                                      + "    uri: jdbc:postgresql://db/floe?user=floe&password="
                                      + "hunter2-pw\n"),
                          2,
                          "floe: Cannot read catalog property 'uri' from floe.yaml: its value"
                              + " carries a password …")
                      .hiding("hunter2-pw"),
                  catalog(
                      "a REST catalog without `uri`",
                      f -> new String[] {"--catalog-property", "type=rest"},
                      2,
                      "floe: Cannot configure catalog: catalog.type 'rest' needs the property"
                          + " 'uri'"),
                  catalog(
                      "a JDBC catalog without `uri`",
                      f -> new String[] {"--catalog-property", "type=jdbc"},
                      2,
                      "floe: Cannot configure catalog: catalog.type 'jdbc' needs the property"
                          + " 'uri'"),
                  catalog(
                      "a hadoop catalog without `warehouse`",
                      f -> new String[] {"--catalog-property", "type=hadoop"},
                      2,
                      "floe: Cannot configure catalog: catalog.type 'hadoop' needs the property"
                          + " 'warehouse', …"),
                  catalog(
                      "a REST uri without its scheme: `--catalog-property uri=127.0.0.1:8181`",
                      f ->
                          new String[] {
                            "--catalog-property",
                            "type=rest",
                            "--catalog-property",
                            "uri=127.0.0.1:8181"
                          },
                      2,
                      "floe: Cannot configure catalog: property uri=127.0.0.1:8181 is not an http://"
                          + " or https:// URL, e.g. http://127.0.0.1:8181"),
                  catalog(
                      "floe.yaml that is not YAML",
                      f -> config(f, "catalog: [embedded\n"),
                      2,
                      "floe: Cannot read floe.yaml: not valid YAML: …"),
                  catalog(
                      "an unknown key in floe.yaml: `warehouse:` beside `catalog:`",
                      f -> config(f, "catalog:\n  type: embedded\nwarehouse: /tmp/w\n"),
                      2,
                      "floe: Cannot read floe.yaml: unknown key 'warehouse' (allowed: catalog)"),
                  catalog(
                      "`--config` naming a file that does not exist",
                      f -> new String[] {"--config", f.dir().resolve("floe.yml").toString()},
                      2,
                      "floe: Cannot read catalog config floe.yml: no such file"),
                  catalog(
                      "a timeout that is no duration: `--catalog-property floe.connect-timeout=soon`",
                      f -> new String[] {"--catalog-property", "floe.connect-timeout=soon"},
                      2,
                      "floe: Cannot read catalog property 'floe.connect-timeout': 'soon' is not a"
                          + " duration (e.g. 30s, 500ms, 2m, PT30S; 0 skips the check)"),
                  catalog(
                      "a REST catalog nobody listens on: `--catalog-property uri=http://127.0.0.1:1`",
                      f ->
                          new String[] {
                            "--catalog-property",
                            "type=rest",
                            "--catalog-property",
                            "uri=http://127.0.0.1:1"
                          },
                      1,
                      "floe: Cannot run fact_orders_daily for 2026-10-03: cannot reach the REST"
                          + " catalog at http://127.0.0.1:1: connection refused"),
                  catalog(
                      "a property without a value: `--catalog-property uri`",
                      f -> new String[] {"--catalog-property", "uri"},
                      2,
                      "floe: Value for option option '--catalog-property' (KEY=VALUE) should be in"
                          + " KEY=VALUE format but was uri (see `floe run --help`)"),
                  row(
                      "`--home` naming a file",
                      2,
                      "floe: Cannot use the Floe home not-a-folder: it is a file, not a folder",
                      f -> {
                        f.useHome(f.write("not-a-folder", "x"));
                        return f.run(f.examples(DAILY));
                      }),
                  row(
                      "`--home` naming a folder that holds no Floe home (a typo), for a command"
                          + " that only reads: `floe snapshots sales.fact_orders`",
                      2,
                      "floe: Cannot open the catalog: typo holds no Floe home (FLOE_HOME or"
                          + " --home); create one with `floe tables apply` or `floe quickstart`",
                      f -> {
                        f.useHome(f.dir().resolve("typo"));
                        return f.args("snapshots", "sales.fact_orders");
                      }))),
          new Group(
              "Command line",
              "Flags and arguments of `floe run`, `floe backfill` and `floe sql`. A mistake picocli"
                  + " finds while parsing names the command whose `--help` shows its usage.",
              List.of(
                  row(
                      "a typo of a command: `floe backfil`",
                      2,
                      "floe: Unmatched arguments from index 0: 'backfil', …; did you mean backfill?"
                          + " (see `floe --help`)",
                      f -> f.args("backfil", f.examples(DAILY))),
                  row(
                      "a flag typo: `--slcie 2026-10-03`",
                      2,
                      "floe: Unknown options: '--slcie', '2026-10-03'; did you mean --slice?"
                          + " (see `floe run --help`)",
                      f -> f.runWithout(f.examples(DAILY), "--slcie", "2026-10-03")),
                  row(
                      "a number that is not one: `--parallelism abc`",
                      2,
                      "floe: Invalid value for option '--parallelism': 'abc' is not an int"
                          + " (see `floe run --help`)",
                      f -> f.run(f.examples(DAILY), "--parallelism", "abc")),
                  row(
                      "a number too large for an int: `--parallelism 99999999999`",
                      2,
                      "floe: Invalid value for option '--parallelism': '99999999999' is not an"
                          + " int (see `floe run --help`)",
                      f -> f.run(f.examples(DAILY), "--parallelism", "99999999999")),
                  row(
                      "a negative parallelism: `--parallelism -1`",
                      2,
                      "floe: Cannot use --parallelism -1: give 1 to 32768, or 0 (or nothing) for the"
                          + " default",
                      f -> f.run(f.examples(DAILY), "--parallelism", "-1")),
                  row(
                      "`floe sql --parallelism -5` (it ran the statement)",
                      2,
                      "floe: Cannot use --parallelism -5: give 1 to 32768, or 0 (or nothing) for the"
                          + " default",
                      f -> f.args("sql", "--parallelism", "-5", "SELECT 1 AS x")),
                  row(
                      "a parallelism above Flink's limit: `--parallelism 40000`",
                      2,
                      "floe: Cannot use --parallelism 40000: give 1 to 32768, or 0 (or nothing) for"
                          + " the default",
                      f -> f.run(f.examples(DAILY), "--parallelism", "40000")),
                  row(
                      "`--max-conflict-retries -1`",
                      2,
                      "floe: Cannot run: max conflict retries must be 0 or more, got -1",
                      f -> f.run(f.examples(DAILY), "--max-conflict-retries", "-1")),
                  row(
                      "`--publish sometimes`",
                      2,
                      "floe: Cannot read --publish 'sometimes': expected auto or manual",
                      f -> f.run(f.examples(DAILY), "--publish", "sometimes")),
                  row(
                      "options that contradict: `--allow-effects` without `--backfill-id`",
                      2,
                      "floe: Cannot run examples/jobs/fact_orders_daily.yaml with --allow-effects:"
                          + " it only applies to a backfill slice (--backfill-id); …",
                      f -> f.run(f.examples(DAILY), "--allow-effects")),
                  row(
                      "`--force-commit` on a merge",
                      2,
                      "floe: Cannot run examples/jobs/dim_customer_merge.yaml with --force-commit:"
                          + " mode merge commits only rows that change, …",
                      f -> f.runWithout(f.examples(MERGE), "--force-commit")),
                  row(
                      "`--recompute` on a merge (it was accepted and changed nothing)",
                      2,
                      "floe: Cannot run examples/jobs/dim_customer_merge.yaml with --recompute:"
                          + " mode merge never skips its job as an unchanged rerun, …",
                      f -> f.runWithout(f.examples(MERGE), "--recompute", "--dry-run")),
                  row(
                      "`--backfill-id` with a space: `--backfill-id \"jan rebuild\"`",
                      2,
                      "floe: Cannot use backfill id 'jan rebuild' from --backfill-id: …",
                      f -> f.run(f.examples(DAILY), "--backfill-id", "jan rebuild")),
                  row(
                      "no manifest: `floe run --slice 2026-10-03`",
                      2,
                      "floe: Missing required parameter: 'MANIFEST' (see `floe run --help`)",
                      f -> f.args("run", "--slice", "2026-10-03")),
                  row(
                      "a backfill of a job without slices, with a bad `--from`",
                      2,
                      "floe: Cannot backfill examples/jobs/dim_customer_merge.yaml: mode merge"
                          + " without slice: {column: ...} owns the whole table, so there are no"
                          + " slices to backfill; …",
                      f ->
                          f.args(
                              "backfill", f.examples(MERGE), "--from", "bad", "--to", "2026-02")),
                  row(
                      "an empty `--sample \"\"`",
                      2,
                      "floe: Cannot use an empty --sample: give a slice of column order_date"
                          + " (yyyy-MM-dd, e.g. 2026-10-03)",
                      f ->
                          f.args(
                              "backfill",
                              f.examples(DAILY),
                              "--from",
                              "2026-01-01",
                              "--to",
                              "2026-01-03",
                              "--sample",
                              "")),
                  row(
                      "a backfill's end that is not a day: `--to 2026-02-30`",
                      2,
                      "floe: Cannot parse --to '2026-02-30': Invalid date 'FEBRUARY 30'",
                      f ->
                          f.args(
                              "backfill",
                              f.examples(DAILY),
                              "--from",
                              "2026-01-01",
                              "--to",
                              "2026-02-30")),
                  row(
                      "a backfill progress style that does not exist: `--progress fancy`",
                      2,
                      "floe: Cannot show progress 'fancy' (--progress): use auto, bar, lines or none",
                      f ->
                          f.args(
                              "backfill",
                              f.examples(DAILY),
                              "--from",
                              "2026-01-01",
                              "--to",
                              "2026-01-03",
                              "--progress",
                              "fancy")),
                  row(
                      "the same progress style in a dry run: `--progress fancy --dry-run`",
                      2,
                      "floe: Cannot show progress 'fancy' (--progress): use auto, bar, lines or none",
                      f ->
                          f.args(
                              "backfill",
                              f.examples(DAILY),
                              "--from",
                              "2026-01-01",
                              "--to",
                              "2026-01-03",
                              "--progress",
                              "fancy",
                              "--dry-run")),
                  row(
                      "statements and a file at once: `floe sql \"SELECT 1\" -f seed.sql`",
                      2,
                      "floe: Cannot run SQL: give either statements or -f FILE, not both",
                      f -> f.args("sql", "SELECT 1", "-f", f.write("seed.sql", "SELECT 1;"))),
                  row(
                      "`floe sql -f` naming a file that does not exist",
                      2,
                      "floe: Cannot read SQL file nope.sql: no such file",
                      f -> f.args("sql", "-f", f.dir().resolve("nope.sql"))),
                  row(
                      "`floe sql -f` naming a folder",
                      2,
                      "floe: Cannot read SQL file sql: it is a folder, not a file",
                      f -> f.args("sql", "-f", f.mkdir("sql"))),
                  row(
                      "`floe sql -f` naming a Latin-1 file",
                      2,
                      "floe: Cannot read SQL file seed.sql: it is not valid UTF-8; save it as UTF-8",
                      f ->
                          f.args(
                              "sql",
                              "-f",
                              f.write(
                                  "seed.sql",
                                  "SELECT 'caf\u00e9';".getBytes(StandardCharsets.ISO_8859_1)))),
                  row(
                      "a syntax error in `floe sql \"SELEC 1\"`",
                      2,
                      "floe: Cannot run SQL statement 1 (line 1 of the command line): SQL parse"
                          + " failed. …",
                      f -> f.args("sql", "SELEC 1")),
                  row(
                      "a constant the planner cannot fold: `floe sql \"SELECT 1 / 0\"`",
                      2,
                      "floe: Cannot run SQL statement 1 (line 1 of the command line): Division by"
                          + " zero",
                      f -> f.args("sql", "SELECT 1 / 0")),
                  row(
                      "a value its column cannot hold exactly: `floe sql \"INSERT INTO"
                          + " sales.staging_orders VALUES (9, 10, 1.005, DATE '2026-10-09')\"`",
                      2,
                      "floe: Cannot run SQL statement 1 (line 1 of the command line): Cannot insert"
                          + " into floe.sales.staging_orders without changing values: column"
                          + " amount is DECIMAL(10, 2) and the statement gives it DECIMAL(4, 3) (…)",
                      f ->
                          f.args(
                              "sql",
                              "INSERT INTO sales.staging_orders VALUES (9, 10, 1.005, DATE"
                                  + " '2026-10-09')")),
                  row(
                      "a value the statement cannot compute while its job runs:"
                          + " `floe sql \"SELECT 1 / (order_id - order_id) FROM"
                          + " sales.staging_orders\"`",
                      2,
                      "floe: Cannot run SQL statement 1 (line 1 of the command line): / by zero",
                      f ->
                          f.args(
                              "sql", "SELECT 1 / (order_id - order_id) FROM sales.staging_orders")),
                  row(
                      "a snapshot the table does not have, in a read option: `floe sql \"SELECT"
                          + " count(*) FROM sales.staging_orders /*+ OPTIONS('snapshot-id'='1')"
                          + " */\"`",
                      2,
                      "floe: Cannot run SQL statement 1 (line 1 of the command line): Cannot find"
                          + " snapshot with ID 1 (a read option of an Iceberg table: floe"
                          + " snapshots and floe tags list the snapshots and refs a table has)",
                      f ->
                          f.args(
                              "sql",
                              "SELECT count(*) FROM sales.staging_orders"
                                  + " /*+ OPTIONS('snapshot-id'='1') */")),
                  row(
                      "a read option Iceberg cannot parse: `floe sql \"SELECT count(*) FROM"
                          + " sales.staging_orders /*+ OPTIONS('snapshot-id'='abc') */\"`",
                      2,
                      "floe: Cannot run SQL statement 1 (line 1 of the command line): a read"
                          + " option of an Iceberg table (a query hint or a table property) cannot"
                          + " be read: For input string: \"abc\"",
                      f ->
                          f.args(
                              "sql",
                              "SELECT count(*) FROM sales.staging_orders"
                                  + " /*+ OPTIONS('snapshot-id'='abc') */")),
                  row(
                      "a read option that picks a source's snapshot by tag in a run's query"
                          + " (beside the run's pin, Iceberg ignored it):"
                          + " `FROM sales.staging_orders /*+ OPTIONS('tag'='nope') */`",
                      2,
                      "floe: Cannot plan the query of job.yaml: it reads sales.staging_orders"
                          + " with read option 'tag'='nope' (a query hint or a table property),"
                          + " but a run reads each source at its current snapshot, which its"
                          + " lineage records; read a tag, branch or time with floe sql",
                      f ->
                          f.run(
                              f.query(
                                  "SELECT order_id, customer_id, amount, order_date\n"
                                      + "FROM sales.staging_orders /*+ OPTIONS('tag'='nope') */\n"
                                      + IN_SLICE))),
                  row(
                      "`floe backfill --parallelism 40000`",
                      2,
                      "floe: Cannot use --parallelism 40000: give 1 to 32768, or 0 (or nothing) for"
                          + " the default",
                      f ->
                          f.args(
                              "backfill",
                              f.examples(DAILY),
                              "--from",
                              "2026-01-01",
                              "--to",
                              "2026-01-03",
                              "--parallelism",
                              "40000")),
                  row(
                      "`floe verify` without `--slice`",
                      2,
                      "floe: Cannot run examples/jobs/fact_orders_daily.yaml: missing --slice …",
                      f -> f.args("verify", f.examples(DAILY))),
                  row(
                      "`floe maintain --orphans --orphan-min-age abc`",
                      2,
                      "floe: Cannot parse --orphan-min-age 'abc': expected a duration, ISO-8601"
                          + " such as PT30M or PT2H, or 90s, 30m, 2h, 1d",
                      f ->
                          f.args(
                              "maintain",
                              "sales.fact_orders",
                              "--orphans",
                              "--orphan-min-age",
                              "abc")),
                  row(
                      "`floe maintain --compact --target-file-size -5` when the policy picks no"
                          + " slice",
                      2,
                      "floe: Cannot use --target-file-size -5: the target file size must be"
                          + " positive",
                      f ->
                          f.args(
                              "maintain",
                              "sales.fact_orders",
                              "--compact",
                              "--target-file-size",
                              "-5",
                              "--dry-run")),
                  row(
                      "`floe rollback --to-time yesterday`",
                      2,
                      "floe: Cannot parse --to-time 'yesterday': expected ISO-8601 with an offset,"
                          + " e.g. 2026-10-04T02:00:00Z",
                      f -> f.args("rollback", "sales.fact_orders", "--to-time", "yesterday")),
                  row(
                      "`floe rollback --before-run` with a run id that is not in the history",
                      2,
                      "floe: Cannot roll sales.fact_orders back to before run not-a-run: no snapshot"
                          + " of the current history has that run id (…)",
                      f -> f.args("rollback", "sales.fact_orders", "--before-run", "not-a-run")),
                  row(
                      "`floe snapshots --limit 0`",
                      2,
                      "floe: Cannot list the snapshots of sales.fact_orders with --limit 0: give a"
                          + " number of at least 1, or leave --limit out for all",
                      f -> f.args("snapshots", "sales.fact_orders", "--limit", "0")),
                  row(
                      "`floe tag --retain P999999999999D` (past what Iceberg's milliseconds hold)",
                      2,
                      "floe: Cannot tag sales.fact_orders as t with --retain P999999999999D:"
                          + " the retention must be at least a millisecond and at most"
                          + " P365250D (1,000 years)",
                      f -> f.args("tag", "sales.fact_orders", "t", "--retain", "P999999999999D")),
                  row(
                      "`floe report --out` into a folder that does not exist",
                      2,
                      "floe: Cannot write the report to /nonexistent-dir/x.html: folder"
                          + " /nonexistent-dir does not exist",
                      f ->
                          f.args(
                              "report", "sales.fact_orders", "--out", "/nonexistent-dir/x.html")),
                  row(
                      "`floe tables apply` naming a path that does not exist",
                      2,
                      "floe: Cannot read table spec nope: no such file",
                      f -> f.args("tables", "apply", f.dir().resolve("nope"))),
                  row(
                      "a row-level change Iceberg's Flink sink cannot make:"
                          + " `floe sql \"DELETE FROM sales.staging_orders WHERE order_id = 1\"`",
                      2,
                      "floe: Cannot run SQL statement 1 (line 1 of the command line): Can't"
                          + " perform delete operation of the table floe.sales.staging_orders …"
                          + "SupportsRowLevelDelete. To remove rows, rewrite their slice with a"
                          + " floe run overwrite, which also empties a slice; INSERT OVERWRITE"
                          + " replaces only the partitions its query writes rows to",
                      f -> f.args("sql", "DELETE FROM sales.staging_orders WHERE order_id = 1")),
                  row(
                      "a command of Flink's SQL client: `floe sql \"SET 'parallelism.default' ="
                          + " '1'\"`",
                      2,
                      "floe: Cannot run SQL statement 1 (line 1 of the command line): SET is a"
                          + " command of Flink's SQL client, not of floe sql; the parallelism is"
                          + " --parallelism, and a table's read or write options go in a /*+"
                          + " OPTIONS('key'='value') */ hint",
                      f -> f.args("sql", "SET 'parallelism.default' = '1'")),
                  row(
                      "a primary key without NOT ENFORCED:"
                          + " `floe sql \"CREATE TABLE sales.pk (id INT PRIMARY KEY)\"`",
                      2,
                      "floe: Cannot run SQL statement 1 (line 1 of the command line): Flink"
                          + " doesn't support ENFORCED mode for PRIMARY KEY constraint. …",
                      f -> f.args("sql", "CREATE TABLE sales.pk (id INT PRIMARY KEY)")),
                  row(
                      "a table replaced by a query that reads it: `floe sql \"REPLACE TABLE"
                          + " sales.staging_orders AS SELECT * FROM sales.staging_orders\"`",
                      2,
                      "floe: Cannot run SQL statement 1 (line 1 of the command line): REPLACE"
                          + " TABLE ... AS is not run by floe sql on a table that exists"
                          + " (sales.staging_orders): Flink drops the table (an Iceberg table with"
                          + " its files) before the query runs, … or use floe run with mode: swap",
                      f ->
                          f.args(
                              "sql",
                              "REPLACE TABLE sales.staging_orders AS SELECT * FROM"
                                  + " sales.staging_orders")),
                  row(
                      "a new table given a property Iceberg cannot parse: `floe sql \"CREATE"
                          + " TABLE sales.limited WITH ('write.summary.partition-limit'='x') AS"
                          + " SELECT * FROM sales.staging_orders\"`",
                      2,
                      "floe: Cannot run SQL statement 1 (line 1 of the command line): property"
                          + " write.summary.partition-limit of sales.limited: expected a whole"
                          + " number up to 2147483647 for Iceberg's write.summary.partition-limit,"
                          + " got 'x' (Iceberg could not write the table)",
                      f ->
                          f.args(
                              "sql",
                              "CREATE TABLE sales.limited WITH"
                                  + " ('write.summary.partition-limit'='x') AS SELECT * FROM"
                                  + " sales.staging_orders")),
                  row(
                      "a table given a property Iceberg cannot parse: `floe sql \"ALTER TABLE"
                          + " sales.staging_orders SET ('write.summary.partition-limit'='x')\"`",
                      2,
                      "floe: Cannot run SQL statement 1 (line 1 of the command line): property"
                          + " write.summary.partition-limit of sales.staging_orders: expected a"
                          + " whole number up to 2147483647 for Iceberg's"
                          + " write.summary.partition-limit, got 'x' (Iceberg could not write the"
                          + " table)",
                      f ->
                          f.args(
                              "sql",
                              "ALTER TABLE sales.staging_orders SET"
                                  + " ('write.summary.partition-limit'='x')")),
                  row(
                      "a table given a key Floe writes from its spec: `floe sql \"ALTER TABLE"
                          + " sales.staging_orders SET ('floe.maintain.strategy'='sort')\"`",
                      2,
                      "floe: Cannot run SQL statement 1 (line 1 of the command line): property"
                          + " floe.maintain.strategy of sales.staging_orders is Floe's own (keys"
                          + " under floe.): `floe tables apply` writes them from the table's spec",
                      f ->
                          f.args(
                              "sql",
                              "ALTER TABLE sales.staging_orders SET"
                                  + " ('floe.maintain.strategy'='sort')")),
                  row(
                      "a rollback through Iceberg's Flink catalog: `floe sql \"ALTER TABLE"
                          + " sales.staging_orders SET ('current-snapshot-id'='1')\"`",
                      2,
                      "floe: Cannot run SQL statement 1 (line 1 of the command line): property"
                          + " current-snapshot-id of sales.staging_orders would make snapshot '1'"
                          + " current and leave the snapshots after it to expiry: roll back with"
                          + " `floe rollback TABLE --to-snapshot ID`, which tags the head so it can"
                          + " be undone",
                      f ->
                          f.args(
                              "sql",
                              "ALTER TABLE sales.staging_orders SET"
                                  + " ('current-snapshot-id'='1')")))));

  private static BadInput slice(String input, String value, String says) {
    return row(input, 2, says, f -> f.args("run", f.examples(DAILY), "--slice", value));
  }

  private static BadInput spec(
      String input, java.util.function.UnaryOperator<String> edit, String says) {
    return row(
        input,
        2,
        says,
        f -> {
          String changed = edit.apply(SPEC);
          if (changed.equals(SPEC)) {
            throw new IllegalStateException("The row's edit changes nothing: " + input);
          }
          return f.args("tables", "apply", f.write("spec.yaml", changed));
        });
  }

  private static BadInput backfill(String input, String body, String says) {
    return row(
        input,
        2,
        says,
        f -> f.args("backfill", f.backfill("job: ../jobs/fact_orders_daily.yaml\n" + body)));
  }

  private static BadInput catalog(
      String input,
      java.util.function.Function<BadInput.RowFiles, String[]> options,
      int exit,
      String says) {
    return row(input, exit, says, f -> f.run(f.examples(DAILY), options.apply(f)));
  }

  private static String[] config(BadInput.RowFiles f, String text) {
    return new String[] {"--config", f.write("floe.yaml", text).toString()};
  }

  private static String replaceQuery(BadInput.RowFiles f, String replacement) {
    String text = f.example(DAILY);
    return text.substring(0, text.indexOf("query: |"))
        + replacement
        + text.substring(text.indexOf("checks:"));
  }

  /** Nine levels of aliases: a billion-laughs document expands to 2^9 copies. */
  private static String aliasBomb() {
    StringBuilder yaml = new StringBuilder("a0: &a0 [lol, lol]\n");
    for (int i = 1; i < 9; i++) {
      yaml.append("a").append(i).append(": &a").append(i).append(" [*a").append(i - 1);
      yaml.append(", *a").append(i - 1).append("]\n");
    }
    return yaml.toString();
  }

  private static Path sized(Path file, long length) {
    try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw")) {
      out.setLength(length);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
