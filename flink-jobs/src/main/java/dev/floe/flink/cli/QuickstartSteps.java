package dev.floe.flink.cli;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.SliceJob;
import dev.floe.flink.session.FlinkSessions;
import dev.floe.flink.sql.ResultTable;
import dev.floe.flink.sql.SqlRunner;
import dev.floe.flink.sql.SqlScript;
import java.io.PrintWriter;

/**
 * The numbered steps of `floe quickstart`. Each step is printed as the command a user would type
 * for it, so the output doubles as the tour; numbering is counted here so the halves can grow.
 */
final class QuickstartSteps {
  static final String INDENT = "   ";

  private final CatalogConfig config;
  private final PrintWriter out;
  private SqlRunner sql;
  private int step;

  QuickstartSteps(CatalogConfig config, PrintWriter out) {
    this.config = config;
    this.out = out;
  }

  /** Prints the next step's number, command and (when not null) why it is run. */
  void header(String command, String why) {
    step++;
    out.printf("%n%d. %s%s%n", step, command, why == null ? "" : "   (" + why + ")");
  }

  /** `floe sql -f examples/<path>`: a bundled script whose statements print nothing. */
  void sqlFile(String path, String why) {
    header("floe sql -f " + ShellWord.of("examples/" + path), why);
    sql().run(SqlScript.parse("examples/" + path, BundledExamples.read(path)));
    out.println(INDENT + "OK");
  }

  /** `floe sql "<query>"`: the result as `floe sql` prints it, indented. */
  void query(String query) {
    // Floe's own queries read best in double quotes (DATE '2026-10-03' single-quoted would be
    // '\''2026-10-03'\''): they are, unless one holds a character double quotes leave live.
    header(
        "floe sql " + (query.matches("[^\"$`\\\\!]*") ? "\"" + query + "\"" : ShellWord.of(query)),
        null);
    String table = ResultTable.render(sql().run(SqlScript.parse("quickstart", query)));
    out.println(INDENT + table.replace("\n", "\n" + INDENT));
  }

  /** `floe run examples/<path> [--slice <slice>]`: runs the bundled job and prints its outcome. */
  CommitOutcome run(String path, String slice, String why) {
    String text = BundledExamples.read(path);
    JobSpec job = JobSpecParser.parse(Manifests.parse("examples/" + path, text), text);
    header(
        "floe run "
            + ShellWord.of("examples/" + path)
            + (slice == null ? "" : " --slice " + ShellWord.of(slice)),
        why);
    CommitOutcome outcome = SliceJob.run(RunRequest.of(config, job, slice)).outcome();
    // An overwrite's rows and content hash are the slice's. A keyed run's (merge) are its source
    // batch's, not the table's: after the replay they would read "1 rows" beside a 2-row table,
    // so only its detail (source rows, keys, inserted, updated, unchanged) is shown.
    String status = outcome.status().text();
    String summary =
        job.mode().isKeyed()
            ? String.format("%s: snapshot %s", status, outcome.snapshotId())
            : String.format(
                "%s: %d rows, snapshot %s, content %s",
                status, outcome.rows(), outcome.snapshotId(), outcome.contentHash());
    out.println(INDENT + summary);
    out.println(INDENT + outcome.detail());
    return outcome;
  }

  /** One SQL session for every step: a table environment takes seconds to start. */
  private SqlRunner sql() {
    if (sql == null) {
      sql =
          new SqlRunner(
              FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config), config);
    }
    return sql;
  }
}
