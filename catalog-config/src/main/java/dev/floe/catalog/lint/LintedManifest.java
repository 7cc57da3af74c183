package dev.floe.catalog.lint;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.spec.TableSpec;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * One manifest as lint sees it: the YAML tree as written (so rules still run when the parser
 * refuses the file), where each key is, and what the project's parser made of it.
 *
 * @param path the file
 * @param file the file as printed in findings
 * @param kind job, table or backfill
 * @param root the YAML tree, as the parsers read it
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
    KeyLines lines,
    Object spec,
    ParserRefusal refusal) {

  int line(String keyPath) {
    return lines.line(keyPath);
  }

  boolean is(ManifestKind expected) {
    return kind == expected;
  }

  /** A top-level scalar as text, or null when absent or not a scalar. */
  String text(String key) {
    return text(root.get(key));
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
    return slice == null ? null : text(slice.get("column"));
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
