package dev.floe.flink.cli;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.flink.session.FlinkSessions;
import dev.floe.flink.session.LocalCluster;
import dev.floe.flink.sql.ResultJson;
import dev.floe.flink.sql.ResultTable;
import dev.floe.flink.sql.SqlRunner;
import dev.floe.flink.sql.SqlScript;
import dev.floe.flink.sql.StatementResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `floe sql "<Flink SQL>"` or `floe sql -f file.sql`: batch Flink SQL against the catalog. */
@Command(
    name = "sql",
    header = "Run Flink SQL statements against the catalog.",
    mixinStandardHelpOptions = true,
    description = {
      "Run Flink SQL statements (DDL, INSERT, SELECT, SHOW, DESCRIBE) in batch mode against the",
      "configured Iceberg catalog, e.g. to seed staging data or inspect results. Name tables",
      "as namespace.table (or USE a namespace first). TIMESTAMP_LTZ values print in UTC as",
      "PostgreSQL prints timestamptz, 2026-10-03 12:00:00+00; --json writes them as ISO 8601,",
      "2026-10-03T12:00:00Z, which JSON consumers parse as is. Timestamps keep their",
      "microseconds; uuid columns print as 00112233-4455-6677-8899-aabbccddeeff. A statement",
      "that reads or writes a table with a time column is refused (exit 2): Flink holds a time",
      "in milliseconds.",
      "Statements run in order and a script stops at the first that fails; what the statements",
      "before it committed stays committed (with --json, the failure object lists them under",
      "completed). Refused with exit 2: DELETE and UPDATE (Iceberg's",
      "Flink sink changes no single rows: rewrite the slice with floe run), statement sets,",
      "compiled plans, ANALYZE TABLE, REPLACE TABLE ... AS of an existing table (Flink drops it",
      "before its query runs), a database or table named with a '.' (Iceberg's connector",
      "splits names there), a CREATE TABLE or ALTER TABLE ... SET giving a table a property",
      "value Iceberg cannot parse or would misread (gc.enabled=yes reads as false), a key",
      "Iceberg reserves (uuid, ...; format-version may be set) or one Floe writes itself",
      "(any key under floe.; those Floe writes, also in ALTER TABLE ... RESET: set them in",
      "the table's spec), a key Iceberg would keep as one of its own (spaces around it,",
      "Format-Version), a RESET of a key Iceberg keeps in the metadata, current-snapshot-id",
      "(roll back with floe rollback), cherry-pick-snapshot-id and an ALTER of location (a",
      "move orphan removal would not follow), a read of a table with a",
      "column added with a default (Flink reads NULL in the files before it), an INSERT",
      "leaving out a column with a write default (Flink stores NULL), an INSERT",
      "into a table with a value Iceberg cannot",
      "parse (its commit would fail after the files were written), and the SQL client's own",
      "commands (SET, HELP, SHOW JOBS, ...). With",
      "--json, a MAP with a NULL key is refused (exit 2) at its statement: JSON cannot hold it."
    })
public final class SqlCommand implements Callable<Integer> {
  @Mixin CommonOptions common;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "SQL",
      description = "Statements separated by ';' (or use -f).")
  String sql;

  @Option(
      names = {"-f", "--file"},
      paramLabel = "FILE",
      description = "Read statements from a file.")
  Path file;

  @Mixin ParallelismOption parallelism;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (!common.json) {
      boolean[] first = {true};
      run(
          result -> {
            out.println((first[0] ? "" : "\n") + ResultTable.render(result));
            out.flush();
            first[0] = false;
          });
      return ExitCodes.OK;
    }
    // Each result is checked as its statement completes: one JSON cannot hold stops the script.
    ResultJson.Collector json = new ResultJson.Collector();
    try {
      run(json);
    } catch (RuntimeException e) {
      // One failure object, whatever failed (also before the first statement), with what the
      // statements before the failing one did: their INSERTs are committed, which a script must
      // be able to tell.
      Map<String, Object> failure =
          e instanceof FloeException floe
              ? FloeMain.failure(floe.exitCode(), floe.getMessage())
              : FloeMain.failure(ExitCodes.UNEXPECTED, FloeMain.describe(e));
      out.println(json.renderFailure(failure));
      throw e;
    }
    out.println(json.render());
    return ExitCodes.OK;
  }

  /** Reads the statements and runs them in order, handing each result to {@code results}. */
  private void run(Consumer<StatementResult> results) {
    if ((sql == null) == (file == null)) {
      throw InvalidInputException.of(
          "Cannot run SQL: give either statements or -f FILE, not %s",
          sql == null ? "neither" : "both");
    }
    SqlScript script = file != null ? SqlScript.fromFile(file) : SqlScript.fromCommandLine(sql);
    CatalogConfig catalog = common.creatingCatalog();
    // One local cluster for every statement's job, stopped when the script ends (null under flink
    // run or a test's cluster: Flink's own environment then).
    try (LocalCluster cluster = LocalCluster.forCommand(parallelism.value())) {
      SqlRunner runner =
          new SqlRunner(
              FlinkSessions.tableEnvironment(
                  FlinkSessions.batchEnvironment(parallelism.value(), new Configuration(), cluster),
                  catalog),
              catalog,
              // A job's statement, parsed and valid: its cluster starts while Flink plans it.
              cluster == null ? () -> {} : cluster::startInBackground);
      runner.run(script, results);
    }
  }
}
