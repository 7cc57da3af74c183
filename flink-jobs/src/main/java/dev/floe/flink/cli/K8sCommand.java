package dev.floe.flink.cli;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.error.Shown;
import dev.floe.catalog.k8s.BackfillRender;
import dev.floe.catalog.k8s.K8sRender;
import dev.floe.catalog.k8s.K8sYaml;
import dev.floe.catalog.k8s.RenderOptions;
import dev.floe.catalog.k8s.Rendered;
import dev.floe.catalog.k8s.Submission;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * `floe k8s render|render-backfill|render-session-cluster`: print Flink Kubernetes Operator
 * resources that run Floe, for {@code kubectl apply -f -}. Reads manifests only; talks to no
 * catalog and no cluster.
 */
@Command(
    name = "k8s",
    header = "Render Kubernetes resources that run Floe in a cluster.",
    mixinStandardHelpOptions = true,
    description = {
      "Render Flink Kubernetes Operator (1.14) resources that run Floe in a cluster: a",
      "FlinkDeployment per slice (application mode, the jar and project baked into the image),",
      "or a FlinkSessionJob on a session cluster. Each is named from the slice's run key, so the",
      "same slice of the same manifest and build always gets the same name. Credentials come from",
      "Kubernetes Secrets, never from the manifest. Prints YAML (kubectl apply -f -); changes",
      "nothing. Runbook: docs/deploy/kubernetes.md."
    },
    subcommands = {
      K8sCommand.Render.class,
      K8sCommand.RenderBackfill.class,
      K8sCommand.RenderSessionCluster.class,
      RenderMaintenanceCommand.class
    })
