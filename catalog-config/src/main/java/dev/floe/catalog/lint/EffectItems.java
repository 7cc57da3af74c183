package dev.floe.catalog.lint;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The webhook effects of a manifest with their key paths: a job's {@code effects}, a backfill's
 * {@code on_backfill_done}.
 *
 * @param path the item's key path, e.g. {@code effects[1]}
 * @param node the item
 */
record EffectItems(String path, JsonNode node) {

  static List<EffectItems> of(LintedManifest manifest) {
    String list =
        switch (manifest.kind()) {
          case JOB -> "effects";
          case BACKFILL -> "on_backfill_done";
          case TABLE -> null;
        };
    JsonNode items = list == null ? null : manifest.root().get(list);
    List<EffectItems> effects = new ArrayList<>();
    if (items != null && items.isArray()) {
      for (int i = 0; i < items.size(); i++) {
        effects.add(new EffectItems(list + "[" + i + "]", items.get(i)));
      }
    }
    return effects;
  }

  /** The effect's name, or null when it has none. */
  String name() {
    String name = LintedManifest.text(node.get("name"));
    return name == null || name.isBlank() ? null : name;
  }

  /** The item's webhook mapping, or null. */
  JsonNode webhook() {
    JsonNode webhook = node.get("webhook");
    return webhook != null && webhook.isObject() ? webhook : null;
  }
}
