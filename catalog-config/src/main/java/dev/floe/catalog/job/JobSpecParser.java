package dev.floe.catalog.job;

import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.effects.EffectTemplate;
import dev.floe.catalog.manifest.ManifestNode;
import dev.floe.catalog.manifest.Manifests;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads job manifests, whose keys are declared in {@link JobManifestKeys}. Unknown keys are errors
 * naming key and file.
 */
public final class JobSpecParser {
  // Accepted keys come from the documented declarations, never from a second list here.
  private static final Set<String> KEYS = JobManifestKeys.GROUP.keysUnder("");
  private static final Set<String> SLICE_KEYS = JobManifestKeys.GROUP.keysUnder("slice");
  private static final Set<String> CHECKS = JobManifestKeys.GROUP.keysUnder("checks[]");
  private static final Set<String> ROW_COUNT_KEYS =
      JobManifestKeys.GROUP.keysUnder("checks[].row_count");
  private static final Set<String> ACCEPTED_VALUES_KEYS =
      JobManifestKeys.GROUP.keysUnder("checks[].accepted_values");

  private JobSpecParser() {}

  public static JobSpec load(Path file) {
    Manifests.Loaded loaded = Manifests.load(file, "job manifest");
    return parse(loaded.root(), loaded.text());
  }

  public static JobSpec parse(ManifestNode root, String text) {
    root.requireOnlyKeys(KEYS);
    String job = root.requiredName("job", "job name");
    String target = Catalogs.tableName(root.required("target"));
    WriteMode mode =
        WriteMode.parse(
            root.optionalString("mode", JobManifestKeys.MODE.defaultValue()), root.source());
    String sliceColumn = sliceColumn(root, mode);
    String query = root.requiredString("query");
    if (query.isBlank()) {
      throw root.child("query").error("the query is empty");
    }
    int secondStatement = QueryText.secondStatementLine(query);
    if (secondStatement > 0) {
      throw root.child("query")
          .error(
              "the query must be one SELECT statement; a second statement starts on line %d of"
                  + " the query",
              secondStatement);
    }
    // As floe run binds them, so that lint, verify, k8s render and a backfill's plan refuse the
    // same query before any run (lint passed a query naming :slice_date).
    for (String parameter : QueryText.parameters(query)) {
      if (!parameter.equals(QueryText.SLICE_START) && !parameter.equals(QueryText.SLICE_END)) {
        throw root.child("query")
            .error(
                "unknown parameter ':%s' (available: :%s, :%s)",
                parameter, QueryText.SLICE_START, QueryText.SLICE_END);
      }
      if (sliceColumn == null) {
        throw root.child("query")
            .error(
                "the query uses :%s, but the job has no slice (add slice: {column: ...} to the"
                    + " manifest and pass --slice)",
                parameter);
      }
    }
    long parallelism = root.has("parallelism") ? root.child("parallelism").asLong() : 0;
    if (parallelism < 0 || parallelism > JobSpec.MAX_PARALLELISM) {
      throw root.child("parallelism")
          .error(
              "expected a positive number of at most %d (Flink's most parallel tasks of an"
                  + " operator), got %d",
              JobSpec.MAX_PARALLELISM, parallelism);
    }
    List<String> key = root.has("key") ? nonEmpty(root.child("key")) : List.of();
    String ordering = root.has("ordering") ? root.requiredString("ordering") : null;
    boolean deleteMissing = root.optionalBoolean("delete_missing", false);
    boolean allowEmpty = root.optionalBoolean("allow_empty", false);
    requireModeKeys(root, mode, sliceColumn, deleteMissing);
    return new JobSpec(
        job,
        target,
        mode,
        sliceColumn,
        query,
        key,
        ordering,
        deleteMissing,
        allowEmpty,
        parseChecks(root.child("checks")),
        root.optionalBoolean(
            "allow_nondeterministic",
            Boolean.parseBoolean(JobManifestKeys.ALLOW_NONDETERMINISTIC.defaultValue())),
        (int) parallelism,
        EffectSpecParser.parse(root.child("effects"), EffectTemplate.RUN_VARIABLES),
        root.has("timeout") ? timeout(root.child("timeout")) : null,
        root.source(),
        text);
  }

  /** {@code timeout: PT30M}: refused, naming key, file and value, unless a positive duration. */
  private static Timeout timeout(ManifestNode node) {
    String text = node.asText();
    try {
      return new Timeout(Timeout.parseDuration(text), text.trim(), "timeout in " + node.source());
    } catch (IllegalArgumentException e) {
      throw node.error("'%s' is not a timeout: %s", text, e.getMessage());
    }
  }

