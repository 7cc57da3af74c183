package dev.floe.flink.cli;

import dev.floe.catalog.deploy.ImageLayout;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.Shown;
import dev.floe.catalog.k8s.ClusterSettings;
import dev.floe.catalog.k8s.FlinkVersions;
import dev.floe.catalog.k8s.PodResources;
import dev.floe.catalog.k8s.RenderOptions;
import dev.floe.catalog.k8s.Rendered;
import dev.floe.catalog.k8s.SecretEnv;
import dev.floe.catalog.lineage.CodeVersion;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** The options of `floe k8s` that describe the Flink cluster, and how the result is printed. */
final class ClusterOptions {
  @Option(
      names = "--image",
      paramLabel = "IMAGE",
      description =
          "The Floe image (docker/Dockerfile: the jar and the project at /opt/floe) (default:"
              + " floe:<version> of --code-version).")
  String image;

  @Option(
      names = "--image-pull-policy",
      paramLabel = "POLICY",
      description = "Always, IfNotPresent or Never (default: Kubernetes' own).")
  String imagePullPolicy;

  @Option(
      names = "--namespace",
      paramLabel = "NS",
      description = "Put metadata.namespace in the resources (default: none; kubectl -n decides).")
  String namespace;

  @Option(
      names = "--service-account",
      paramLabel = "NAME",
      defaultValue = ClusterSettings.DEFAULT_SERVICE_ACCOUNT,
      description =
          "The service account of the Flink pods, created by the operator's Helm chart (default:"
              + " ${DEFAULT-VALUE}).")
  String serviceAccount;

  @Option(
      names = "--s3-secret",
      paramLabel = "NAME",
      defaultValue = SecretEnv.DEFAULT_S3_SECRET,
      description =
          "The Secret with keys access-key-id and secret-access-key, exposed to the pods as"
              + " FLOE_CATALOG_S3__ACCESS_KEY_ID and FLOE_CATALOG_S3__SECRET_ACCESS_KEY (default:"
              + " ${DEFAULT-VALUE}).")
  String s3Secret;

  @Option(
      names = "--no-s3-secret",
      description =
          "Read no S3 Secret: the pods get S3 access otherwise (a role bound to the service"
              + " account, or credentials in the image's environment).")
  boolean noS3Secret;

  @Option(
      names = "--secret-env",
      paramLabel = "ENV=SECRET/KEY",
      description =
          "One more variable from a Secret, e.g. FLOE_CATALOG_JDBC__PASSWORD=floe-db/password;"
              + " repeatable.")
  List<String> secretEnv = new ArrayList<>();

  @Option(
      names = "--flink-conf",
      paramLabel = "KEY=VALUE",
      description =
          "A Flink setting for spec.flinkConfiguration; repeatable. Credentials are refused:"
              + " use --secret-env.")
  Map<String, String> flinkConf = new LinkedHashMap<>();

  @Option(
      names = "--jm-cpu",
      paramLabel = "CORES",
      defaultValue = "1",
      description = "JobManager CPU cores (default: ${DEFAULT-VALUE}).")
  double jmCpu;

  @Option(
      names = "--jm-memory",
      paramLabel = "SIZE",
      defaultValue = PodResources.DEFAULT_MEMORY,
      description = "JobManager memory (default: ${DEFAULT-VALUE}).")
  String jmMemory;

  @Option(
      names = "--tm-cpu",
      paramLabel = "CORES",
      defaultValue = "1",
      description = "CPU cores per TaskManager (default: ${DEFAULT-VALUE}).")
  double tmCpu;

  @Option(
      names = "--tm-memory",
      paramLabel = "SIZE",
      defaultValue = PodResources.DEFAULT_MEMORY,
      description = "Memory per TaskManager (default: ${DEFAULT-VALUE}).")
  String tmMemory;

  @Option(
      names = "--task-slots",
      paramLabel = "N",
      description =
          "taskmanager.numberOfTaskSlots (default: the job's parallelism, so one TaskManager"
              + " runs the slice; "
              + ClusterSettings.DEFAULT_SESSION_SLOTS
              + " for a session cluster).")
  int taskSlots;

