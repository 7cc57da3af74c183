package dev.floe.catalog.spec;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.Shown;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiFunction;
import org.apache.iceberg.TableProperties;

/**
 * Refuses to write a table whose Iceberg properties hold a value Iceberg cannot parse, set outside
 * {@code floe tables apply} (which refuses such values: {@link TableSpecParser}). Iceberg reads
 * some of them only while it builds the snapshot, after every data file was written: the commit
 * would fail then, with the files left behind, and a parse error mistaken for a lost answer. And
 * refuses to give a table such values outside {@code floe tables apply} ({@link #requireSettable}).
 */
public final class WritableProperties {
  private WritableProperties() {}

  /**
   * @param action what is refused, for the message ({@code run fact_orders_daily})
   * @param table the table's name
   * @param properties its properties
   * @throws InvalidInputException naming the first property (by name) Iceberg cannot parse
   */
  public static void require(String action, String table, Map<String, String> properties) {
    firstProblem(properties, IcebergPropertyValues::failure)
        .ifPresent(
            problem -> {
              throw InvalidInputException.of(
                  "Cannot %s: property %s of %s: %s; set a valid value in the table's spec and run"
                      + " `floe tables apply`",
                  action, problem.property(), table, problem.reason());
            });
  }

  /**
   * Refuses to give a table, outside {@code floe tables apply} (a {@code CREATE TABLE} or {@code
   * ALTER TABLE ... SET} of {@code floe sql}), a key Floe writes itself or Iceberg reserves, a key
   * Iceberg's Flink catalog takes as a command (a rollback, a cherry-pick, a move), or a value
   * {@code floe tables apply} refuses in a spec too ({@link IcebergPropertyValues#problem}): one
   * Iceberg cannot parse, which would leave a table nobody can write ({@link #require}), or a
   * boolean it would misread.
   *
   * @param action what is refused, for the message ({@code run SQL statement 1 (line 1 of ...)})
   * @param table the table's name
   * @param properties the properties the table would be given (not those it keeps)
   * @param created whether a statement creates the table (its {@code LIKE} may have copied them)
   * @throws InvalidInputException naming the first such key (by name), else the first such value
   */
  public static void requireSettable(
      String action, String table, Map<String, String> properties, boolean created) {
    for (Map.Entry<String, String> property : new TreeMap<>(properties).entrySet()) {
      keyProblem(property.getKey(), property.getValue(), created)
          .ifPresent(
              problem -> {
                throw InvalidInputException.of(
                    "Cannot %s: property %s of %s %s%s",
                    action,
                    property.getKey(),
                    table,
                    problem,
                    // Keys a table can hold, which a LIKE may have copied from it.
                    created
                            && (isFloeKey(property.getKey())
                                || misspeltKey(property.getKey()).isPresent())
                        ? " (CREATE TABLE ... LIKE copies them unless EXCLUDING OPTIONS)"
                        : "");
              });
    }
    firstProblem(properties, IcebergPropertyValues::problem)
        .ifPresent(
            problem -> {
              throw InvalidInputException.of(
                  "Cannot %s: property %s of %s: %s",
                  action, problem.property(), table, problem.reason());
            });
  }

  /**
   * Refuses to remove from a table, outside {@code floe tables apply} (an {@code ALTER TABLE ...
   * RESET} of {@code floe sql}), a property Floe writes itself: its policy from the spec, or the
   * seal {@code floe late apply} moves. A key Iceberg reserves ({@code format-version}, {@code
   * uuid}, ...) is refused too: Iceberg keeps it in the table's metadata rather than among its
   * properties, so it would remove nothing, and say so to nobody. (The keys its Flink catalog takes
   * as commands are commands only in a {@code SET}: a {@code RESET} removes them as plain
   * properties, which another tool may have set.)
   *
   * @throws InvalidInputException naming the first such property
   */
  public static void requireRemovable(String action, String table, Iterable<String> properties) {
    for (String property : properties) {
      // Exactly the keys Floe writes: another tool's FLOE.x or floe.note, like its Location
      // (Iceberg's Flink catalog takes that as a command only in a SET), is a plain property a
      // RESET removes.
      if (FloeTableProperties.managedFromSpec(property)
          || property.equals(FloeTableProperties.SEALED_THROUGH)) {
        throw InvalidInputException.of(
            "Cannot %s: property %s of %s %s", action, property, table, floeOwn(property));
      }
      if (TableProperties.RESERVED_PROPERTIES.contains(property)) {
        throw InvalidInputException.of(
            "Cannot %s: property %s of %s cannot be reset: Iceberg keeps it in the table's"
                + " metadata, not among its properties, so a RESET would change nothing",
            action, property, table);
      }
    }
  }

  /**
   * Whether {@code property} lies under {@code floe.}, in any case: Floe keeps that prefix for its
   * own keys ({@code FLOE.x} would be a key of its own, which Floe never reads nor removes).
   */
  public static boolean isFloeKey(String property) {
    return property.regionMatches(true, 0, FLOE_PREFIX, 0, FLOE_PREFIX.length());
  }

  private static final String FLOE_PREFIX = "floe.";

