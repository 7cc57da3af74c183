package dev.floe.flink.cli;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.spec.ApplyPlan;
import dev.floe.catalog.spec.RefusedChange;
import dev.floe.catalog.spec.TableChange;
import dev.floe.catalog.spec.TableSpecApplier;
import dev.floe.catalog.spec.TableSpecLoader;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `floe tables apply tables/`: create or evolve Iceberg tables from YAML table specs. */
@Command(
    name = "tables",
    header = "Manage tables from YAML table specs.",
    mixinStandardHelpOptions = true,
    description = "Manage tables from YAML table specs.",
    subcommands = {TablesCommand.Apply.class})
public final class TablesCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw Subcommands.missing(spec);
  }

  @Command(
      name = "apply",
      header = "Create or update tables from their specs.",
      mixinStandardHelpOptions = true,
      description = {
        "Create missing namespaces and tables and apply compatible changes (add an optional column,",
        "widen a type, set a property, change the key). Rerun-safe: applying the same specs twice",
        "changes nothing. Incompatible changes are refused, and then no table is changed at all."
      })
  static final class Apply implements Callable<Integer> {
    @Mixin CommonOptions common;
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(
        index = "0",
        paramLabel = "PATH",
        description = "A table spec file, or a folder of *.yaml/*.yml specs.")
    Path path;

    @Option(names = "--dry-run", description = "Print the plan and change nothing.")
    boolean dryRun;

    @Option(
        names = TableSpecApplier.ALLOW_DROP_COLUMNS,
        description = "Drop table columns that the spec no longer lists (their data is lost).")
    boolean allowDropColumns;

    @Option(
        names = TableSpecApplier.ALLOW_REPARTITION,
        description = "Change the partitioning of a table that already holds data.")
    boolean allowRepartition;

    /**
     * The catalog to apply to; a dry run on a Floe home that holds no catalog yet plans against an
     * empty one in memory (what the first apply would create) and creates nothing on disk.
     */
    private Catalog open() {
      if (!dryRun) {
        return Catalogs.open(common.creatingCatalog());
      }
      CatalogConfig config = common.catalog();
      if (!Catalogs.holdsNoCatalog(config)) {
        return Catalogs.open(config);
      }
      InMemoryCatalog empty = new InMemoryCatalog();
      empty.initialize(config.name(), Map.of());
      return empty;
    }

    @Override
    public Integer call() {
      TableSpecApplier applier;
      Catalog catalog = open();
      try {
        applier =
            new TableSpecApplier(catalog, TableSpecLoader.load(path))
                .allowDropColumns(allowDropColumns)
                .allowRepartition(allowRepartition);
        ApplyPlan plan = dryRun ? applier.apply() : applier.commit();
        print(plan, spec.commandLine().getOut());
        if (dryRun && plan.hasRefusals()) {
          // The plan is printed; the exit code is the real apply's, so a CI gate can trust it.
          throw plan.refusalError();
        }
      } finally {
        Catalogs.close(catalog);
      }
      return ExitCodes.OK;
    }

    private void print(ApplyPlan plan, PrintWriter out) {
      if (common.json) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("dry_run", dryRun);
        List<Map<String, Object>> changes = new ArrayList<>();
        for (TableChange change : plan.changes()) {
          Map<String, Object> entry = new LinkedHashMap<>();
          entry.put("table", change.table());
          entry.put("kind", change.kind());
          entry.put("change", change.describe());
          changes.add(entry);
        }
        List<Map<String, Object>> refusals = new ArrayList<>();
        for (RefusedChange refusal : plan.refusals()) {
          Map<String, Object> entry = new LinkedHashMap<>();
          entry.put("table", refusal.table());
          entry.put("refusal", refusal.describe());
          refusals.add(entry);
        }
        json.put("changes", changes);
        json.put("refused", refusals);
        out.println(Json.write(json));
        return;
      }
      if (plan.isEmpty()) {
        out.println("No changes: every table already matches its spec.");
        return;
      }
      out.println(dryRun ? "Plan (dry run, nothing changed):" : "Applied:");
      plan.describe().forEach(line -> out.println("  " + line));
    }
  }
}
