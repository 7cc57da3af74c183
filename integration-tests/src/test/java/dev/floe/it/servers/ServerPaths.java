package dev.floe.it.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the build put the servers' jars and classpaths (failsafe system properties). */
public final class ServerPaths {
  private ServerPaths() {}

  public static Path repoRoot() {
    return Path.of(System.getProperty("floe.repo.root", "..")).toAbsolutePath().normalize();
  }

  /** A file named by a system property; fails with the property's name when the build lacks it. */
  public static Path required(String property) {
    String value = System.getProperty(property);
    if (value == null) {
      throw new IllegalStateException(
          "Cannot find " + property + ": run the integration tests through ./mvnw verify");
    }
    Path path = Path.of(value).toAbsolutePath().normalize();
    if (!Files.exists(path)) {
      throw new IllegalStateException(
          "Cannot find " + path + " (" + property + "): build the project with ./mvnw verify");
    }
    return path;
  }

  /** The contents of a Maven build-classpath file. */
  public static String classpath(String property) {
    try {
      return Files.readString(required(property)).trim();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + property, e);
    }
  }

  /** A fresh directory for one server's data and logs under {@code target/servers}. */
  public static Path workDir(String name) {
    Path base = Path.of(System.getProperty("floe.servers.dir", "target/servers"));
    try {
      Files.createDirectories(base);
      return Files.createTempDirectory(base.toAbsolutePath(), name + "-");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create a directory for " + name, e);
    }
  }
}
