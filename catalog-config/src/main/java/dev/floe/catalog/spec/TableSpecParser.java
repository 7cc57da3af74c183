package dev.floe.catalog.spec;

import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.Shown;
import dev.floe.catalog.manifest.ManifestNode;
import dev.floe.catalog.manifest.Manifests;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.types.Type;

/**
 * Reads one table spec (YAML, one table per file; keys in {@link TableSpecKeys}) into a {@link
 * TableSpec}. Everything the catalog would reject later (unknown types, partition fields on missing
 * columns, keys on optional columns...) is rejected here, with the file and key path, so {@code
 * floe tables apply} never fails half-way on a spec mistake.
 */
public final class TableSpecParser {
  // Accepted keys come from the documented declarations, never from a second list here.
  private static final Set<String> TABLE_KEYS = TableSpecKeys.GROUP.keysUnder("");
  private static final Set<String> COLUMN_KEYS = TableSpecKeys.GROUP.keysUnder("schema[]");
  private static final Set<String> LATE_DATA_KEYS = TableSpecKeys.GROUP.keysUnder("late_data");
  private static final Set<String> RETENTION_KEYS = TableSpecKeys.GROUP.keysUnder("retention");
  private static final Set<String> MAINTENANCE_KEYS = TableSpecKeys.GROUP.keysUnder("maintenance");
  private static final Pattern SIZE =
      Pattern.compile("(\\d+)\\s*(B|KiB|MiB|GiB|KB|MB|GB)?", Pattern.CASE_INSENSITIVE);
  private static final Pattern TRANSFORM_CALL =
      Pattern.compile("([A-Za-z_]+)\\(\\s*(?:(-?\\d+)\\s*,\\s*)?([^(),\\s]+)\\s*\\)");

  private TableSpecParser() {}

  /** Parses spec text; {@code source} names it in errors (usually the file path). */
  public static TableSpec parse(String source, String text) {
    return parse(Manifests.parse(source, text));
  }

  /**
   * Parses the root mapping of a spec file.
   *
   * @throws InvalidInputException naming the file, the key path and the offending value
   */
  public static TableSpec parse(ManifestNode root) {
    root.requireOnlyKeys(TABLE_KEYS);
    String table = Catalogs.tableName(root.required("table"));
    SpecNames.tableNameProblem(table)
        .ifPresent(
            problem -> {
              throw root.child("table")
                  .error("cannot create table '%s': %s", Shown.value(table), problem);
            });
    List<ColumnSpec> columns = columns(root.required("schema"));
    List<PartitionFieldSpec> partitioning =
        root.has("partition") ? partitioning(root.child("partition"), columns) : List.of();
    List<String> key = root.has("key") ? key(root.child("key"), columns) : List.of();
    Optional<LateDataSpec> lateData =
        root.has("late_data") ? Optional.of(lateData(root.child("late_data"))) : Optional.empty();
    Optional<RetentionSpec> retention =
        root.has("retention") ? Optional.of(retention(root.child("retention"))) : Optional.empty();
    if (lateData.isPresent()
        && retention.isPresent()
        && retention.get().maxAge() != null
        && retention.get().maxAge().compareTo(lateData.get().window()) < 0) {
      ManifestNode maxAge = root.child("retention").child("max_age");
      throw maxAge.error(
          "max_age %s is shorter than late_data.window %s: expiry would remove the loads of"
              + " slices still open for late rows, and `floe late` and `floe report` would no"
              + " longer see those slices; set max_age to at least the window",
          maxAge.asText(), root.child("late_data").child("window").asText());
    }
    Optional<MaintenancePolicy> maintenance =
        root.has("maintenance")
            ? Optional.of(maintenance(root.child("maintenance"), columns))
            : Optional.empty();
    Map<String, String> properties =
        root.has("properties") ? properties(root.child("properties")) : Map.of();
    // Floe's own properties come from the spec's blocks, where their values are checked; set
    // under `properties:` they would pass unchecked and be removed again by the next apply.
    for (String property : properties.keySet()) {
      FloeTableProperties.specKeyOf(property)
          .ifPresent(
              block -> {
                throw root.child("properties")
                    .child(property)
                    .error("property '%s' is Floe's own; set it under `%s:`", property, block);
              });
      if (WritableProperties.isFloeKey(property)) {
        // floe.spec-properties never lists such a key back: no apply would remove it.
        throw root.child("properties")
            .child(property)
            .error("property '%s' lies under floe., which Floe keeps for its own keys", property);
      }
    }

    TableSpec spec =
        new TableSpec(
            table,
            columns,
            partitioning,
            key,
            lateData,
            retention,
            maintenance,
            properties,
            root.source());
    checkIcebergAccepts(spec, root);
    return spec;
  }

