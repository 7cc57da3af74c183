package dev.floe.catalog.k8s;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.Shown;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The Flink cluster a rendered resource runs on: image, pods, credentials and Flink settings.
 *
 * @param image the container image holding the jar and the project (docker/Dockerfile)
 * @param imagePullPolicy Always, IfNotPresent or Never; null leaves Kubernetes' default
 * @param namespace the namespace to render into, or null to leave it to {@code kubectl -n}
 * @param serviceAccount the account the operator's Flink pods run as (the operator's Helm chart
 *     creates {@code flink})
 * @param flinkVersion the operator's enum value, e.g. {@code v2_1}
 * @param jobManager the JobManager pod's resources
 * @param taskManager each TaskManager pod's resources
 * @param taskSlots slots per TaskManager; 0 for the default (the job's parallelism for a job's own
 *     cluster, so one TaskManager runs the slice; {@value #DEFAULT_SESSION_SLOTS} for a session
 *     cluster)
 * @param secretEnv variables the pods read from Secrets (the S3 credentials, by default)
 * @param flinkConfiguration more Flink settings; credentials are refused here (they would be
 *     written into the manifest): use {@code secretEnv}
 */
public record ClusterSettings(
    String image,
    String imagePullPolicy,
    String namespace,
    String serviceAccount,
    String flinkVersion,
    PodResources jobManager,
    PodResources taskManager,
    int taskSlots,
    List<SecretEnv> secretEnv,
    Map<String, String> flinkConfiguration) {

  /** The account the operator's Helm chart creates for Flink pods. */
  public static final String DEFAULT_SERVICE_ACCOUNT = "flink";

  public static final int DEFAULT_SESSION_SLOTS = 2;

  /** The operator sets these itself and refuses a spec that sets them (DefaultValidator). */
  private static final Set<String> OPERATOR_OWNED_KEYS =
      Set.of("kubernetes.namespace", "kubernetes.cluster-id", "high-availability.cluster-id");

  private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
  private static final Pattern SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");
  private static final Set<String> PULL_POLICIES = Set.of("Always", "IfNotPresent", "Never");

  public ClusterSettings {
    InvalidInputException.check(
        image != null
            && !image.isBlank()
            && image.chars().noneMatch(c -> Character.isWhitespace(c) || Shown.isControl(c)),
        "Cannot render with --image %s: give an image reference such as floe:0.1.0 (no spaces,"
            + " line breaks or other control characters)",
        Shown.value(image));
    InvalidInputException.check(
        imagePullPolicy == null || PULL_POLICIES.contains(imagePullPolicy),
        "Cannot render with image pull policy '%s': expected one of Always, IfNotPresent, Never",
        Shown.value(imagePullPolicy));
    InvalidInputException.check(
        namespace == null || NAMESPACE.matcher(namespace).matches(),
        "Cannot render into namespace '%s': a namespace is at most 63 lower case letters, digits"
            + " and '-', alphanumeric at both ends",
        Shown.value(namespace));
    InvalidInputException.check(
        serviceAccount != null && SUBDOMAIN.matcher(serviceAccount).matches(),
        "Cannot render with service account '%s': expected a Kubernetes name such as flink",
        Shown.value(serviceAccount));
    FlinkVersions.requireAccepted(flinkVersion);
    InvalidInputException.check(
        taskSlots >= 0,
        "Cannot render with %d task slots: give a positive number (or 0 for the default)",
        taskSlots);
    Objects.requireNonNull(jobManager, "jobManager");
    Objects.requireNonNull(taskManager, "taskManager");
    secretEnv = List.copyOf(secretEnv);
    Set<String> seen = new HashSet<>();
    for (SecretEnv env : secretEnv) {
      InvalidInputException.check(
          seen.add(env.env()),
          "Cannot render: environment variable %s is set twice (from Secrets %s)",
          env.env(),
          secretEnv.stream()
              .filter(e -> e.env().equals(env.env()))
              .map(SecretEnv::secret)
              .toList());
    }
    flinkConfiguration = Map.copyOf(flinkConfiguration);
    for (String key : flinkConfiguration.keySet()) {
      InvalidInputException.check(
          !OPERATOR_OWNED_KEYS.contains(key),
          "Cannot render with Flink setting %s: the operator sets it from the resource's name and"
              + " namespace, and refuses a spec that sets it",
          key);
      InvalidInputException.check(
          !FlinkResources.ATTACHED.equals(key),
          "Cannot render with Flink setting %s: Floe sets it to true for a FlinkDeployment, whose"
              + " run must wait for its job (timeout, effects, exit code), and Flink's REST"
              + " submission of a session job ignores it",
          key);
      // The same test as floe.yaml's: an access key id is refused here too.
      InvalidInputException.check(
          !CatalogConfig.isCredential(key)
              && !CatalogConfig.carriesCredential(flinkConfiguration.get(key)),
          "Cannot render with Flink setting %s: it looks like a credential, and a manifest is no"
              + " place for one; put it in a Secret and pass --secret-env ENV=SECRET/KEY",
          key);
    }
  }

  /**
   * The defaults for {@code image}: service account {@value #DEFAULT_SERVICE_ACCOUNT}, this build's
   * Flink version, {@link PodResources#defaults()} for both pods, the S3 credentials from the
   * Secret {@value SecretEnv#DEFAULT_S3_SECRET}.
   */
  public static ClusterSettings defaults(String image) {
    return new ClusterSettings(
        image,
        null,
        null,
        DEFAULT_SERVICE_ACCOUNT,
        FlinkVersions.current(),
        PodResources.defaults(),
        PodResources.defaults(),
        0,
        SecretEnv.s3(SecretEnv.DEFAULT_S3_SECRET),
        Map.of());
  }

  public ClusterSettings withNamespace(String newNamespace) {
    return new ClusterSettings(
        image,
        imagePullPolicy,
        newNamespace,
        serviceAccount,
        flinkVersion,
        jobManager,
        taskManager,
        taskSlots,
        secretEnv,
        flinkConfiguration);
  }

  /** These settings with {@code more} variables from Secrets after the existing ones. */
  public ClusterSettings withSecretEnv(List<SecretEnv> more) {
    List<SecretEnv> all = new ArrayList<>(secretEnv);
    all.addAll(more);
    return new ClusterSettings(
        image,
        imagePullPolicy,
        namespace,
        serviceAccount,
        flinkVersion,
        jobManager,
        taskManager,
        taskSlots,
        all,
        flinkConfiguration);
  }

  /** These settings with {@code more} Flink settings; a key given again replaces the old value. */
  public ClusterSettings withFlinkConfiguration(Map<String, String> more) {
    Map<String, String> all = new LinkedHashMap<>(flinkConfiguration);
    all.putAll(more);
    return new ClusterSettings(
        image,
        imagePullPolicy,
        namespace,
        serviceAccount,
        flinkVersion,
        jobManager,
        taskManager,
        taskSlots,
        secretEnv,
        all);
  }
}
