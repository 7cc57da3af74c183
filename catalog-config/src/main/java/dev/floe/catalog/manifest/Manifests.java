package dev.floe.catalog.manifest;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.floe.catalog.error.InvalidInputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads YAML manifests (table specs, job manifests, floe.yaml) into strict {@link ManifestNode}s.
 */
public final class Manifests {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private Manifests() {}

  /** A file's text and its root node; the text is kept because the run key hashes it. */
  public record Loaded(String source, String text, ManifestNode root) {}

  public static Loaded load(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw InvalidInputException.of("Cannot read %s: no such file", file);
    } catch (IOException e) {
      throw new InvalidInputException("Cannot read " + file + ": " + e.getMessage(), e);
    }
    return new Loaded(file.toString(), text, parse(file.toString(), text));
  }

  public static ManifestNode parse(String source, String text) {
    JsonNode node;
    try {
      node = YAML.readTree(text);
    } catch (JsonProcessingException e) {
      throw InvalidInputException.of("Cannot read %s: not valid YAML: %s", source, problem(e));
    }
    if (node == null || !node.isObject()) {
      throw InvalidInputException.of("Cannot read %s: expected a YAML mapping at the top", source);
    }
    return new ManifestNode(source, "", node);
  }

  /**
   * What the parser found wrong and where, without the source line SnakeYAML quotes under its
   * message: that line may hold a value that must never reach a log (a password in floe.yaml).
   */
  private static String problem(JsonProcessingException e) {
    String problem;
    if (e.getCause() instanceof MarkedYAMLException marked) {
      problem =
          Stream.of(marked.getContext(), marked.getProblem())
              .filter(Objects::nonNull)
              .collect(Collectors.joining(": "));
    } else {
      problem = e.getOriginalMessage().lines().findFirst().orElse("").strip();
    }
    JsonLocation where = e.getLocation();
    return where == null || where.getLineNr() < 1
        ? problem
        : problem + " (line " + where.getLineNr() + ", column " + where.getColumnNr() + ")";
  }
}
