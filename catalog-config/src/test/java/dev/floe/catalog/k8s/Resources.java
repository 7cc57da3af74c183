package dev.floe.catalog.k8s;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/** Reads rendered output back the way kubectl's YAML 1.1 reader types it. */
final class Resources {
  private Resources() {}

  /** Every document of a YAML stream, as maps; an unquoted 2026-10-03 would come back a Date. */
  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> parse(String yaml) {
    List<Map<String, Object>> documents = new ArrayList<>();
    for (Object document : new Yaml().loadAll(yaml)) {
      if (document != null) {
        documents.add((Map<String, Object>) document);
      }
    }
    return documents;
  }

  /** The value at a dotted path, e.g. {@code spec.job.args}. */
  @SuppressWarnings("unchecked")
  static <T> T at(Map<String, Object> resource, String path) {
    Object value = resource;
    for (String key : path.split("\\.")) {
      value = ((Map<String, Object>) value).get(key);
    }
    return (T) value;
  }

  /** The repository's examples/ folder (tests run in the module folder). */
  static Path examples() {
    return Path.of("..", "examples").toAbsolutePath().normalize();
  }

  static Path dailyJob() {
    return examples().resolve("jobs/fact_orders_daily.yaml");
  }
}
