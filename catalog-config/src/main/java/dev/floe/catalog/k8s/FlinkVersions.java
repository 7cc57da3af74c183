package dev.floe.catalog.k8s;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.Shown;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The operator's {@code spec.flinkVersion} for the Flink this build is compiled against, read from
 * the build (flink-build.properties), so the manifests follow a Flink upgrade without an edit.
 */
public final class FlinkVersions {
  private static final Pattern RELEASE = Pattern.compile("(\\d+)\\.(\\d+)(\\..*)?");

  /**
   * The values of {@code spec.flinkVersion} the operator's CRD lists (release 1.14.0; a test
   * compares them with the copied CRD, operator-crd-keys.yaml). The operator refuses any other.
   */
  public static final List<String> OPERATOR_VERSIONS =
      List.of(
          "v1_13", "v1_14", "v1_15", "v1_16", "v1_17", "v1_18", "v1_19", "v1_20", "v2_0", "v2_1",
          "v2_2");

  private FlinkVersions() {}

  /**
   * The {@code spec.flinkVersion} values a render may ask for: those the CRD lists with this
   * build's major Flink version. The image runs the jar built for Flink {@link #buildFlinkVersion}
   * (2.x): the operator would start a cluster of another major version that cannot run it.
   */
  public static List<String> accepted() {
    String major = "v" + current().substring(1, current().indexOf('_')) + "_";
    return OPERATOR_VERSIONS.stream().filter(v -> v.startsWith(major)).toList();
  }

  /**
   * Refuses {@code --flink-version} values the operator does not know, or of another major Flink
   * version than the jar's.
   *
   * @return {@code flinkVersion}
   */
  public static String requireAccepted(String flinkVersion) {
    InvalidInputException.check(
        flinkVersion != null && OPERATOR_VERSIONS.contains(flinkVersion),
        "Cannot render with --flink-version %s: the operator (1.14) knows only %s",
        Shown.value(flinkVersion),
        String.join(", ", OPERATOR_VERSIONS));
    InvalidInputException.check(
        accepted().contains(flinkVersion),
        "Cannot render with --flink-version %s: the Floe jar in the image is built for Flink %s,"
            + " which a cluster of %s cannot run; give one of %s (default %s)",
        flinkVersion,
        buildFlinkVersion(),
        flinkVersion,
        String.join(", ", accepted()),
        current());
    return flinkVersion;
  }

  /** {@code v2_1} for Flink 2.1.0. */
  public static String current() {
    return toOperatorVersion(buildFlinkVersion());
  }

  /** The Flink version of the build, e.g. {@code 2.1.0}. */
  public static String buildFlinkVersion() {
    Properties properties = new Properties();
    try (InputStream in = FlinkVersions.class.getResourceAsStream("flink-build.properties")) {
      if (in == null) {
        throw new IllegalStateException(
            "Cannot find flink-build.properties next to " + FlinkVersions.class);
      }
      properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read flink-build.properties", e);
    }
    return properties.getProperty("flink.version", "");
  }

  /** {@code 2.1.0} to the operator's enum value {@code v2_1}. */
  public static String toOperatorVersion(String flinkVersion) {
    Matcher m = RELEASE.matcher(flinkVersion == null ? "" : flinkVersion);
    if (!m.matches()) {
      throw new IllegalStateException(
          "Cannot derive the operator's flinkVersion from Flink version '"
              + flinkVersion
              + "': expected major.minor[.patch] (was the resource filtered by the build?)");
    }
    return "v" + m.group(1) + "_" + m.group(2);
  }
}
