package dev.floe.flink.cli;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogOptions;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.snapshot.SnapshotHistory;
import dev.floe.catalog.spec.ApplyPlan;
import dev.floe.catalog.spec.TableSpecApplier;
import dev.floe.catalog.spec.TableSpecParser;
import dev.floe.flink.session.LocalCluster;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.apache.iceberg.catalog.Catalog;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * `floe quickstart`: the seed document's two examples, end to end, on the embedded catalog: the
 * daily fact partition, then the dimension maintained by key. It is rerun-safe itself: a second
 * quickstart ends with the same tables and the same answers.
 */
@Command(
    name = "quickstart",
    header = "Run the idempotency examples end to end.",
    mixinStandardHelpOptions = true,
    description = {
      "Run the idempotency examples end to end on the embedded catalog, creating the sales.*",
      "tables from examples/tables; a floe.yaml naming another catalog type is refused, since",
      "the quickstart overwrites its tables. Facts: seed three staging",
      "rows, load the slice 2026-10-03 TWICE and show that the table holds 2 rows totalling",
      "70.00, then the snapshot history with its lineage. Dimension: seed three customer rows,",
      "merge them by customer_id (newest updated_at wins) and show customer 10 'pro' and 11",
      "'free', then merge again and replay customer 10's older row: nothing changes."
    })
public final class QuickstartCommand implements Callable<Integer> {
  static final String SLICE = "2026-10-03";
  static final String TOTALS =
      "SELECT count(*) AS rows_for_day, sum(amount) AS total FROM sales.fact_orders"
          + " WHERE order_date = DATE '"
          + SLICE
          + "'";
  static final String DIMENSION =
      "SELECT customer_id, tier, updated_at FROM sales.dim_customer ORDER BY customer_id";

  @Mixin CatalogSelection common;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    CatalogConfig config = common.creatingCatalog();
    // It overwrote a REST catalog's sales.staging_orders (66 rows to 3) when run in a project
    // folder whose floe.yaml names a shared catalog.
    InvalidInputException.check(
        config.type().equals(CatalogOptions.EMBEDDED),
        "Cannot run the quickstart on catalog '%s' (%s): it overwrites sales.staging_orders and"
            + " sales.staging_customers and loads sales.fact_orders and sales.dim_customer, which"
            + " may be real tables there; it runs on the embedded catalog only: run it in a folder"
            + " without floe.yaml, or pass --config naming a floe.yaml of type embedded",
        config.name(),
        config.type());
    out.printf(
        "Floe quickstart on catalog '%s' (%s) at %s%n",
        config.name(), config.type(), common.home().toAbsolutePath().normalize());
    // One local cluster for every step's job, instead of a MiniCluster started for each.
    try (LocalCluster cluster =
        LocalCluster.startOrJoin(Runtime.getRuntime().availableProcessors())) {
      steps(config, out);
    }
    return ExitCodes.OK;
  }

  private void steps(CatalogConfig config, PrintWriter out) {
    QuickstartSteps steps = new QuickstartSteps(config, out);

    steps.header("floe tables apply examples/tables", null);
    applyTables(config, out);

    out.printf("%n-- A daily fact partition, replaced whole by each run of its slice%n");
    steps.sqlFile(BundledExamples.SEED_SQL, "three staging rows, rerun-safe");
    steps.run(BundledExamples.FACT_JOB, SLICE, "load the day");
    steps.run(BundledExamples.FACT_JOB, SLICE, "the retry: same slice again");
    steps.query(TOTALS);
    steps.header("floe snapshots sales.fact_orders", null);
    printSnapshots(config, "sales.fact_orders", out);

    out.printf("%n-- A dimension maintained by key, where the source repeats or corrects rows%n");
    steps.sqlFile(
        BundledExamples.SEED_CUSTOMER_SQL, "customer 10 at 09:00 and at 12:00, 11 at 10:00");
    steps.run(BundledExamples.DIM_JOB, null, "merge by customer_id, newest updated_at wins");
    steps.query(DIMENSION);
    steps.run(BundledExamples.DIM_JOB, null, "the retry: merge the same rows again");
    steps.sqlFile(BundledExamples.REPLAY_CUSTOMER_SQL, "replay customer 10's older 09:00 row");
    steps.run(BundledExamples.DIM_JOB, null, "09:00 is not newer than 12:00: nothing to change");
    steps.query(DIMENSION);

    out.println(
        "\nRun `bin/floe quickstart` again: the fact and the dimension, their answers and their"
            + " history stay the same (the staging tables are seeded again: a new snapshot of the"
            + " same rows).");
  }

  private static void applyTables(CatalogConfig config, PrintWriter out) {
    Catalog catalog = Catalogs.open(config);
    try {
      ApplyPlan plan =
          new TableSpecApplier(
                  catalog,
                  BundledExamples.TABLE_SPECS.stream()
                      .map(
                          path ->
                              TableSpecParser.parse("examples/" + path, BundledExamples.read(path)))
                      .toList())
              .commit();
      if (plan.isEmpty()) {
        out.println(QuickstartSteps.INDENT + "no changes: every table already matches its spec");
      }
      plan.describe().forEach(line -> out.println(QuickstartSteps.INDENT + line));
    } finally {
      Catalogs.close(catalog);
    }
  }

  private static void printSnapshots(CatalogConfig config, String table, PrintWriter out) {
    Catalog catalog = Catalogs.open(config);
    try {
      SnapshotsCommand.printTable(
          SnapshotHistory.list(Catalogs.loadTable(catalog, table)), out, QuickstartSteps.INDENT);
    } finally {
      Catalogs.close(catalog);
    }
  }
}
