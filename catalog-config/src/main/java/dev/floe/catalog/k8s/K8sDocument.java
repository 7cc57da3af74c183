package dev.floe.catalog.k8s;

import java.util.List;
import java.util.Map;

/**
 * One rendered Kubernetes resource and the comment printed above it.
 *
 * @param comment lines without the leading {@code #}
 * @param body the resource, with maps in the order they are printed
 */
public record K8sDocument(List<String> comment, Map<String, Object> body) {
  public K8sDocument {
    comment = List.copyOf(comment);
  }

  public String kind() {
    return (String) body.get("kind");
  }

  @SuppressWarnings("unchecked")
  public String name() {
    return (String) ((Map<String, Object>) body.get("metadata")).get("name");
  }
}
