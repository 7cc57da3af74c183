package dev.floe.catalog.k8s;

import dev.floe.catalog.deploy.ImageLayout;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.Shown;
import java.util.Locale;

/**
 * How a rendered job reaches Flink: as its own application cluster (a FlinkDeployment whose jar is
 * already in the image), or as a FlinkSessionJob on a running session cluster, whose jar the
 * operator downloads and uploads to that cluster.
 *
 * @param sessionCluster the session cluster's FlinkDeployment name, or null for an application
 *     cluster
 * @param jarUri where the jar is: inside the image ({@code local://}) for an application cluster, a
 *     URI the operator can fetch ({@code https://}, {@code s3://}) for a session job
 */
public record Submission(String sessionCluster, String jarUri) {

  public Submission {
    if (sessionCluster == null) {
      InvalidInputException.check(
          jarUri != null && !jarUri.isBlank(), "Cannot render a FlinkDeployment without a jar URI");
    } else {
      InvalidInputException.check(
          K8sNames.isOperatorName(sessionCluster),
          "Cannot render a job for session cluster '%s': the operator accepts only names of at"
              + " most %d lower case letters, digits and '-', starting with a letter",
          Shown.value(sessionCluster),
          K8sNames.MAX_NAME_LENGTH);
      InvalidInputException.check(
          jarUri != null && !jarUri.isBlank(),
          "Cannot render a job for session cluster %s: give --jar-uri, a URI the operator can"
              + " download the Floe jar from (https://... or s3://...); a session job's jar is"
              + " uploaded to the cluster, not read from an image",
          sessionCluster);
      InvalidInputException.check(
          jarUri.chars().noneMatch(c -> Character.isWhitespace(c) || Shown.isControl(c)),
          "Cannot render a job for session cluster %s with --jar-uri %s: a URI holds no spaces,"
              + " line breaks or other control characters",
          sessionCluster,
          Shown.value(jarUri));
      InvalidInputException.check(
          jarUri.contains("://") && !jarUri.toLowerCase(Locale.ROOT).startsWith("local:"),
          "Cannot render a job for session cluster %s with --jar-uri %s: the operator downloads a"
              + " session job's jar and cannot read a path inside an image; give https://... or"
              + " s3://...",
          sessionCluster,
          Shown.value(jarUri));
    }
  }

  /** An application cluster running the jar baked into the image ({@link ImageLayout#JAR_URI}). */
  public static Submission application() {
    return new Submission(null, ImageLayout.JAR_URI);
  }

  /** A FlinkSessionJob on {@code cluster}, its jar fetched from {@code jarUri}. */
  public static Submission session(String cluster, String jarUri) {
    InvalidInputException.check(
        cluster != null, "Cannot render a session job without a session cluster name");
    return new Submission(cluster, jarUri);
  }

  public boolean isSession() {
    return sessionCluster != null;
  }
}
