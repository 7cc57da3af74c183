package dev.floe.catalog.lint;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.catalog.backfill.BackfillManifestKeys;
import dev.floe.catalog.config.OptionGroup;
import dev.floe.catalog.job.JobManifestKeys;
import dev.floe.catalog.spec.TableSpecKeys;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The keys each manifest may hold, from the same declarations the parsers accept ({@link
 * JobManifestKeys}, {@link TableSpecKeys}, {@link BackfillManifestKeys}).
 */
final class KnownKeys {
  private static final String BACKFILL_EFFECTS = "on_backfill_done[]";

  /**
   * An unknown key, its mapping's path and its own path, e.g. {@code slice} and {@code
   * slice.colum}.
   */
  record Unknown(String key, String parent, String path, Set<String> allowed) {}

  private KnownKeys() {}

  /** Every key of {@code root} that {@code kind} does not declare, in file order. */
  static List<Unknown> unknown(ManifestKind kind, JsonNode root) {
    List<Unknown> found = new ArrayList<>();
    walk(kind, root, "", "", found);
    return found;
  }

  private static void walk(
      ManifestKind kind, JsonNode node, String path, String declared, List<Unknown> found) {
    if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        walk(kind, node.get(i), path + "[" + i + "]", declared + "[]", found);
      }
      return;
    }
    if (!node.isObject()) {
      return;
    }
    Optional<Set<String>> allowed = allowedUnder(kind, declared);
    if (allowed.isEmpty()) {
      return; // a free mapping (headers, properties) or a shape the parser refuses itself
    }
    Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      String key = field.getKey();
      String childPath = path.isEmpty() ? key : path + "." + key;
      if (!allowed.get().contains(key)) {
        found.add(new Unknown(key, path, childPath, allowed.get()));
        continue;
      }
      String childDeclared = declared.isEmpty() ? key : declared + "." + key;
      walk(kind, field.getValue(), childPath, childDeclared, found);
    }
  }

  /** The keys allowed in the mapping at {@code declared} (list items as {@code []}). */
  private static Optional<Set<String>> allowedUnder(ManifestKind kind, String declared) {
    OptionGroup group =
        switch (kind) {
          case JOB -> JobManifestKeys.GROUP;
          case TABLE -> TableSpecKeys.GROUP;
          case BACKFILL -> BackfillManifestKeys.GROUP;
        };
    if (kind == ManifestKind.BACKFILL && declared.startsWith(BACKFILL_EFFECTS)) {
      // on_backfill_done items take the keys of a job's effects[] (EffectSpecParser reads both).
      group = JobManifestKeys.GROUP;
      declared = "effects[]" + declared.substring(BACKFILL_EFFECTS.length());
    }
    Set<String> keys;
    try {
      keys = new LinkedHashSet<>(group.keysUnder(declared));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    return Optional.of(keys);
  }
}
