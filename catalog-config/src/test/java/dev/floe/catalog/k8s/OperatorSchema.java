package dev.floe.catalog.k8s;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.Yaml;

/**
 * The operator's CRD key sets copied into operator-crd-keys.yaml (see its header for the source),
 * and a check of a parsed resource against them: every key at every path must be allowed, every
 * value of the CRD's type, every enum value listed.
 */
final class OperatorSchema {
  private final Map<String, Map<String, Map<String, Object>>> kinds;
  private final Pattern namePattern;

  @SuppressWarnings("unchecked")
  private OperatorSchema(Map<String, Object> root) {
    this.namePattern =
        Pattern.compile((String) ((Map<String, Object>) root.get("names")).get("pattern"));
    root.remove("names");
    this.kinds = (Map<String, Map<String, Map<String, Object>>>) (Map<?, ?>) root;
  }

  static OperatorSchema load() {
    try (InputStream in = OperatorSchema.class.getResourceAsStream("operator-crd-keys.yaml")) {
      return new OperatorSchema(new Yaml().load(in));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The values the CRD of {@code kind} allows at {@code path}, e.g. spec.flinkVersion. */
  List<?> enumOf(String kind, String path) {
    return (List<?>) kinds.get(kind).get(path).get("enum");
  }

  /** The operator's name rule for FlinkDeployments (and a session job's deploymentName). */
  Pattern namePattern() {
    return namePattern;
  }

  /**
   * Every way {@code resource} (as a YAML 1.1 reader types it: an unquoted 2026-10-03 is a date)
   * breaks the copied schema; empty when it conforms.
   */
  List<String> problems(Map<String, Object> resource) {
    List<String> problems = new ArrayList<>();
    Object kind = resource.get("kind");
    Map<String, Map<String, Object>> schema = kinds.get(String.valueOf(kind));
    if (schema == null) {
      problems.add("kind " + kind + " has no copied schema (known: " + kinds.keySet() + ")");
      return problems;
    }
    walk(schema, "", resource, problems);
    return problems;
  }

  @SuppressWarnings("unchecked")
  private static void walk(
      Map<String, Map<String, Object>> schema, String path, Object value, List<String> problems) {
    Map<String, Object> entry = schema.get(schemaPath(path));
    if (entry == null) {
      problems.add(path + ": not covered by the copied CRD key sets");
      return;
    }
    String type = (String) entry.get("type");
    switch (type) {
      case "object" -> {
        if (!(value instanceof Map<?, ?> map)) {
          problems.add(path + ": expected an object, got " + describe(value));
          return;
        }
        List<String> keys = (List<String>) entry.get("keys");
        for (Map.Entry<?, ?> child : map.entrySet()) {
          String key = String.valueOf(child.getKey());
          if (!keys.contains(key)) {
            problems.add(join(path, key) + ": unknown key (allowed: " + keys + ")");
          } else {
            walk(schema, join(path, key), child.getValue(), problems);
          }
        }
      }
      case "map" -> {
        if (!(value instanceof Map<?, ?> map)) {
          problems.add(path + ": expected a map, got " + describe(value));
          return;
        }
        map.forEach(
            (k, v) -> {
              if (!(v instanceof String)) {
                problems.add(
                    join(path, String.valueOf(k)) + ": expected a string, got " + describe(v));
              }
            });
      }
      case "array" -> {
        if (!(value instanceof List<?> list)) {
          problems.add(path + ": expected an array, got " + describe(value));
          return;
        }
        list.forEach(element -> walk(schema, path + "[]", element, problems));
      }
      case "string" -> {
        if (!(value instanceof String)) {
          problems.add(path + ": expected a string, got " + describe(value));
        } else if (entry.containsKey("enum") && !((List<?>) entry.get("enum")).contains(value)) {
          problems.add(path + ": '" + value + "' is not one of " + entry.get("enum"));
        }
      }
      case "integer" -> {
        if (!(value instanceof Integer || value instanceof Long)) {
          problems.add(path + ": expected an integer, got " + describe(value));
        }
      }
      case "number" -> {
        if (!(value instanceof Number)) {
          problems.add(path + ": expected a number, got " + describe(value));
        }
      }
      case "boolean" -> {
        if (!(value instanceof Boolean)) {
          problems.add(path + ": expected a boolean, got " + describe(value));
        }
      }
      default -> problems.add(path + ": the copied schema has an unknown type " + type);
    }
  }

  /** The pod templates of the JobManager and TaskManager have spec.podTemplate's schema. */
  private static String schemaPath(String path) {
    return path.replaceFirst("^spec\\.(jobManager|taskManager)\\.podTemplate", "spec.podTemplate");
  }

  private static String join(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  private static String describe(Object value) {
    return value == null ? "null" : value.getClass().getSimpleName() + " " + value;
  }
}
