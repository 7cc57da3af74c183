package dev.floe.catalog.k8s;

import dev.floe.catalog.deploy.ImageLayout;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.error.Shown;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code floe k8s render-maintenance}: a Kubernetes CronJob whose pod runs {@code floe maintain
 * --apply} with a budget, in the Floe image (compaction runs in the pod's local Flink cluster).
 * Every run plans again from the tables, so a run cut short by its budget or timeout leaves the
 * rest to the next one; {@code concurrencyPolicy: Forbid} keeps two runs from racing.
 *
 * @param name the CronJob's name
 * @param schedule five cron fields, e.g. {@code 0 3 * * *}
 * @param tables what to plan: {@code --all}, {@code --namespace NS} or table names, as flags
 * @param budget {@code --max-bytes}/{@code --max-tables} flags, possibly empty
 * @param timeout the apply's timeout; the pod's deadline adds {@link #GRACE}
 * @param notifyManifest the maintenance manifest's path inside the image ({@code --notify}), or
 *     null
 * @param jvmFlags the JVM flags Flink needs (bin/floe's)
 */
public record MaintenanceRender(
    String name,
    String schedule,
    List<String> tables,
    List<String> budget,
    Duration timeout,
    String notifyManifest,
    List<String> jvmFlags) {

  /** Time the pod gets past the apply's own timeout to report and exit. */
  public static final Duration GRACE = Duration.ofMinutes(10);

  static final String CONTAINER = "floe-maintain";
  static final String CLASSPATH = "/opt/flink/lib/*:" + ImageLayout.JAR_PATH;
  static final String MAIN_CLASS = "dev.floe.flink.cli.FloeMain";

  public MaintenanceRender {
    InvalidInputException.check(
        K8sNames.isOperatorName(name),
        "Cannot render CronJob '%s': expected at most %d lower case letters, digits and '-',"
            + " starting with a letter",
        Shown.value(name),
        K8sNames.MAX_NAME_LENGTH);
    InvalidInputException.check(
        CronSchedule.valid(schedule),
        "Cannot render CronJob %s with schedule '%s': expected five cron fields in range such as"
            + " '0 3 * * *', or @daily, @hourly, @weekly, @monthly, @yearly, @midnight",
        name,
        Shown.value(schedule));
    InvalidInputException.check(
        timeout != null && !timeout.isNegative() && !timeout.isZero(),
        "Cannot render CronJob %s without a --timeout: a maintenance run needs a budget in time",
        name);
    tables = List.copyOf(tables);
    budget = List.copyOf(budget);
    jvmFlags = List.copyOf(jvmFlags);
  }

  /** The arguments of {@code floe} in the pod. */
  public List<String> floeArgs() {
    List<String> args = new ArrayList<>(List.of("maintain", "--apply"));
    args.addAll(tables);
    args.addAll(budget);
    args.add("--timeout");
    args.add(timeout.toString());
    if (notifyManifest != null) {
      args.add("--notify");
      args.add(notifyManifest);
    }
    args.add("--config");
    args.add(ImageLayout.CONFIG_FILE);
    return args;
  }

  /** The least memory the CronJob's pod gets: Floe and a local Flink cluster in one JVM. */
  static final long MIN_MEBIBYTES = 512;

  /** The CronJob, with a comment saying what it runs. */
  public Rendered render(ClusterSettings cluster) {
    InvalidInputException.check(
        cluster.jobManager().mebibytes() >= MIN_MEBIBYTES,
        "Cannot render CronJob %s with --jm-memory %s: its pod runs Floe and compaction in one JVM"
            + " and needs at least %dMi",
        name,
        cluster.jobManager().memory(),
        MIN_MEBIBYTES);
    List<String> comment = new ArrayList<>();
    comment.add("floe " + String.join(" ", floeArgs().stream().map(ShellWord::of).toList()));
    comment.add("on schedule '" + schedule + "' in image " + cluster.image() + ". Each run plans");
    comment.add("again from the tables' own policies, so what a budget left is done next time;");
    comment.add("concurrencyPolicy Forbid: a run still going when the next is due skips it.");
    comment.add("Exit code (kubectl get jobs / pod status): 0 all done or within budget, else the");
    comment.add("highest code of a failed table (docs/operators/maintenance.md).");
    if (cluster.secretEnv().isEmpty()) {
      comment.add(
          "No variables from Secrets: the catalog needs no credentials, or the image has them.");
    } else {
      comment.add("Credentials come from Secrets; no secret value is written here:");
      for (SecretEnv env : cluster.secretEnv()) {
        comment.add("  " + env.env() + " <- Secret " + env.secret() + ", key " + env.key());
      }
    }
    return new Rendered(List.of(), List.of(new K8sDocument(comment, body(cluster))), List.of());
  }

  private Map<String, Object> body(ClusterSettings cluster) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(FlinkResources.LABEL_APP, "floe");
    labels.put(FlinkResources.LABEL_COMPONENT, "maintenance");

    List<Map<String, Object>> env = new ArrayList<>();
    for (SecretEnv secret : cluster.secretEnv()) {
      Map<String, Object> ref = new LinkedHashMap<>();
      ref.put("name", secret.secret());
      ref.put("key", secret.key());
      Map<String, Object> variable = new LinkedHashMap<>();
      variable.put("name", secret.env());
      variable.put("valueFrom", Map.of("secretKeyRef", ref));
      env.add(variable);
    }
    List<String> command = new ArrayList<>();
    command.add("java");
    command.addAll(jvmFlags);
    command.add(heapFlag(cluster.jobManager()));
    command.add("-cp");
    command.add(CLASSPATH);
    command.add(MAIN_CLASS);

    Map<String, Object> resources = new LinkedHashMap<>();
    Map<String, Object> amount = new LinkedHashMap<>();
    amount.put("cpu", trim(cluster.jobManager().cpu()));
    amount.put("memory", kubernetesMemory(cluster.jobManager()));
    resources.put("requests", amount);
    resources.put("limits", amount);

    Map<String, Object> container = new LinkedHashMap<>();
    container.put("name", CONTAINER);
    container.put("image", cluster.image());
    if (cluster.imagePullPolicy() != null) {
      container.put("imagePullPolicy", cluster.imagePullPolicy());
    }
    container.put("workingDir", ImageLayout.PROJECT_DIR);
    container.put("command", command);
    container.put("args", floeArgs());
    container.put("env", env);
    container.put("resources", resources);

    Map<String, Object> podSpec = new LinkedHashMap<>();
    podSpec.put("restartPolicy", "Never");
    podSpec.put("serviceAccountName", cluster.serviceAccount());
    podSpec.put("containers", List.of(container));
    Map<String, Object> template = new LinkedHashMap<>();
    template.put("metadata", Map.of("labels", labels));
    template.put("spec", podSpec);

    Map<String, Object> jobSpec = new LinkedHashMap<>();
    // No retry inside one schedule: the next run plans again and continues.
    jobSpec.put("backoffLimit", 0);
    jobSpec.put("activeDeadlineSeconds", timeout.plus(GRACE).toSeconds());
    jobSpec.put("template", template);

    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("schedule", schedule.trim());
    spec.put("concurrencyPolicy", "Forbid");
    spec.put("startingDeadlineSeconds", 3600);
    spec.put("successfulJobsHistoryLimit", 3);
    spec.put("failedJobsHistoryLimit", 3);
    spec.put("jobTemplate", Map.of("spec", jobSpec));

    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("name", name);
    if (cluster.namespace() != null) {
      metadata.put("namespace", cluster.namespace());
    }
    metadata.put("labels", labels);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("apiVersion", "batch/v1");
    body.put("kind", "CronJob");
    body.put("metadata", metadata);
    body.put("spec", spec);
    return body;
  }

  private static Object trim(double cpu) {
    return cpu == Math.rint(cpu) ? (Object) (long) cpu : (Object) cpu;
  }

  /** Share of the pod's memory limit given to the JVM heap; the rest is metaspace, threads, I/O. */
  static final double HEAP_SHARE = 0.75;

  /**
   * {@code -Xmx} for the pod's JVM: {@value #HEAP_SHARE} of its memory limit (at least 64m), so
   * that the heap the compaction sorts in cannot push the container past its limit (the JVM's own
   * default is a quarter of it).
   */
  static String heapFlag(PodResources pod) {
    return "-Xmx" + Math.max(64, (long) (pod.mebibytes() * HEAP_SHARE)) + "m";
  }

  /** The pod's memory as a Kubernetes quantity, in Mi (a Flink size such as 2g is not one). */
  static String kubernetesMemory(PodResources pod) {
    return pod.mebibytes() + "Mi";
  }
}
