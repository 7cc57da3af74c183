package dev.floe.flink.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;

/**
 * The files under {@code docker/} and the build files they must agree with. No Docker engine runs
 * on our machines, so the tests read these files instead of building or starting them.
 */
final class DockerFiles {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Pattern INTERPOLATION = Pattern.compile("\\$\\{([A-Z0-9_]+)(:?-([^}]*))?}");

  private DockerFiles() {}

  /**
   * The repository root: the first directory up from the working directory with docker/ and
   * pom.xml.
   */
  static Path root() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isDirectory(dir.resolve("docker")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "Cannot find the repository root: no directory above "
            + Path.of("").toAbsolutePath()
            + " holds docker/ and pom.xml");
  }

  static Path docker() {
    return root().resolve("docker");
  }

  static Dockerfile dockerfile() {
    return Dockerfile.parse(docker().resolve("Dockerfile"));
  }

  static JsonNode compose() {
    return yaml(docker().resolve("docker-compose.yml"));
  }

  static JsonNode service(String name) {
    JsonNode service = compose().path("services").path(name);
    if (service.isMissingNode()) {
      throw new IllegalStateException("docker-compose.yml has no service '" + name + "'");
    }
    return service;
  }

  static JsonNode yaml(Path file) {
    try {
      return YAML.readTree(file.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + file, e);
    }
  }

  static JsonNode yaml(String text) {
    try {
      return YAML.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot parse YAML: " + text, e);
    }
  }

  static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + file, e);
    }
  }

  /** A property of the parent POM, e.g. {@code flink.version}. */
  static String pomProperty(String name) {
    try {
      Document pom =
          DocumentBuilderFactory.newInstance()
              .newDocumentBuilder()
              .parse(root().resolve("pom.xml").toFile());
      var nodes = pom.getElementsByTagName(name);
      if (nodes.getLength() != 1) {
        throw new IllegalStateException("pom.xml has " + nodes.getLength() + " <" + name + ">");
      }
      return nodes.item(0).getTextContent().trim();
    } catch (Exception e) {
      throw new IllegalStateException("Cannot read <" + name + "> from pom.xml", e);
    }
  }

  /**
   * A service's environment as compose would pass it when the shell sets nothing: {@code
   * ${VAR:-default}} becomes its default (an unset variable without one becomes empty).
   */
  static Map<String, String> environment(JsonNode service) {
    Map<String, String> env = new LinkedHashMap<>();
    service
        .path("environment")
        .fields()
        .forEachRemaining(e -> env.put(e.getKey(), withDefaults(e.getValue().asText())));
    return env;
  }

  static String withDefaults(String value) {
    Matcher m = INTERPOLATION.matcher(value);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(m.group(3) == null ? "" : m.group(3)));
    }
    m.appendTail(out);
    return out.toString();
  }

  /**
   * True when the value is taken from the caller's environment ({@code ${VAR}} or {@code
   * ${VAR:-x}}).
   */
  static boolean isInterpolated(String value) {
    return INTERPOLATION.matcher(value).matches();
  }
}
