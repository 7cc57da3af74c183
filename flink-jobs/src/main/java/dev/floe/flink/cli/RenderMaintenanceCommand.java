package dev.floe.flink.cli;

import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.Shown;
import dev.floe.catalog.job.Timeout;
import dev.floe.catalog.k8s.MaintenanceRender;
import dev.floe.catalog.k8s.ProjectLayout;
import dev.floe.catalog.k8s.Rendered;
import dev.floe.catalog.maintain.MaintenanceManifest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code floe k8s render-maintenance}: a CronJob running {@code floe maintain --apply}. */
@Command(
    name = "render-maintenance",
    header = "Render a CronJob that runs floe maintain --apply.",
    mixinStandardHelpOptions = true,
    description = {
      "Print a Kubernetes CronJob whose pod runs `floe maintain --apply` with a budget in the",
      "Floe image (compaction runs in the pod's local Flink cluster; --jm-cpu and --jm-memory",
      "size the pod). Each run plans again from the tables' policies, so what a budget left is",
      "done by the next run. Changes nothing. Typical use: floe k8s render-maintenance --all",
      "--schedule '0 3 * * *' --timeout 1h --max-bytes 50000000000 | kubectl apply -f -"
    })
final class RenderMaintenanceCommand implements Callable<Integer> {
  @Mixin ClusterOptions cluster;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(arity = "0..*", paramLabel = "TABLE", description = "Tables to maintain.")
  List<String> tables = new ArrayList<>();

  @Option(names = "--all", description = "Maintain every table of the catalog.")
  boolean all;

  @Option(
      names = "--maintain-namespace",
      paramLabel = "NS",
      description =
          "Maintain every table of this catalog namespace (--namespace is the Kubernetes one).")
  String catalogNamespace;

  @Option(
      names = "--name",
      paramLabel = "NAME",
      description = "The CronJob's name (default: floe-maintain).")
  String name = "floe-maintain";

  @Option(
      names = "--schedule",
      required = true,
      paramLabel = "CRON",
      description = "Five cron fields, e.g. '0 3 * * *' (UTC unless the cluster says otherwise).")
  String schedule;

  @Option(
      names = "--timeout",
      required = true,
      paramLabel = "DURATION",
      description =
          "floe maintain --timeout: no table starts after it ("
              + Timeout.FORMS
              + "); the pod's deadline adds 10 minutes.")
  String timeout;

  @Option(names = "--max-bytes", paramLabel = "BYTES", description = "floe maintain --max-bytes.")
  Long maxBytes;

  @Option(names = "--max-tables", paramLabel = "N", description = "floe maintain --max-tables.")
  Integer maxTables;

  @Option(
      names = "--notify",
      paramLabel = "FILE",
      description =
          "floe maintain --notify: a maintenance manifest whose on_maintenance_done webhooks are"
              + " sent when each run finishes. Read and checked now; the pod reads the image's copy"
              + " (its path inside --project-dir).")
  Path notify;

  @Option(
      names = "--project-dir",
      paramLabel = "DIR",
      description =
          "With --notify: the project directory the image holds at /opt/floe (default: the"
              + " nearest directory above the manifest that holds floe.yaml or a jobs/ folder).")
  Path projectDir;

  @Override
  public Integer call() {
    // The pod runs compaction in its own JVM (a local Flink cluster, no TaskManager pods): the
    // TaskManager and Flink settings of the shared cluster flags do not reach it. Refused, not
    // silently dropped.
    for (String flag : List.of("--flink-conf", "--tm-cpu", "--tm-memory", "--task-slots")) {
      InvalidInputException.check(
          !spec.commandLine().getParseResult().hasMatchedOption(flag),
          "Cannot render the maintenance CronJob with %s: its pod runs compaction in one JVM"
              + " (no TaskManager pods); size it with --jm-cpu and --jm-memory (the JVM heap is"
              + " 75%% of --jm-memory)",
          flag);
    }
    int ways = (tables.isEmpty() ? 0 : 1) + (all ? 1 : 0) + (catalogNamespace == null ? 0 : 1);
    InvalidInputException.check(
        ways == 1,
        "Cannot render the maintenance CronJob: give TABLE names, --maintain-namespace NS or --all"
            + " (exactly one of them)");
    List<String> selection = new ArrayList<>();
    if (all) {
      selection.add("--all");
    } else if (catalogNamespace != null) {
      selection.add("--namespace");
      selection.add(catalogNamespace);
    } else {
      // Read as floe maintain reads them, so a name it would refuse every night is refused now.
      for (String table : tables) {
        try {
          Catalogs.identifier(table);
        } catch (InvalidInputException e) {
          throw InvalidInputException.of(
              "Cannot render the maintenance CronJob with table %s: floe maintain refuses it"
                  + " (expected <namespace>.<table>, e.g. sales.fact_orders)",
              Shown.value(table));
        }
      }
      selection.addAll(tables);
    }
    List<String> budget = new ArrayList<>();
    if (maxBytes != null) {
      InvalidInputException.check(
          maxBytes > 0, "Cannot render with --max-bytes %s: expected a positive number", maxBytes);
      budget.add("--max-bytes");
      budget.add(String.valueOf(maxBytes));
    }
    if (maxTables != null) {
      InvalidInputException.check(
          maxTables > 0,
          "Cannot render with --max-tables %s: expected a positive number",
          maxTables);
      budget.add("--max-tables");
      budget.add(String.valueOf(maxTables));
    }
    MaintenanceRender render =
        new MaintenanceRender(
            name,
            schedule,
            selection,
            budget,
            Timeout.ofFlag("--timeout", timeout).duration(),
            notifyInImage(),
            jvmFlags());
    Rendered rendered = render.render(cluster.settings());
    if (notify != null) {
      rendered = rendered.withInput("the --notify manifest", notify);
      // The project the image copies holds floe.yaml, which the pod's floe maintain reads.
      ProjectLayout project = project();
      if (project.hasConfig()) {
        rendered =
            rendered.withInput(
                "the project's catalog configuration",
                project.dir().resolve(CatalogConfigLoader.CONFIG_FILE));
      }
    }
    cluster.print(rendered, spec.commandLine());
    return ExitCodes.OK;
  }

  /**
   * The maintenance manifest's path inside the image, after reading it here: a bad manifest is
   * refused now (exit 2), not at 03:00 in the pod.
   */
  private String notifyInImage() {
    if (notify == null) {
      InvalidInputException.check(
          projectDir == null,
          "Cannot render with --project-dir %s alone: it places the --notify manifest in the image",
          projectDir);
      return null;
    }
    MaintenanceManifest.load(notify);
    return project().inImage(notify);
  }

  /** The project the image holds: --project-dir, else the one around the --notify manifest. */
  private ProjectLayout project() {
    return projectDir != null ? ProjectLayout.of(projectDir) : ProjectLayout.detect(notify);
  }

  /** The JVM flags bin/floe passes (declared once in the parent POM). */
  static List<String> jvmFlags() {
    try (InputStream in =
        RenderMaintenanceCommand.class.getResourceAsStream("/dev/floe/jvm-flags.txt")) {
      if (in == null) {
        return List.of();
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
      return text.isEmpty() ? List.of() : List.of(text.split("\\s+"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
