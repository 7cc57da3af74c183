package dev.floe.catalog.k8s;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The operator's {@code spec.flinkVersion} for the Flink this build is compiled against, read from
 * the build (flink-build.properties), so the manifests follow a Flink upgrade without an edit.
 */
public final class FlinkVersions {
  private static final Pattern RELEASE = Pattern.compile("(\\d+)\\.(\\d+)(\\..*)?");

  private FlinkVersions() {}

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