  /**
   * Why {@code property} may not be set outside {@code floe tables apply} whatever its value, or
   * empty: a key under {@code floe.}, one Iceberg derives from the table's metadata ({@code
   * format-version}, which chooses and upgrades the format, aside), or one Iceberg would keep as a
   * key of its own ({@link #misspeltKey}). Iceberg's Flink catalog takes three more keys, in any
   * case, as commands: {@code current-snapshot-id} rolls the table back (leaving the snapshots
   * after it to expiry: {@code floe rollback} tags them), {@code cherry-pick-snapshot-id} publishes
   * a snapshot, and {@code location} of an existing table moves it (a new table may be given one).
   */
  private static Optional<String> keyProblem(String property, String value, boolean created) {
    if (isFloeKey(property)) {
      return Optional.of(floeOwn(property));
    }
    // Iceberg's Flink catalog takes these three keys in any case.
    if (property.equalsIgnoreCase("current-snapshot-id")) {
      return Optional.of(
          "would make snapshot '"
              + Shown.value(value)
              + "' current and leave the snapshots after it to expiry: roll back with `floe"
              + " rollback TABLE --to-snapshot ID`, which tags the head so it can be undone");
    }
    if (property.equalsIgnoreCase("location") && !created) {
      return Optional.of(
          "would move the table to '"
              + Shown.value(value)
              + "': the files it holds stay where they are, outside what `floe maintain --orphans`"
              + " then lists, and it would list the new location, with other files there");
    }
    if (property.equalsIgnoreCase("cherry-pick-snapshot-id")) {
      return Optional.of(
          "would cherry-pick snapshot '"
              + Shown.value(value)
              + "' onto main outside Floe's lineage: publish an audited run with `floe publish`");
    }
    if (TableProperties.RESERVED_PROPERTIES.contains(property)
        && !property.equals(TableProperties.FORMAT_VERSION)) {
      return Optional.of("is reserved by Iceberg and cannot be set");
    }
    // After the commands above, which Iceberg's Flink catalog takes in any case.
    return misspeltKey(property)
        .map(
            problem ->
                property.equalsIgnoreCase(TableProperties.FORMAT_VERSION)
                    ? problem + "; write '" + TableProperties.FORMAT_VERSION + "'"
                    : problem);
  }

  /**
   * Why Iceberg would keep {@code property} as a key of its own, which nothing reads, where its
   * writer meant one Iceberg knows: spaces around the name (Iceberg never trims a key), or a
   * reserved key in another case ({@code Format-Version}).
   *
   * @return the reason, to follow the property's name in a message
   */
  public static Optional<String> misspeltKey(String property) {
    // strip() takes Unicode spaces, trim() control characters: floe.spec-properties is read
    // back trimmed.
    String bare = property.strip().trim();
    if (!bare.equals(property)) {
      return Optional.of(
          "has spaces or control characters around its name: Iceberg would keep it as a"
              + " property of its own, which nothing reads; write '"
              + Shown.value(bare)
              + "'");
    }
    Optional<String> reserved =
        TableProperties.RESERVED_PROPERTIES.stream()
            .filter(key -> key.equalsIgnoreCase(property) && !key.equals(property))
            .findFirst()
            .map(
                key ->
                    "is Iceberg's reserved "
                        + key
                        + " in another case: Iceberg would keep it as a property of its own and"
                        + " change nothing");
    if (reserved.isPresent()) {
      return reserved;
    }
    // Iceberg reads its keys in lower case only: GC.enabled or Write.Parquet.Compression-Codec
    // were kept, and gc stayed enabled, the codec unchanged.
    String lower = property.toLowerCase(Locale.ROOT);
    for (String key : ICEBERG_KEYS) {
      boolean prefix = key.endsWith(".");
      if ((prefix ? lower.startsWith(key) : lower.equals(key))
          && !(prefix ? property.startsWith(key) : property.equals(key))) {
        String meant = prefix ? key + property.substring(key.length()) : key;
        return Optional.of(
            "is Iceberg's "
                + key
                + (prefix ? "..." : "")
                + " in another case: Iceberg reads only '"
                + meant
                + "', so it would keep this one as a property of its own, which nothing reads;"
                + " write '"
                + meant
                + "'");
      }
    }
    return Optional.empty();
  }

  /**
   * The property keys (and key prefixes, ending in {@code .}) Iceberg's {@link TableProperties}
   * declares: its constants whose value reads as a key (lower case, with a {@code .} or {@code -}),
   * not their defaults.
   */
  private static final List<String> ICEBERG_KEYS = icebergKeys();

  private static List<String> icebergKeys() {
    List<String> keys = new ArrayList<>();
    for (Field field : TableProperties.class.getFields()) {
      if (!Modifier.isStatic(field.getModifiers())
          || field.getType() != String.class
          || field.getName().endsWith("_DEFAULT")) {
        continue;
      }
      try {
        String value = (String) field.get(null);
        if (value != null
            && value.matches("[a-z0-9][a-z0-9._-]*")
            && (value.contains(".") || value.contains("-"))) {
          keys.add(value);
        }
      } catch (IllegalAccessException e) {
        // not a public constant: not one a user can mean
      }
    }
    // Longest first, so a key is matched before a shorter prefix of it.
    keys.sort(Comparator.comparingInt(String::length).reversed());
    return List.copyOf(keys);
  }

  private static String floeOwn(String property) {
    if (property.equals(FloeTableProperties.SEALED_THROUGH)) {
      return "is Floe's own: `floe late apply` moves it";
    }
    return FloeTableProperties.managedFromSpec(property)
        ? "is Floe's own (keys under floe.): `floe tables apply` writes them from the table's spec"
        : "lies under floe., which Floe keeps for its own keys";
  }

  private record Problem(String property, String reason) {}

  private static Optional<Problem> firstProblem(
      Map<String, String> properties, BiFunction<String, String, Optional<String>> rule) {
    for (Map.Entry<String, String> property : new TreeMap<>(properties).entrySet()) {
      if (!IcebergPropertyValues.isIcebergProperty(property.getKey())) {
        continue;
      }
      Optional<String> reason = rule.apply(property.getKey(), property.getValue());
      if (reason.isPresent()) {
        return Optional.of(new Problem(property.getKey(), reason.get()));
      }
    }
    return Optional.empty();
  }
}
