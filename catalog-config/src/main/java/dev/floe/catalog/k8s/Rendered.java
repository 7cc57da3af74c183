package dev.floe.catalog.k8s;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rendered resources.
 *
 * @param header comment lines printed above the first document (what to do with them)
 * @param documents the resources, in the order to apply them
 * @param warnings what the user should know but that does not stop rendering (printed on stderr)
 * @param inputs the files the render read, which its output must not replace
 */
public record Rendered(
    List<String> header, List<K8sDocument> documents, List<String> warnings, List<Input> inputs) {

  /**
   * A file the render read.
   *
   * @param what what it is to the render, e.g. {@code the manifest}
   * @param path the file
   */
  public record Input(String what, Path path) {}

  public Rendered {
    header = List.copyOf(header);
    documents = List.copyOf(documents);
    warnings = List.copyOf(warnings);
    inputs = List.copyOf(inputs);
  }

  /** Resources rendered from no file. */
  public Rendered(List<String> header, List<K8sDocument> documents, List<String> warnings) {
    this(header, documents, warnings, List.of());
  }

  /** The same resources, and {@code path} read as {@code what}. */
  public Rendered withInput(String what, Path path) {
    List<Input> all = new ArrayList<>(inputs);
    all.add(new Input(what, path));
    return new Rendered(header, documents, warnings, all);
  }

  /** The multi-document YAML stream for {@code kubectl apply -f -}. */
  public String yaml() {
    return K8sYaml.yaml(header, documents);
  }

  /** The same resources as JSON: one object, or a {@code v1 List}. */
  public String json() {
    return K8sYaml.json(documents);
  }

  /**
   * One YAML file per resource, named {@code 001-<name>.yaml} in apply order, so {@code ls} lists a
   * backfill's slices in order and a script can apply them in batches.
   */
  public Map<String, String> files() {
    int width = Math.max(3, Integer.toString(documents.size()).length());
    Map<String, String> files = new LinkedHashMap<>();
    for (int i = 0; i < documents.size(); i++) {
      K8sDocument document = documents.get(i);
      String file = String.format("%0" + width + "d-%s.yaml", i + 1, document.name());
      files.put(file, K8sYaml.yaml(List.of(), List.of(document)));
    }
    return files;
  }

  public List<String> names() {
    return documents.stream().map(K8sDocument::name).toList();
  }
}
