package dev.floe.flink.cli;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.catalog.snapshot.SnapshotHistory;
import dev.floe.catalog.spec.ApplyPlan;
import dev.floe.catalog.spec.TableSpecApplier;
import dev.floe.catalog.spec.TableSpecParser;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.RunResult;
import dev.floe.flink.job.SliceJob;
import dev.floe.flink.session.FlinkSessions;
import dev.floe.flink.sql.ResultTable;
import dev.floe.flink.sql.SqlRunner;
import dev.floe.flink.sql.SqlScript;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.iceberg.catalog.Catalog;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * `floe quickstart`: the seed document's fact example, end to end, on the embedded catalog. It is
 * rerun-safe itself: a second quickstart ends with the same tables and the same answer.
 */
@Command(
    name = "quickstart",
    mixinStandardHelpOptions = true,
    description = {
      "Run the idempotency example end to end on the configured catalog (the embedded one by",
      "default): create sales.staging_orders and sales.fact_orders from examples/tables, seed",
      "three staging rows, load the slice 2026-10-03 TWICE and show that the table holds",
      "2 rows totalling 70.00, then the snapshot history with its lineage."
    })
public final class QuickstartCommand implements Callable<Integer> {
  static final String SLICE = "2026-10-03";
  static final String TOTALS =
      "SELECT count(*) AS rows_for_day, sum(amount) AS total FROM sales.fact_orders";

  @Mixin CommonOptions common;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    CatalogConfig config = common.catalog();
    out.printf(
        "Floe quickstart on catalog '%s' (%s) at %s%n%n",
        config.name(), config.type(), common.home().toAbsolutePath().normalize());

    out.println("1. floe tables apply examples/tables");
    applyTables(config, out);

    out.println(
        "\n2. floe sql -f examples/sql/seed_staging.sql   (three staging rows, rerun-safe)");
    SqlRunner sql =
        new SqlRunner(FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config));
    sql.run(
        SqlScript.parse(
            "examples/" + BundledExamples.SEED_SQL,
            BundledExamples.read(BundledExamples.SEED_SQL)));
    out.println("   OK");

    String manifest = BundledExamples.read(BundledExamples.FACT_JOB);
    JobSpec job =
        JobSpecParser.parse(
            Manifests.parse("examples/" + BundledExamples.FACT_JOB, manifest), manifest);
    for (int attempt = 1; attempt <= 2; attempt++) {
      out.printf(
          "%n%d. floe run examples/%s --slice %s   (%s)%n",
          attempt + 2,
          BundledExamples.FACT_JOB,
          SLICE,
          attempt == 1 ? "load the day" : "the retry: same slice again");
      RunResult result = SliceJob.run(RunRequest.of(config, job, SLICE));
      CommitOutcome outcome = result.outcome();
      out.printf(
          "   %s: %d rows, snapshot %s, content %s%n   %s%n",
          outcome.status().text(),
          outcome.rows(),
          outcome.snapshotId(),
          outcome.contentHash(),
          outcome.detail());
    }

    out.println("\n5. floe sql \"" + TOTALS + "\"");
    out.println(indent(ResultTable.render(sql.run(SqlScript.parse("quickstart", TOTALS)))));

    out.println("\n6. floe snapshots sales.fact_orders");
    Catalog catalog = Catalogs.open(config);
    try {
      SnapshotsCommand.printTable(
          SnapshotHistory.list(Catalogs.loadTable(catalog, "sales.fact_orders")), out, "   ");
    } finally {
      Catalogs.close(catalog);
    }
    out.println(
        "\nRun `bin/floe quickstart` again: the table, its totals and its history stay the same.");
    return ExitCodes.OK;
  }

  private static void applyTables(CatalogConfig config, PrintWriter out) {
    Catalog catalog = Catalogs.open(config);
    try {
      ApplyPlan plan =
          new TableSpecApplier(
                  catalog,
                  List.of(
                      TableSpecParser.parse(
                          "examples/" + BundledExamples.STAGING_SPEC,
                          BundledExamples.read(BundledExamples.STAGING_SPEC)),
                      TableSpecParser.parse(
                          "examples/" + BundledExamples.FACT_SPEC,
                          BundledExamples.read(BundledExamples.FACT_SPEC))))
              .commit();
      if (plan.isEmpty()) {
        out.println("   no changes: both tables already match their specs");
      }
      plan.describe().forEach(line -> out.println("   " + line));
    } finally {
      Catalogs.close(catalog);
    }
  }

  private static String indent(String text) {
    return "   " + text.replace("\n", "\n   ");
  }
}
