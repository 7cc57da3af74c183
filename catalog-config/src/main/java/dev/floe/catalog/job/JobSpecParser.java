package dev.floe.catalog.job;

import dev.floe.catalog.manifest.ManifestNode;
import dev.floe.catalog.manifest.Manifests;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads job manifests (see README, "Job manifest"). Unknown keys are errors naming key and file.
 */
public final class JobSpecParser {
  private static final Set<String> KEYS =
      Set.of(
          "job",
          "description",
          "target",
          "mode",
          "slice",
          "query",
          "checks",
          "allow_nondeterministic",
          "parallelism");
  private static final Set<String> CHECKS =
      Set.of("not_null", "unique", "row_count", "accepted_values");

  private JobSpecParser() {}

  public static JobSpec load(Path file) {
    Manifests.Loaded loaded = Manifests.load(file);
    return parse(loaded.root(), loaded.text());
  }

  public static JobSpec parse(ManifestNode root, String text) {
    root.requireOnlyKeys(KEYS);
    String job = root.requiredString("job");
    String target = root.requiredString("target");
    WriteMode mode = WriteMode.parse(root.optionalString("mode", "overwrite"), root.source());
    ManifestNode slice = root.required("slice").requireOnlyKeys(Set.of("column"));
    ManifestNode column = slice.required("column");
    if (!column.isScalar()) {
      throw column.error(
          "a slice is cut on exactly one column, got %s; multi-column slices are not supported",
          column.isSequence() ? column.strings() : "a mapping");
    }
    String query = root.requiredString("query");
    if (query.isBlank()) {
      throw root.child("query").error("the query is empty");
    }
    long parallelism = root.has("parallelism") ? root.child("parallelism").asLong() : 0;
    if (parallelism < 0 || parallelism > Integer.MAX_VALUE) {
      throw root.child("parallelism").error("expected a positive number, got %d", parallelism);
    }
    return new JobSpec(
        job,
        target,
        mode,
        column.asText(),
        query,
        parseChecks(root.child("checks")),
        root.optionalBoolean("allow_nondeterministic", false),
        (int) parallelism,
        root.source(),
        text);
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
    return columns;
  }

  private static CheckSpec rowCount(ManifestNode body) {
    body.requireOnlyKeys(Set.of("min", "max"));
    Long min = body.has("min") ? body.child("min").asLong() : null;
    Long max = body.has("max") ? body.child("max").asLong() : null;
    if (min != null && max != null && min > max) {
      throw body.error("min %d is greater than max %d", min, max);
    }
    return new CheckSpec.RowCount(min, max);
  }

  private static CheckSpec acceptedValues(ManifestNode body) {
    body.requireOnlyKeys(Set.of("column", "values"));
    List<String> values = body.required("values").strings();
    if (values.isEmpty()) {
      throw body.child("values").error("expected at least one value");
    }
    return new CheckSpec.AcceptedValues(body.requiredString("column"), values);
  }
}