  @Option(
      names = "--flink-version",
      paramLabel = "VERSION",
      description =
          "The operator's spec.flinkVersion: one its CRD lists, of the Flink major version the"
              + " jar is built for (default: this build's Flink, e.g. v2_1).")
  String flinkVersion;

  @Option(
      names = "--code-version",
      paramLabel = "VERSION",
      description =
          "The Floe build inside the image, part of every run key (default: this floe's, see"
              + " floe --version). Give it when the image was built from another commit, so the"
              + " names and floe.dev/run-key labels match what the runs record. A Docker tag,"
              + " optionally with +COMMIT as floe --version prints it.")
  String codeVersion;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description =
          "Write to FILE instead of standard output; a file the render reads (the manifest,"
              + " floe.yaml, --notify) is refused.")
  Path output;

  @Option(
      names = "--json",
      description = "Print JSON (one object, or a v1 List) instead of YAML; kubectl reads both.")
  boolean json;

  String codeVersion() {
    // Checked before the default image is derived from it, so a bad one is blamed, not the image.
    return codeVersion != null
        ? RenderOptions.requireCodeVersion(codeVersion)
        : CodeVersion.current();
  }

  ClusterSettings settings() {
    List<SecretEnv> secrets = new ArrayList<>();
    if (!noS3Secret) {
      secrets.addAll(SecretEnv.s3(s3Secret));
    }
    secretEnv.forEach(spec -> secrets.add(SecretEnv.parse(spec)));
    return new ClusterSettings(
        image != null ? image : ImageLayout.imageFor(codeVersion()),
        imagePullPolicy,
        namespace,
        serviceAccount,
        flinkVersion != null ? flinkVersion : FlinkVersions.current(),
        new PodResources(jmCpu, jmMemory),
        new PodResources(tmCpu, tmMemory),
        taskSlots,
        secrets,
        flinkConf);
  }

  /** Prints YAML or JSON to -o FILE or standard output, and the warnings to standard error. */
  void print(Rendered rendered, CommandLine commandLine) {
    String text = json ? rendered.json() : rendered.yaml();
    if (output == null) {
      commandLine.getOut().print(text);
      commandLine.getOut().flush();
    } else {
      Path folder = output.toAbsolutePath().getParent();
      InvalidInputException.check(
          folder != null && Files.isDirectory(folder),
          "Cannot write the resources to %s: folder %s does not exist",
          output,
          folder);
      InvalidInputException.check(
          !Files.isDirectory(output),
          "Cannot write the resources to %s: it is a folder (-o takes a file; render-backfill"
              + " --out-dir takes a folder)",
          output);
      refuseInputs(rendered);
      try {
        Files.writeString(output, text, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw unwritable(output, e);
      }
    }
    warn(rendered, commandLine);
  }

  /**
   * Refuses an {@code -o} file that is one of the files the render read (a manifest, floe.yaml, a
   * --notify manifest): writing it would replace the input with its own rendering. Compared as
   * files (links and other spellings of the same path included), before anything is written.
   */
  private void refuseInputs(Rendered rendered) {
    if (!Files.exists(output)) {
      return;
    }
    for (Rendered.Input input : rendered.inputs()) {
      boolean same;
      try {
        same = Files.exists(input.path()) && Files.isSameFile(output, input.path());
      } catch (IOException e) {
        throw unwritable(output, e);
      }
      InvalidInputException.check(
          !same,
          "Cannot write the resources to %s: it is %s %s this render reads; give -o another file",
          Shown.value(output.toString()),
          input.what(),
          Shown.value(input.path().toString()));
    }
  }

  /** A path the user gave that cannot be written: bad input (exit 2), with the reason. */
  static InvalidInputException unwritable(Path path, IOException e) {
    String reason =
        e instanceof java.nio.file.FileAlreadyExistsException
            ? "a file of that name is in the way"
            : e instanceof java.nio.file.AccessDeniedException
                ? "permission denied"
                : e.getClass().getSimpleName() + ": " + e.getMessage();
    return new InvalidInputException("Cannot write the resources to " + path + ": " + reason, e);
  }

  void warn(Rendered rendered, CommandLine commandLine) {
    PrintWriter err = commandLine.getErr();
    rendered.warnings().forEach(w -> err.println("floe: warning: " + w));
  }
}
