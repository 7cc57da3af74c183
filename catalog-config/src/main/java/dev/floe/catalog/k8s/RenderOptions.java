package dev.floe.catalog.k8s;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.JobSpec;
import java.nio.file.Path;
import java.util.Objects;

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

  public RenderOptions {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(submission, "submission");
    Objects.requireNonNull(codeVersion, "codeVersion");
    InvalidInputException.check(
        parallelism >= 0 && parallelism <= JobSpec.MAX_PARALLELISM,
        "Cannot render with --parallelism %d: give a positive number of at most %d (or leave it"
            + " out)",
        parallelism,
        JobSpec.MAX_PARALLELISM);
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
