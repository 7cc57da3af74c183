package dev.floe.catalog.k8s;

import dev.floe.catalog.deploy.ImageLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds the Flink Kubernetes Operator's resources (apiVersion {@value #API_VERSION}) as ordered
 * maps. Key names follow the operator's CRDs of release 1.14.0; K8sManifestSchemaTest holds every
 * rendered key against a copy of them.
 */
final class FlinkResources {
  static final String API_VERSION = "flink.apache.org/v1beta1";
  static final String DEPLOYMENT = "FlinkDeployment";
  static final String SESSION_JOB = "FlinkSessionJob";

  /** The container Flink's pod template is merged into; other names add a sidecar instead. */
  static final String MAIN_CONTAINER = "flink-main-container";

  static final String TASK_SLOTS = "taskmanager.numberOfTaskSlots";

  /** A batch slice is not restored from state: a rerun replaces the slice from scratch. */
  static final String UPGRADE_MODE = "stateless";

  static final String LABEL_APP = "app.kubernetes.io/name";
  static final String LABEL_COMPONENT = "app.kubernetes.io/component";
  static final String LABEL_JOB = "floe.dev/job";
  static final String LABEL_SLICE = "floe.dev/slice";
  static final String LABEL_RUN_KEY = "floe.dev/run-key";
  static final String LABEL_BACKFILL = "floe.dev/backfill-id";
  static final String WHOLE_TABLE = "whole-table";

  private FlinkResources() {}

  /**
   * Flink's setting that makes a program's {@code execute} wait for its job. An application
   * cluster's default is false: {@code floe run} in the JobManager would then return as soon as its
   * job is submitted, so it could neither cancel the job at the manifest's {@code timeout} nor send
   * the job's effects after its commit, nor fail the application with the run's exit code.
   */
  static final String ATTACHED = "execution.attached";

  /** An application cluster that runs {@code run} once: JobManager, TaskManagers and the job. */
  static Map<String, Object> deployment(SliceRun run, ClusterSettings cluster, Submission app) {
    Map<String, Object> spec = clusterSpec(cluster, slots(cluster, run.parallelism()));
    @SuppressWarnings("unchecked")
    Map<String, String> configuration = (Map<String, String>) spec.get("flinkConfiguration");
    configuration.put(ATTACHED, "true");
    spec.put("job", job(run, app.jarUri()));
    return resource(
        DEPLOYMENT, metadata(run.name(), cluster, runLabels(run), annotations(run)), spec);
  }

  /** The same run as a job of the session cluster {@code session.sessionCluster()}. */
  static Map<String, Object> sessionJob(SliceRun run, ClusterSettings cluster, Submission session) {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("deploymentName", session.sessionCluster());
    if (!cluster.flinkConfiguration().isEmpty()) {
      spec.put("flinkConfiguration", new TreeMap<>(cluster.flinkConfiguration()));
    }
    spec.put("job", job(run, session.jarUri()));
    return resource(
        SESSION_JOB, metadata(run.name(), cluster, runLabels(run), annotations(run)), spec);
  }