  private static List<ColumnSpec> columns(ManifestNode schema) {
    List<ManifestNode> items = schema.items();
    if (items.isEmpty()) {
      throw schema.error("expected at least one column");
    }
    List<ColumnSpec> columns = new ArrayList<>();
    Map<String, String> seen = new HashMap<>();
    for (ManifestNode item : items) {
      item.requireOnlyKeys(COLUMN_KEYS);
      ManifestNode nameNode = item.required("name");
      // As the file spells it: YAML would read a column named on as true, 010 as 8.
      String name = nameNode.asSpelled();
      if (name.isBlank() || name.contains(".")) {
        // '.' separates nested field names in Iceberg, so such a name could not be looked up.
        throw nameNode.error("expected a column name without '.', got '%s'", name);
      }
      SpecNames.columnNameProblem(name)
          .ifPresent(
              problem -> {
                throw nameNode.error("cannot name a column '%s': %s", Shown.value(name), problem);
              });
      // Iceberg's case-insensitive lookups (Flink reads that way) fail on two such names.
      String earlier = seen.putIfAbsent(name.toLowerCase(java.util.Locale.ROOT), item.path());
      if (earlier != null) {
        throw nameNode.error(
            "duplicate column '%s' (already declared at %s; names differing only in case"
                + " collide)",
            name, earlier);
      }
      ManifestNode typeNode = item.required("type");
      Type.PrimitiveType type =
          ColumnTypes.parse(typeNode.asText())
              .orElseThrow(
                  () ->
                      typeNode.error(
                          "unknown type '%s' (expected one of %s, with 1 <= P <= 38 and S <= P)",
                          typeNode.asText(), ColumnTypes.ACCEPTED));
      boolean required = item.optionalBoolean("required", false);
      Optional<String> doc =
          item.has("doc") ? Optional.of(item.child("doc").asSpelled()) : Optional.empty();
      columns.add(new ColumnSpec(name, type, required, doc));
    }
    return columns;
  }

  private static List<PartitionFieldSpec> partitioning(
      ManifestNode partition, List<ColumnSpec> columns) {
    List<PartitionFieldSpec> fields = new ArrayList<>();
    for (ManifestNode item : partition.items()) {
      PartitionFieldSpec field = partitionField(item);
      ColumnSpec column = find(columns, field.sourceColumn());
      if (column == null) {
        throw item.error(
            "unknown column '%s' in partition field '%s' (columns: %s)",
            field.sourceColumn(), item.asSpelled(), names(columns));
      }
      if (!field.appliesTo(column.type())) {
        throw item.error(
            "%s does not apply to column %s of type %s (%s works on %s)",
            field.describe(),
            column.name(),
            ColumnTypes.format(column.type()),
            field.transform().specName(),
            acceptedTypes(field));
      }
      if (fields.stream().anyMatch(f -> f.describe().equals(field.describe()))) {
        throw item.error("duplicate partition field '%s'", field.describe());
      }
      fields.add(field);
    }
    return fields;
  }

