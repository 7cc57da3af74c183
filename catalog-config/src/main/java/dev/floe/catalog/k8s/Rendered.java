package dev.floe.catalog.k8s;

import java.util.List;

/**
 * Rendered resources.
 *
 * @param header comment lines printed above the first document (what to do with them)
 * @param documents the resources, in the order to apply them
 * @param warnings what the user should know but that does not stop rendering (printed on stderr)
 */
public record Rendered(List<String> header, List<K8sDocument> documents, List<String> warnings) {
  public Rendered {
    header = List.copyOf(header);
    documents = List.copyOf(documents);
    warnings = List.copyOf(warnings);
  }

  /** The multi-document YAML stream for {@code kubectl apply -f -}. */
  public String yaml() {
    return K8sYaml.yaml(header, documents);
  }

  /** The same resources as JSON: one object, or a {@code v1 List}. */
  public String json() {
    return K8sYaml.json(documents);
  }

  public List<String> names() {
    return documents.stream().map(K8sDocument::name).toList();
  }
}
