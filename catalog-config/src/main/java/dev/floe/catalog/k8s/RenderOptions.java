package dev.floe.catalog.k8s;

import dev.floe.catalog.deploy.ImageLayout;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.Shown;
import dev.floe.catalog.job.JobSpec;
import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What every rendered run shares.
 *
 * @param projectDir the project directory the image holds at /opt/floe, or null to find it above
 *     the manifest ({@link ProjectLayout#detect})
 * @param cluster image, pods, credentials and Flink settings
 * @param submission an application cluster per run, or jobs of a session cluster
 * @param parallelism the job's parallelism; 0 takes the manifest's, else {@value
 *     #DEFAULT_PARALLELISM}
 * @param codeVersion the Floe build inside the image (it is part of the run key); {@code floe k8s}
 *     defaults it to its own ({@code floe --version})
 */
public record RenderOptions(
    Path projectDir,
    ClusterSettings cluster,
    Submission submission,
    int parallelism,
    String codeVersion) {

  /** The smallest cluster: one TaskManager with one slot. */
  public static final int DEFAULT_PARALLELISM = 1;

  /**
   * A code version as {@code floe --version} prints it: a Docker tag (the image is {@code
   * floe:<tag>}), optionally followed by {@code +<commit>[-dirty]}, which the image's tag leaves
   * out ({@link ImageLayout#imageFor}).
   */
  private static final Pattern CODE_VERSION =
      Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}(\\+[A-Za-z0-9_.-]+)?");

  public RenderOptions {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(submission, "submission");
    requireCodeVersion(codeVersion);
    InvalidInputException.check(
        parallelism >= 0 && parallelism <= JobSpec.MAX_PARALLELISM,
        "Cannot render with --parallelism %d: give a positive number of at most %d (or leave it"
            + " out)",
        parallelism,
        JobSpec.MAX_PARALLELISM);
  }

  /**
   * Refuses a {@code --code-version} that cannot tag an image or that would break a line of the
   * rendered YAML: it names the default image {@code floe:<version>} and is part of every run key.
   *
   * @return {@code codeVersion}
   */
  public static String requireCodeVersion(String codeVersion) {
    Objects.requireNonNull(codeVersion, "codeVersion");
    InvalidInputException.check(
        CODE_VERSION.matcher(codeVersion).matches(),
        "Cannot render with --code-version %s: expected a version as `floe --version` prints it, a"
            + " Docker tag (up to 128 letters, digits, '_', '.' and '-', not starting with '.' or"
            + " '-') optionally followed by +COMMIT, e.g. 0.1.0 or 0.1.0+3f2a1bc",
        Shown.value(codeVersion));
    return codeVersion;
  }

  /** An application cluster per run with these cluster settings. */
  public static RenderOptions application(ClusterSettings cluster, String codeVersion) {
    return new RenderOptions(null, cluster, Submission.application(), 0, codeVersion);
  }

  public RenderOptions withProjectDir(Path dir) {
    return new RenderOptions(dir, cluster, submission, parallelism, codeVersion);
  }

  public RenderOptions withSubmission(Submission newSubmission) {
    return new RenderOptions(projectDir, cluster, newSubmission, parallelism, codeVersion);
  }

  public RenderOptions withParallelism(int newParallelism) {
    return new RenderOptions(projectDir, cluster, submission, newParallelism, codeVersion);
  }
}
