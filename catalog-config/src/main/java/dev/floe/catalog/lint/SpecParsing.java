package dev.floe.catalog.lint;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.floe.catalog.backfill.BackfillSpecParser;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.catalog.spec.TableSpecParser;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs the project's own parser on a manifest, so lint refuses exactly what {@code floe run},
 * {@code floe tables} and {@code floe backfill} refuse. Keys lint already reported as unknown are
 * left out first: the parser stops at its first refusal, and the rest of the file deserves to be
 * checked too.
 */
final class SpecParsing {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /** A key to leave out: {@code key} in the mapping at {@code parent} ({@code ""}: the top). */
  record Dropped(String parent, String key) {}

  /** The parsed spec, or why the parser refused it. */
  record Outcome(Object spec, ParserRefusal refusal) {}

  private SpecParsing() {}

  static Outcome parse(
      ManifestKind kind, Path path, String source, String text, JsonNode root, List<Dropped> drop) {
    try {
      return new Outcome(parsed(kind, path, source, text, root, drop), null);
    } catch (RuntimeException refusal) {
      return new Outcome(null, ParserRefusal.of(source, refusal));
    }
  }

  private static Object parsed(
      ManifestKind kind, Path path, String source, String text, JsonNode root, List<Dropped> drop) {
    return switch (kind) {
      case JOB -> {
        String kept = without(root, drop, text);
        yield JobSpecParser.parse(Manifests.parse(source, kept), kept);
      }
      case TABLE -> TableSpecParser.parse(source, without(root, drop, text));
      // The backfill parser reads only files; it sees the file as written.
      case BACKFILL -> BackfillSpecParser.load(path);
    };
  }

  /** The YAML text without the keys in {@code drop}. */
  private static String without(JsonNode root, List<Dropped> drop, String text) {
    if (drop.isEmpty()) {
      return text;
    }
    JsonNode copy = root.deepCopy();
    for (Dropped dropped : drop) {
      if (find(copy, dropped.parent()) instanceof ObjectNode mapping) {
        mapping.remove(dropped.key());
      }
    }
    try {
      return YAML.writeValueAsString(copy);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write a manifest back as YAML", e);
    }
  }

  /** The node at a path such as {@code effects[0].webhook}; null when there is none. */
  private static JsonNode find(JsonNode root, String path) {
    JsonNode node = root;
    if (path.isEmpty()) {
      return node;
    }
    for (String part : path.split("\\.")) {
      if (node == null) {
        return null;
      }
      node = step(node, part);
    }
    return node;
  }

  /** One step down a path: {@code name} or {@code name[2]}. */
  private static JsonNode step(JsonNode node, String part) {
    int bracket = part.indexOf('[');
    JsonNode child = node.get(bracket < 0 ? part : part.substring(0, bracket));
    while (child != null && bracket >= 0) {
      int close = part.indexOf(']', bracket);
      child = child.get(Integer.parseInt(part.substring(bracket + 1, close)));
      bracket = part.indexOf('[', close);
    }
    return child;
  }
}