  /**
   * A session cluster without a job: the pods that session jobs run in. Its pods carry the image
   * (project and jar) and the credentials, because a session job's {@code floe run} reads its
   * manifest and the catalog from inside this cluster.
   */
  static Map<String, Object> sessionCluster(String name, ClusterSettings cluster) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(LABEL_APP, "floe");
    labels.put(LABEL_COMPONENT, "session-cluster");
    int slots =
        cluster.taskSlots() > 0 ? cluster.taskSlots() : ClusterSettings.DEFAULT_SESSION_SLOTS;
    return resource(
        DEPLOYMENT, metadata(name, cluster, labels, Map.of()), clusterSpec(cluster, slots));
  }

  private static int slots(ClusterSettings cluster, int parallelism) {
    return cluster.taskSlots() > 0 ? cluster.taskSlots() : parallelism;
  }

  private static Map<String, Object> resource(
      String kind, Map<String, Object> metadata, Map<String, Object> spec) {
    Map<String, Object> resource = new LinkedHashMap<>();
    resource.put("apiVersion", API_VERSION);
    resource.put("kind", kind);
    resource.put("metadata", metadata);
    resource.put("spec", spec);
    return resource;
  }

  private static Map<String, Object> metadata(
      String name,
      ClusterSettings cluster,
      Map<String, String> labels,
      Map<String, String> annotations) {
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("name", name);
    if (cluster.namespace() != null) {
      metadata.put("namespace", cluster.namespace());
    }
    metadata.put("labels", labels);
    if (!annotations.isEmpty()) {
      metadata.put("annotations", annotations);
    }
    return metadata;
  }

  private static Map<String, Object> clusterSpec(ClusterSettings cluster, int slots) {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("image", cluster.image());
    if (cluster.imagePullPolicy() != null) {
      spec.put("imagePullPolicy", cluster.imagePullPolicy());
    }
    spec.put("flinkVersion", cluster.flinkVersion());
    spec.put("serviceAccount", cluster.serviceAccount());
    Map<String, String> configuration = new TreeMap<>();
    configuration.put(TASK_SLOTS, Integer.toString(slots));
    configuration.putAll(cluster.flinkConfiguration());
    spec.put("flinkConfiguration", configuration);
    spec.put("podTemplate", podTemplate(cluster));
    spec.put("jobManager", Map.of("resource", resource(cluster.jobManager())));
    spec.put("taskManager", Map.of("resource", resource(cluster.taskManager())));
    return spec;
  }

  /** The variables from Secrets, on the main container of every JobManager and TaskManager pod. */
  private static Map<String, Object> podTemplate(ClusterSettings cluster) {
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
    Map<String, Object> container = new LinkedHashMap<>();
    container.put("name", MAIN_CONTAINER);
    container.put("env", env);
    Map<String, Object> template = new LinkedHashMap<>();
    template.put("apiVersion", "v1");
    template.put("kind", "Pod");
    template.put("spec", Map.of("containers", List.of(container)));
    return template;
  }

  private static Map<String, Object> resource(PodResources pod) {
    Map<String, Object> resource = new LinkedHashMap<>();
    resource.put("cpu", pod.cpu());
    resource.put("memory", pod.memory());
    return resource;
  }

  private static Map<String, Object> job(SliceRun run, String jarUri) {
    Map<String, Object> job = new LinkedHashMap<>();
    job.put("jarURI", jarUri);
    job.put("entryClass", ImageLayout.CLUSTER_ENTRY_CLASS);
    job.put("args", run.args());
    job.put("parallelism", run.parallelism());
    job.put("upgradeMode", UPGRADE_MODE);
    job.put("state", "running");
    return job;
  }

  private static Map<String, String> runLabels(SliceRun run) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(LABEL_APP, "floe");
    labels.put(LABEL_JOB, K8sNames.labelValue(run.job()));
    labels.put(
        LABEL_SLICE,
        run.sliceValue() == null ? WHOLE_TABLE : K8sNames.labelValue(run.sliceValue()));
    labels.put(LABEL_RUN_KEY, run.runKey());
    if (run.backfillId() != null) {
      labels.put(LABEL_BACKFILL, K8sNames.labelValue(run.backfillId()));
    }
    return labels;
  }

  /** The originals of what the labels may shorten, and what the run key was made of. */
  private static Map<String, String> annotations(SliceRun run) {
    Map<String, String> annotations = new LinkedHashMap<>();
    annotations.put("floe.dev/job", run.job());
    annotations.put("floe.dev/target", run.target());
    annotations.put("floe.dev/manifest", run.manifest());
    annotations.put("floe.dev/slice", run.sliceLabel());
    if (run.sliceValue() != null) {
      annotations.put("floe.dev/slice-value", run.sliceValue());
    }
    annotations.put("floe.dev/code-version", run.codeVersion());
    if (run.backfillId() != null) {
      annotations.put("floe.dev/backfill-id", run.backfillId());
    }
    return annotations;
  }
}
