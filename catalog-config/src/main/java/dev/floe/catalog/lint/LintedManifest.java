package dev.floe.catalog.lint;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.manifest.ManifestNode;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.catalog.spec.TableSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One manifest as lint sees it: the YAML tree as written (so rules still run when the parser
 * refuses the file), where each key is, and what the project's parser made of it.
 *
 * @param path the file
 * @param file the file as printed in findings
 * @param kind job, table or backfill
 * @param root the YAML tree, with YAML 1.1's types ({@code 010} is 8, {@code on} is true)
 * @param spelled the same tree whose text values read as the file spells them, as the parsers read
 *     them; null when the file is not strict YAML ({@link Manifests}: an anchor, a tag, a key given
 *     twice), which the parser's refusal reports
 * @param lines where each key is
 * @param spec the parsed {@code JobSpec}, {@code TableSpec} or {@code BackfillSpec}, or null when
 *     the parser refused the file
 * @param refusal why the parser refused it, or null
 */
record LintedManifest(
    Path path,
    String file,
    ManifestKind kind,
    JsonNode root,
    ManifestNode spelled,
    KeyLines lines,
    Object spec,
    ParserRefusal refusal) {

  int line(String keyPath) {
    return lines.line(keyPath);
  }

  boolean is(ManifestKind expected) {
    return kind == expected;
  }

  /**
   * A top-level scalar as the file spells it ({@code job: 010} is {@code 010}, as {@code floe run}
   * reads it), or null when absent or not a scalar.
   */
  String text(String key) {
    if (spelled != null) {
      ManifestNode value = spelled.child(key);
      return value.isScalar() ? value.asSpelled() : null;
    }
    return text(root.get(key));
  }

  /** A top-level list of scalars as the file spells them, or empty when it is not a list. */
  Optional<List<String>> strings(String key) {
    JsonNode value = root.get(key);
    if (value == null || !value.isArray()) {
      return Optional.empty();
    }
    List<ManifestNode> items = spelled == null ? null : spelled.child(key).items();
    List<String> values = new ArrayList<>();
    // A list item that is no single value (a mapping, a list, null) is the parser's to refuse.
    for (int i = 0; i < value.size(); i++) {
      JsonNode item = value.get(i);
      if (!item.isValueNode() || item.isNull()) {
        values.add(item.toString());
      } else {
        values.add(items != null ? items.get(i).asSpelled() : item.asText());
      }
    }
    return Optional.of(values);
  }

  static String text(JsonNode node) {
    return node != null && node.isValueNode() && !node.isNull() ? node.asText() : null;
  }

  /** True when the top-level {@code key} is there with a value other than null. */
  boolean present(String key) {
    JsonNode value = root.get(key);
    return value != null && !value.isNull();
  }

  /** True only for a top-level {@code key: true}. */
  boolean isTrue(String key) {
    JsonNode value = root.get(key);
    return value != null && value.isBoolean() && value.booleanValue();
  }

  /** True when {@code key} is present with a value that is not null, empty or an empty list. */
  boolean hasValue(String key) {
    JsonNode value = root.get(key);
    if (value == null || value.isNull()) {
      return false;
    }
    return value.isContainerNode() ? !value.isEmpty() : !value.asText().isBlank();
  }

  /** A job's mode as written (default overwrite), or empty when it is not a mode. */
  Optional<WriteMode> mode() {
    String text = text("mode");
    if (text == null) {
      return root.has("mode") ? Optional.empty() : Optional.of(WriteMode.OVERWRITE);
    }
    for (WriteMode mode : WriteMode.values()) {
      if (mode.text().equals(text.toLowerCase(Locale.ROOT))) {
        return Optional.of(mode);
      }
    }
    return Optional.empty();
  }

  /** The line a finding about a job's mode goes to: {@code mode:}, else {@code job:}. */
  int modeLine() {
    return root.has("mode") ? line("mode") : line("job");
  }

  /** A job's slice column as written, or null. */
  String sliceColumn() {
    JsonNode slice = root.get("slice");
    if (slice == null) {
      return null;
    }
    if (spelled != null) {
      ManifestNode column = spelled.child("slice").child("column");
      return column.isScalar() ? column.asSpelled() : null;
    }
    return text(slice.get("column"));
  }

  /** A job's query, or null when absent or blank. */
  String query() {
    String query = text("query");
    return query == null || query.isBlank() ? null : query;
  }

  Optional<TableSpec> tableSpec() {
    return spec instanceof TableSpec table ? Optional.of(table) : Optional.empty();
  }
}