  private static PartitionFieldSpec partitionField(ManifestNode item) {
    String text = item.asSpelled().trim();
    if (!text.contains("(") && !text.contains(")") && !text.contains(",")) {
      return PartitionFieldSpec.of(PartitionTransform.IDENTITY, text);
    }
    Matcher call = TRANSFORM_CALL.matcher(text);
    if (!call.matches()) {
      throw item.error(
          "cannot parse partition field '%s' (expected column, day(column), bucket(N, column)..."
              + "; quote fields that hold a comma: \"bucket(16, id)\")",
          text);
    }
    String name = call.group(1).toLowerCase(Locale.ROOT);
    PartitionTransform transform =
        PartitionTransform.fromSpecName(name)
            .orElseThrow(
                () ->
                    item.error(
                        "unknown partition transform '%s' in '%s' (expected identity, year,"
                            + " month, day, hour, bucket(N, column) or truncate(W, column))",
                        name, text));
    String column = call.group(3);
    boolean hasParameter = call.group(2) != null;
    if (transform.takesParameter() != hasParameter) {
      String expected = transform.takesParameter() ? name + "(N, column)" : name + "(column)";
      throw item.error("expected %s, got '%s'", expected, text);
    }
    if (!hasParameter) {
      return PartitionFieldSpec.of(transform, column);
    }
    int parameter;
    try {
      parameter = Integer.parseInt(call.group(2));
    } catch (NumberFormatException e) {
      parameter = 0;
    }
    if (parameter <= 0) {
      throw item.error("expected a positive %s in '%s'", parameterName(transform), text);
    }
    return new PartitionFieldSpec(transform, column, OptionalInt.of(parameter));
  }

  private static String parameterName(PartitionTransform transform) {
    return transform == PartitionTransform.BUCKET ? "bucket count" : "width";
  }

  private static String acceptedTypes(PartitionFieldSpec field) {
    return String.join(
        ", ",
        ColumnTypes.examples().stream()
            .filter(field::appliesTo)
            .map(ColumnTypes::format)
            .map(name -> name.replaceAll("^fixed\\(.*", "fixed(N)"))
            .map(name -> name.replaceAll("^decimal\\(.*", "decimal(P,S)"))
            .toList());
  }

  private static List<String> key(ManifestNode keyNode, List<ColumnSpec> columns) {
    List<String> key = new ArrayList<>();
    for (ManifestNode item : keyNode.items()) {
      String name = item.asSpelled();
      ColumnSpec column = find(columns, name);
      if (column == null) {
        throw item.error("unknown key column '%s' (columns: %s)", name, names(columns));
      }
      if (!column.required()) {
        throw item.error(
            "key column '%s' must be required (set required: true on it): a key cannot be null",
            name);
      }
      Type.TypeID typeId = column.type().typeId();
      if (typeId == Type.TypeID.FLOAT || typeId == Type.TypeID.DOUBLE) {
        throw item.error(
            "key column '%s' cannot be %s: Iceberg keys cannot be float or double",
            name, ColumnTypes.format(column.type()));
      }
      if (key.contains(name)) {
        throw item.error("duplicate key column '%s'", name);
      }
      key.add(name);
    }
    return key;
  }