public final class K8sCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw Subcommands.missing(spec);
  }

  /** Where the job runs and what its run inherits: shared by render and render-backfill. */
  static final class JobOptions {
    @Option(
        names = "--session-cluster",
        paramLabel = "NAME",
        description =
            "Render a FlinkSessionJob for this session cluster (a FlinkDeployment without a job,"
                + " see render-session-cluster) instead of a FlinkDeployment per run. Needs"
                + " --jar-uri.")
    String sessionCluster;

    @Option(
        names = "--jar-uri",
        paramLabel = "URI",
        description =
            "With --session-cluster: where the operator downloads the Floe jar (https://...,"
                + " s3://...); a local:// path inside an image is refused.")
    String jarUri;

    @Option(
        names = "--parallelism",
        paramLabel = "N",
        description =
            "The job's parallelism (default: the manifest's, else "
                + RenderOptions.DEFAULT_PARALLELISM
                + "); also passed to floe run.")
    int parallelism;

    @Option(
        names = "--project-dir",
        paramLabel = "DIR",
        description =
            "The project directory the image holds at /opt/floe (default: the nearest directory"
                + " above the manifest that holds floe.yaml or a jobs/ folder). The manifest must"
                + " lie inside it.")
    Path projectDir;

    /**
     * The cluster flags that shape a cluster's own pods. A session job runs on the pods of its
     * session cluster, whose render sets them: with --session-cluster they are refused, not
     * dropped.
     */
    static final List<String> POD_FLAGS =
        List.of(
            "--image",
            "--image-pull-policy",
            "--service-account",
            "--s3-secret",
            "--no-s3-secret",
            "--secret-env",
            "--jm-cpu",
            "--jm-memory",
            "--tm-cpu",
            "--tm-memory",
            "--task-slots",
            "--flink-version");

    RenderOptions options(ClusterOptions cluster, CommandLine commandLine) {
      if (sessionCluster != null) {
        for (String flag : POD_FLAGS) {
          CommandLine.Model.OptionSpec given = commandLine.getParseResult().matchedOption(flag);
          if (given != null) {
            String value =
                given.arity().max == 0 ? "" : " " + String.join(",", given.stringValues());
            throw InvalidInputException.of(
                "Cannot render a session job with %s%s: it runs on the pods of session cluster %s,"
                    + " which `floe k8s render-session-cluster %s %s ...` sets up",
                flag, value, sessionCluster, ShellWord.of(sessionCluster), flag);
          }
        }
      }
      Submission submission;
      if (sessionCluster != null) {
        submission = Submission.session(sessionCluster, jarUri);
      } else {
        InvalidInputException.check(
            jarUri == null,
            "Cannot render with --jar-uri %s alone: a FlinkDeployment runs the jar inside the"
                + " image; --jar-uri goes with --session-cluster",
            Shown.value(jarUri));
        submission = Submission.application();
      }
      return new RenderOptions(
          projectDir, cluster.settings(), submission, parallelism, cluster.codeVersion());
    }
  }

  @Command(
      name = "render",
      header = "Render a FlinkDeployment that runs one job manifest.",
      mixinStandardHelpOptions = true,
      description = {
        "Print the resource that runs `floe run MANIFEST --slice D` in the cluster: a",
        "FlinkDeployment (upgradeMode stateless) running dev.floe.flink.cli.FloeClusterMain with",
        "the manifest's path inside the image, or a FlinkSessionJob with --session-cluster.",
        "Name and labels carry the run key floe run computes; annotations the slice and the",
        "manifest. The slice is read without the catalog: whether it fits the table's partitions",
        "is checked when the job runs. Typical use: floe k8s render jobs/daily.yaml --slice",
        "2026-10-03 | kubectl apply -f -"
      })
  static final class Render implements Callable<Integer> {
    @Mixin ClusterOptions cluster;
    @Mixin JobOptions job;
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "MANIFEST", description = "The job manifest (YAML).")
    Path manifest;

    @Mixin SliceOption slice;

    @Override
    public Integer call() {
      Rendered rendered =
          K8sRender.slice(manifest, slice.value(), job.options(cluster, spec.commandLine()));
      cluster.print(rendered, spec.commandLine());
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "render-backfill",
      header = "Render one FlinkDeployment per slice of a backfill.",
      mixinStandardHelpOptions = true,
      description = {
        "Print one resource per slice of a backfill, in slice order, each running",
        "`floe run MANIFEST --slice D` like render. MANIFEST is a backfill manifest (job, from,",
        "to, max_concurrency) or a job manifest with --from and --to; flags win over the file.",
        "The resources do not pace themselves: the header says how many to apply at once (the",
        "max concurrency), since commits to one table from separate clusters race each other.",
        "The job's effects stay off (recorded as skipped), as in floe backfill, unless",
        "--allow-effects, with which each slice sends them."
      })
  static final class RenderBackfill implements Callable<Integer> {
    @Mixin ClusterOptions cluster;
    @Mixin JobOptions job;
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(
        index = "0",
        paramLabel = "MANIFEST",
        description = "A backfill manifest, or a job manifest (YAML).")
    Path manifest;

    @Mixin SliceRangeOptions range;

    @Option(
        names = "--max-concurrency",
        paramLabel = "N",
        description =
            "How many resources to apply at once, printed in the header (default: the"
                + " manifest's max_concurrency, else 1).")
    Integer maxConcurrency;

    @Mixin BackfillIdOption backfillId;
    @Mixin AllowEffectsOption allowEffects;

    @Option(
        names = "--out-dir",
        paramLabel = "DIR",
        description =
            "Write one file per resource, 001-<name>.yaml in slice order, into DIR (created if"
                + " missing) instead of one stream; prints the header and the files.")
    Path outDir;

    @Override
    public Integer call() {
      Rendered rendered =
          K8sRender.backfill(
              new BackfillRender(
                  manifest,
                  range.from,
                  range.to,
                  maxConcurrency,
                  backfillId.value(),
                  allowEffects.value()),
              job.options(cluster, spec.commandLine()));
      if (outDir == null) {
        cluster.print(rendered, spec.commandLine());
      } else {
        writeFiles(rendered);
      }
      return ExitCodes.OK;
    }

    private void writeFiles(Rendered rendered) {
      InvalidInputException.check(
          cluster.output == null && !cluster.json,
          "Cannot render with --out-dir and %s: --out-dir writes YAML files of its own",
          cluster.output != null ? "-o" : "--json");
      PrintWriter out = spec.commandLine().getOut();
      InvalidInputException.check(
          !Files.exists(outDir) || Files.isDirectory(outDir),
          "Cannot write the resources to %s: it is a file (--out-dir takes a folder)",
          outDir);
      List<String> earlier = renderedFilesIn(outDir);
      // The runbook applies every *.yaml of the folder: old resources next to new ones (another
      // build, an edited manifest) would run their slices twice, as racing clusters.
      InvalidInputException.check(
          earlier.isEmpty(),
          "Cannot write the resources to %s: it already holds %d rendered resources (%s, ...);"
              + " remove them or choose another folder, so each slice is applied once",
          outDir,
          earlier.size(),
          earlier.isEmpty() ? "" : earlier.get(0));
      try {
        Files.createDirectories(outDir);
        for (Map.Entry<String, String> file : rendered.files().entrySet()) {
          Files.writeString(outDir.resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
        }
      } catch (IOException e) {
        throw ClusterOptions.unwritable(outDir, e);
      }
      rendered.header().forEach(line -> out.println(K8sYaml.commentLine(line)));
      rendered.files().keySet().forEach(file -> out.println(outDir.resolve(file)));
      cluster.warn(rendered, spec.commandLine());
    }
  }

  /** The {@code NNN-<name>.yaml} files an earlier render-backfill wrote into {@code dir}. */
  private static List<String> renderedFilesIn(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (var files = Files.list(dir)) {
      return files
          .map(f -> f.getFileName().toString())
          .filter(name -> name.matches("\\d{3,}-.+\\.yaml"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw ClusterOptions.unwritable(dir, e);
    }
  }

  @Command(
      name = "render-session-cluster",
      header = "Render a Flink session cluster for Floe's jobs.",
      mixinStandardHelpOptions = true,
      description = {
        "Print a FlinkDeployment without a job: a session cluster for the FlinkSessionJobs that",
        "render --session-cluster NAME prints. Its pods run the Floe image (the project at",
        "/opt/floe) with the same Secrets, since a session job's floe run runs inside it."
      })
  static final class RenderSessionCluster implements Callable<Integer> {
    @Mixin ClusterOptions cluster;
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(
        index = "0",
        paramLabel = "NAME",
        description = "The session cluster's name (what --session-cluster refers to).")
    String name;

    @Override
    public Integer call() {
      cluster.print(K8sRender.sessionCluster(name, cluster.settings()), spec.commandLine());
      return ExitCodes.OK;
    }
  }
}