  /** The slice column: required to overwrite, optional for keyed modes, refused for swap. */
  private static String sliceColumn(ManifestNode root, WriteMode mode) {
    if (!root.has("slice")) {
      if (mode == WriteMode.OVERWRITE) {
        throw root.error(
            "missing required key 'slice': an overwrite replaces one slice (use mode: swap to"
                + " replace a whole table)");
      }
      return null;
    }
    if (mode == WriteMode.SWAP) {
      throw root.child("slice")
          .error("mode swap replaces the whole table, so it takes no slice (use mode: overwrite)");
    }
    ManifestNode slice = root.required("slice").requireOnlyKeys(SLICE_KEYS);
    ManifestNode column = slice.required("column");
    if (!column.isScalar()) {
      throw column.error(
          "a slice is cut on exactly one column, got %s; multi-column slices are not supported",
          column.isSequence() ? column.strings() : "a mapping");
    }
    return column.asSpelled();
  }

  /** Keys that only mean something in one mode are refused elsewhere, not silently ignored. */
  private static void requireModeKeys(
      ManifestNode root, WriteMode mode, String sliceColumn, boolean deleteMissing) {
    if (!mode.isKeyed()) {
      for (String keyed : List.of("key", "ordering")) {
        if (root.has(keyed)) {
          throw root.child(keyed)
              .error(
                  "'%s' applies to modes merge and insert-if-absent, not %s", keyed, mode.text());
        }
      }
    }
    if (mode == WriteMode.MERGE && !root.has("ordering")) {
      throw root.error(
          "missing required key 'ordering' for mode merge: the column whose greater value wins"
              + " (e.g. updated_at), so that replaying an older batch changes nothing");
    }
    if (root.has("delete_missing") && mode != WriteMode.MERGE) {
      throw root.child("delete_missing")
          .error("'delete_missing' applies to mode merge, not %s", mode.text());
    }
    if (deleteMissing && sliceColumn == null) {
      throw root.child("delete_missing")
          .error(
              "delete_missing needs a slice: without one, an empty source would delete every row"
                  + " of the table (use mode: swap to rebuild a whole table)");
    }
    if (root.has("allow_empty") && mode != WriteMode.SWAP) {
      throw root.child("allow_empty")
          .error(
              "'allow_empty' applies to mode swap, not %s (an empty slice is always allowed)",
              mode.text());
    }
  }

  private static List<CheckSpec> parseChecks(ManifestNode checks) {
    List<CheckSpec> parsed = new ArrayList<>();
    if (!checks.isPresent()) {
      return parsed;
    }
    for (ManifestNode item : checks.items()) {
      Map<String, ManifestNode> entries = item.requireOnlyKeys(CHECKS).entries();
      if (entries.size() != 1) {
        throw item.error("each check is a mapping with exactly one of %s", CHECKS);
      }
      Map.Entry<String, ManifestNode> entry = entries.entrySet().iterator().next();
      ManifestNode body = entry.getValue();
      parsed.add(
          switch (entry.getKey()) {
            case "not_null" -> new CheckSpec.NotNull(nonEmpty(body));
            case "unique" -> new CheckSpec.Unique(nonEmpty(body));
            case "row_count" -> rowCount(body);
            case "accepted_values" -> acceptedValues(body);
            default -> throw item.error("unknown check '%s'", entry.getKey());
          });
    }
    return parsed;
  }

  private static List<String> nonEmpty(ManifestNode body) {
    List<String> columns = body.strings();
    if (columns.isEmpty()) {
      throw body.error("expected at least one column");
    }
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (String column : columns) {
      // Columns are looked up ignoring case: ORDER_ID is order_id again.
      if (!seen.add(column.toLowerCase(Locale.ROOT))) {
        throw body.error("column '%s' is listed twice", column);
      }
    }
    return columns;
  }

  private static CheckSpec rowCount(ManifestNode body) {
    body.requireOnlyKeys(ROW_COUNT_KEYS);
    Long min = body.has("min") ? body.child("min").asLong() : null;
    Long max = body.has("max") ? body.child("max").asLong() : null;
    if (min == null && max == null) {
      throw body.error("expected min, max or both (a row count without them checks nothing)");
    }
    for (String bound : List.of("min", "max")) {
      if (body.has(bound) && body.child(bound).asLong() < 0) {
        throw body.child(bound)
            .error("expected a row count of 0 or more, got %d", body.child(bound).asLong());
      }
    }
    if (min != null && max != null && min > max) {
      throw body.error("min %d is greater than max %d", min, max);
    }
    return new CheckSpec.RowCount(min, max);
  }

  private static CheckSpec acceptedValues(ManifestNode body) {
    body.requireOnlyKeys(ACCEPTED_VALUES_KEYS);
    // Compared as values of the column's type later: as spelled, not as YAML types them.
    List<String> values = body.required("values").strings();
    if (values.isEmpty()) {
      throw body.child("values").error("expected at least one value");
    }
    return new CheckSpec.AcceptedValues(body.requiredString("column"), values);
  }
}