  private static LateDataSpec lateData(ManifestNode node) {
    node.requireOnlyKeys(LATE_DATA_KEYS);
    Duration window = duration(node.required("window"));
    LateDataSpec.AfterWindow afterWindow = LateDataSpec.AfterWindow.REPORT;
    if (node.has("after_window")) {
      ManifestNode after = node.child("after_window");
      String text = after.asText();
      try {
        afterWindow = LateDataSpec.AfterWindow.valueOf(text.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw after.error("unknown after_window '%s' (expected report or reopen)", text);
      }
    }
    return new LateDataSpec(window, afterWindow);
  }

  private static RetentionSpec retention(ManifestNode node) {
    node.requireOnlyKeys(RETENTION_KEYS);
    Integer keepLast = null;
    if (node.has("keep_last")) {
      ManifestNode keepNode = node.child("keep_last");
      long value = keepNode.asLong();
      if (value < 1 || value > Integer.MAX_VALUE) {
        throw keepNode.error("expected a positive number of snapshots, got %d", value);
      }
      keepLast = (int) value;
    }
    Duration maxAge = node.has("max_age") ? duration(node.child("max_age")) : null;
    if (keepLast == null && maxAge == null) {
      throw node.error("expected keep_last, max_age or both");
    }
    return new RetentionSpec(keepLast, maxAge);
  }

  private static MaintenancePolicy maintenance(ManifestNode node, List<ColumnSpec> columns) {
    node.requireOnlyKeys(MAINTENANCE_KEYS);
    MaintenancePolicy d = MaintenancePolicy.defaults();
    Long target = node.has("target_file_size") ? size(node.child("target_file_size")) : null;
    int minInputFiles = positiveInt(node, "min_input_files", d.minInputFiles());
    if (minInputFiles < MaintenancePolicy.SMALLEST_MIN_INPUT_FILES) {
      throw node.child("min_input_files")
          .error(
              "expected at least %d (compacting one file removes none), got %d",
              MaintenancePolicy.SMALLEST_MIN_INPUT_FILES, minInputFiles);
    }
    int deleteFileThreshold = positiveInt(node, "delete_file_threshold", d.deleteFileThreshold());
    double ratio = d.deletedRowRatio();
    if (node.has("deleted_row_ratio")) {
      ManifestNode ratioNode = node.child("deleted_row_ratio");
      String text = ratioNode.asText();
      try {
        ratio = Double.parseDouble(text);
      } catch (NumberFormatException e) {
        ratio = Double.NaN;
      }
      if (!(ratio > 0 && ratio <= 1)) {
        throw ratioNode.error("expected a ratio in (0, 1], e.g. 0.1, got '%s'", text);
      }
    }
    MaintenancePolicy.Strategy strategy = d.strategy();
    if (node.has("strategy")) {
      ManifestNode strategyNode = node.child("strategy");
      String text = strategyNode.asText();
      strategy =
          MaintenancePolicy.Strategy.parse(text)
              .orElseThrow(
                  () ->
                      strategyNode.error(
                          "unknown strategy '%s' (expected binpack, sort or zorder)", text));
    }
    List<String> zorder = List.of();
    if (node.has("zorder_columns")) {
      ManifestNode zorderNode = node.child("zorder_columns");
      if (strategy != MaintenancePolicy.Strategy.ZORDER) {
        throw zorderNode.error(
            "zorder_columns %s need strategy: zorder (strategy is %s)",
            zorderNode.strings(), strategy.text());
      }
      List<String> names = new ArrayList<>();
      for (ManifestNode item : zorderNode.items()) {
        String name = item.asSpelled();
        ColumnSpec column = find(columns, name);
        if (column == null) {
          throw item.error("unknown z-order column '%s' (columns: %s)", name, names(columns));
        }
        if (!MaintenancePolicy.zorderEncodes(column.type())) {
          throw item.error(
              "z-order column '%s' has type %s, which z-order cannot encode (it encodes %s)",
              name, ColumnTypes.format(column.type()), MaintenancePolicy.ZORDER_TYPES);
        }
        if (names.contains(name)) {
          throw item.error("duplicate z-order column '%s'", name);
        }
        names.add(name);
      }
      zorder = names;
    }
    if (strategy == MaintenancePolicy.Strategy.ZORDER && zorder.isEmpty()) {
      throw node.child("strategy")
          .error("strategy zorder needs zorder_columns, e.g. zorder_columns: [customer_id]");
    }
    int maxManifests = positiveInt(node, "max_manifests", d.maxManifests());
    Duration orphanMinAge = null;
    if (node.has("orphan_min_age")) {
      ManifestNode ageNode = node.child("orphan_min_age");
      orphanMinAge = duration(ageNode);
      if (orphanMinAge.compareTo(MaintenancePolicy.SHORTEST_ORPHAN_MIN_AGE) < 0) {
        throw ageNode.error(
            "orphan_min_age '%s' must be at least %s and longer than the longest job (a running"
                + " job's uncommitted files look like orphans)",
            ageNode.asText(), MaintenancePolicy.SHORTEST_ORPHAN_MIN_AGE);
      }
    }
    return new MaintenancePolicy(
        target,
        minInputFiles,
        deleteFileThreshold,
        ratio,
        strategy,
        zorder,
        maxManifests,
        orphanMinAge,
        Optional.empty());
  }

  private static int positiveInt(ManifestNode parent, String key, int fallback) {
    if (!parent.has(key)) {
      return fallback;
    }
    ManifestNode node = parent.child(key);
    long value = node.asLong();
    if (value < 1 || value > Integer.MAX_VALUE) {
      throw node.error("expected a positive whole number, got %d", value);
    }
    return (int) value;
  }

  private static long size(ManifestNode node) {
    String text = node.asText().trim();
    Matcher matcher = SIZE.matcher(text);
    if (!matcher.matches()) {
      throw node.error("expected a size in bytes, or e.g. 128 MiB, got '%s'", text);
    }
    long unit =
        switch (matcher.group(2) == null ? "b" : matcher.group(2).toLowerCase(Locale.ROOT)) {
          case "kib", "kb" -> 1L << 10;
          case "mib", "mb" -> 1L << 20;
          case "gib", "gb" -> 1L << 30;
          default -> 1L;
        };
    long value;
    try {
      value = Math.multiplyExact(Long.parseLong(matcher.group(1)), unit);
    } catch (ArithmeticException | NumberFormatException e) {
      throw node.error("size '%s' is too large", text);
    }
    if (value < 1) {
      throw node.error("expected a positive size, got '%s'", text);
    }
    return value;
  }

  private static final Duration LONGEST_DURATION = Duration.ofDays(36_500);

  private static Duration duration(ManifestNode node) {
    String text = node.asText();
    Duration duration;
    try {
      duration = Duration.parse(text);
    } catch (DateTimeParseException e) {
      throw node.error(
          "invalid ISO-8601 duration '%s' (expected e.g. P3D or PT6H; weeks, months and years"
              + " have no fixed length, use days)",
          text);
    }
    if (duration.isNegative() || duration.isZero()) {
      throw node.error("expected a positive duration, got '%s'", text);
    }
    if (duration.compareTo(LONGEST_DURATION) > 0) {
      // A slice's end plus a window of billions of days lies beyond the last instant Java has.
      throw node.error("expected at most %s (100 years), got '%s'", "P36500D", text);
    }
    return duration;
  }

  private static Map<String, String> properties(ManifestNode node) {
    Map<String, String> properties = new LinkedHashMap<>();
    node.entries()
        .forEach(
            (name, value) -> {
              if (name.isEmpty()) {
                throw value.error("expected a property name, got ''");
              }
              if (name.contains(",")) {
                // floe.spec-properties lists the spec's keys separated by commas.
                throw value.error("expected a property name without ',', got '%s'", name);
              }
              WritableProperties.misspeltKey(name)
                  .ifPresent(
                      problem -> {
                        throw value.error("property '%s' %s", name, problem);
                      });
              if (name.equals(FloeTableProperties.SPEC_PROPERTIES)) {
                throw value.error(
                    "property '%s' is written by `floe tables apply` itself: it lists the keys"
                        + " of properties:",
                    name);
              }
              if (TableProperties.RESERVED_PROPERTIES.contains(name)) {
                // Iceberg derives these from the metadata itself; Floe creates tables as v2.
                throw value.error("property '%s' is reserved by Iceberg and cannot be set", name);
              }
              // As the file spells it (YAML would store owner.cost-center: 007 as 7), except
              // where Iceberg needs YAML's reading (IcebergPropertyValues#value).
              String text = IcebergPropertyValues.value(name, value.asSpelled(), value.asText());
              IcebergPropertyValues.problem(name, text)
                  .ifPresent(
                      problem -> {
                        throw value.error("%s", problem);
                      });
              properties.put(name, text);
            });
    return properties;
  }

  /** Last line of defence: whatever Iceberg itself refuses, reported against the spec file. */
  private static void checkIcebergAccepts(TableSpec spec, ManifestNode root) {
    try {
      spec.schema();
    } catch (IllegalArgumentException | ValidationException e) {
      throw root.child("key").error("%s", e.getMessage());
    }
    try {
      spec.partitionSpec();
    } catch (IllegalArgumentException | ValidationException e) {
      throw root.child("partition").error("%s", e.getMessage());
    }
  }

  private static ColumnSpec find(List<ColumnSpec> columns, String name) {
    return columns.stream().filter(c -> c.name().equals(name)).findFirst().orElse(null);
  }

  private static String names(List<ColumnSpec> columns) {
    return String.join(", ", columns.stream().map(ColumnSpec::name).toList());
  }
}
