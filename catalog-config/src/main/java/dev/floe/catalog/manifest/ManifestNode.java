package dev.floe.catalog.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.Shown;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import java.util.regex.Pattern;

/**
 * A strict view of one YAML mapping in a manifest file. Every error names the file and the key
 * path, because an operator reading "unknown key" at 02:00 needs to know where to look.
 */
public final class ManifestNode {
  private final String source;
  private final String path;
  private final JsonNode node;
  private final String pointer;
  private final Map<String, String> scalars;

  /** A whole number as a person reads it: YAML 1.1's octal, hex and digit groups are not. */
  private static final Pattern DECIMAL = Pattern.compile("[-+]?(0|[1-9][0-9]*)");

  /**
   * @param scalars every scalar's text as the file spells it, by JSON pointer ({@link Manifests}):
   *     YAML reads an unquoted {@code 010} as 8, {@code yes} as true and {@code
   *     0.123456789012345678} as a double, and the tree keeps only that
   */
  ManifestNode(String source, JsonNode node, Map<String, String> scalars) {
    this(source, "", node, "", scalars);
  }

  private ManifestNode(
      String source, String path, JsonNode node, String pointer, Map<String, String> scalars) {
    this.source = source;
    this.path = path;
    this.node = node;
    this.pointer = pointer;
    this.scalars = scalars;
  }

  /** Where this node came from, e.g. {@code jobs/fact_orders.yaml}. */
  public String source() {
    return source;
  }

  /** The key path of this node inside its file, e.g. {@code checks[1].row_count}. */
  public String path() {
    return path;
  }

  public boolean isMapping() {
    return node.isObject();
  }

  public boolean isSequence() {
    return node.isArray();
  }

  public boolean isScalar() {
    return node.isValueNode() && !node.isNull();
  }

  /** Fails, naming the key and the file, when the mapping has a key outside {@code allowed}. */
  public ManifestNode requireOnlyKeys(Set<String> allowed) {
    requireMapping();
    Iterator<String> names = node.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!allowed.contains(name)) {
        String closest = closest(name, allowed);
        throw error(
            "unknown key '%s' (allowed: %s)%s",
            name,
            String.join(", ", new TreeSet<>(allowed)),
            closest == null ? "" : "; did you mean '" + closest + "'?");
      }
    }
    return this;
  }

  /**
   * A copy of this tree without the keys {@code drop} accepts, each given the key path of its
   * mapping ({@code ""} at the top, {@code effects[0].webhook}, as {@link #path()} writes it) and
   * its name; every other value keeps its spelling. For {@code floe lint}, which reports unknown
   * keys itself and parses the rest of the file.
   */
  public ManifestNode without(BiPredicate<String, String> drop) {
    JsonNode copy = node.deepCopy();
    strip(copy, path, drop);
    return new ManifestNode(source, path, copy, pointer, scalars);
  }

  private static void strip(JsonNode node, String path, BiPredicate<String, String> drop) {
    if (node instanceof ObjectNode mapping) {
      List<String> dropped = new ArrayList<>();
      mapping
          .fields()
          .forEachRemaining(
              field -> {
                if (drop.test(path, field.getKey())) {
                  dropped.add(field.getKey());
                } else {
                  strip(field.getValue(), childPath(path, field.getKey()), drop);
                }
              });
      mapping.remove(dropped);
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        strip(node.get(i), path + "[" + i + "]", drop);
      }
    }
  }

  public ManifestNode requireMapping() {
    if (!node.isObject()) {
      throw error("expected a mapping, got %s", describe(node));
    }
    return this;
  }

  public boolean has(String key) {
    JsonNode child = node.get(key);
    return child != null && !child.isNull();
  }

  /** The child node under {@code key}; a missing key is an error. */
  public ManifestNode required(String key) {
    if (!has(key)) {
      throw error("missing required key '%s'", key);
    }
    return child(key);
  }

  /**
   * The child node under {@code key}, which may be missing (then {@link #isPresent()} is false).
   */
  public ManifestNode child(String key) {
    JsonNode child = node.get(key);
    return new ManifestNode(
        source,
        childPath(key),
        child == null ? MissingNode.getInstance() : child,
        childPointer(key),
        scalars);
  }

  public boolean isPresent() {
    return !node.isMissingNode() && !node.isNull();
  }

  /**
   * The text under {@code key} {@linkplain #asSpelled() as the file spells it}; a missing key is an
   * error. Every value Floe uses as text (a name, an id, a column, a path, SQL) is read this way:
   * YAML 1.1 would read {@code job: 0755} as 493 and {@code backfill: 2026_01} as 202601.
   */
  public String requiredString(String key) {
    return required(key).asSpelled();
  }

  /** As {@link #requiredString}, or {@code defaultValue} when the key is missing. */
  public String optionalString(String key, String defaultValue) {
    return has(key) ? child(key).asSpelled() : defaultValue;
  }

  /**
   * As {@link #requiredString}, for a name Floe shows and records ({@code what}: {@code job name}):
   * refused when blank or as {@link NameText} refuses a name.
   */
  public String requiredName(String key, String what) {
    String name = requiredString(key);
    ManifestNode node = child(key);
    if (NameText.isBlank(name)) {
      throw node.error("expected a %s, got '%s'", what, Shown.value(name));
    }
    NameText.problem(name)
        .ifPresent(
            problem -> {
              throw node.error("%s '%s' %s", what, Shown.value(name), problem);
            });
    return name;
  }

  public boolean optionalBoolean(String key, boolean defaultValue) {
    if (!has(key)) {
      return defaultValue;
    }
    JsonNode value = node.get(key);
    if (!value.isBoolean()) {
      throw child(key).error("expected true or false, got %s", describe(value));
    }
    return value.booleanValue();
  }

  /**
   * This scalar as text, as YAML reads it ({@code yes} is {@code true}, {@code 010} is {@code 8});
   * a mapping or a sequence is an error. Only for a value Floe reads as a number or compares with
   * YAML's reading (a table property Iceberg parses); a value used as text (a name, an id, a
   * column, a path, SQL, a header) is read {@linkplain #asSpelled() as spelled}, as {@link
   * #requiredString}, {@link #optionalString} and {@link #strings} read it.
   */
  public String asText() {
    if (!isScalar()) {
      throw error("expected a single value, got %s", describe(node));
    }
    return node.asText();
  }

  /**
   * This scalar's text as the file spells it ({@code 010}, {@code yes}, {@code
   * 0.123456789012345678}), for values compared as text or parsed by their own type later (an
   * {@code accepted_values} list), where YAML's reading as a number or boolean would change them; a
   * mapping or a sequence is an error.
   */
  public String asSpelled() {
    String read = asText();
    String spelled = node.isNull() ? null : scalars.get(pointer);
    return spelled != null ? spelled : read;
  }

  /**
   * This scalar as a whole number written in decimal digits. YAML 1.1, as the tree reads it, takes
   * {@code 010} for octal 8, {@code 0x10} for 16 and {@code 1_000} for 1000: a count or a
   * parallelism spelled so is refused rather than read as another number than the one a person
   * sees.
   */
  public long asLong() {
    if (!node.isIntegralNumber()) {
      throw error("expected a whole number, got %s", describe(node));
    }
    String spelled = asSpelled();
    if (!DECIMAL.matcher(spelled).matches()) {
      throw error(
          "expected a whole number in decimal digits without leading zeros, got %s (YAML reads"
              + " it as %s)",
          spelled, node.asText());
    }
    if (!node.canConvertToLong()) {
      // longValue() would wrap around: 2^64 + 1 would be read as 1.
      throw error(
          "expected a whole number between %d and %d, got %s",
          Long.MIN_VALUE, Long.MAX_VALUE, node.asText());
    }
    return node.longValue();
  }

  /** This sequence's items; a single scalar is read as a one-item list for convenience. */
  public List<ManifestNode> items() {
    List<ManifestNode> items = new ArrayList<>();
    if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        items.add(
            new ManifestNode(
                source, path + "[" + i + "]", node.get(i), pointer + "/" + i, scalars));
      }
    } else if (isScalar()) {
      items.add(this);
    } else {
      throw error("expected a list, got %s", describe(node));
    }
    return items;
  }

  /** This sequence's items as text, each {@linkplain #asSpelled() as the file spells it}. */
  public List<String> strings() {
    List<String> values = new ArrayList<>();
    for (ManifestNode item : items()) {
      values.add(item.asSpelled());
    }
    return values;
  }

  /** This mapping's entries in file order. */
  public Map<String, ManifestNode> entries() {
    requireMapping();
    Map<String, ManifestNode> entries = new LinkedHashMap<>();
    node.fields()
        .forEachRemaining(
            e ->
                entries.put(
                    e.getKey(),
                    new ManifestNode(
                        source,
                        childPath(e.getKey()),
                        e.getValue(),
                        childPointer(e.getKey()),
                        scalars)));
    return entries;
  }

  /** An input error that names the file and this node's key path. */
  public InvalidInputException error(String format, Object... args) {
    String where = path.isEmpty() ? source : source + " at '" + path + "'";
    return new InvalidInputException("Cannot read " + where + ": " + String.format(format, args));
  }

  /**
   * The allowed key a typo most likely meant: at most two edits away (a swap of two neighbours is
   * one) and fewer edits than half its length, so a short unknown key suggests nothing; null when
   * none is that close or two are equally close. Lint's unknown-key rule suggests the same.
   */
  public static String closest(String name, Iterable<String> allowed) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    boolean tie = false;
    for (String candidate : allowed) {
      int distance = editDistance(name.toLowerCase(Locale.ROOT), candidate);
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
        tie = false;
      } else if (distance == bestDistance) {
        tie = true;
      }
    }
    return best != null && !tie && bestDistance <= 2 && bestDistance * 2 < name.length()
        ? best
        : null;
  }

  /** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
  private static int editDistance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }

  private String childPointer(String key) {
    return pointer + "/" + key.replace("~", "~0").replace("/", "~1");
  }

  private String childPath(String key) {
    return childPath(path, key);
  }

  private static String childPath(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  private static String describe(JsonNode value) {
    if (value == null || value.isMissingNode()) {
      return "nothing";
    } else if (value.isObject()) {
      return "a mapping";
    } else if (value.isArray()) {
      return "a list";
    } else if (value.isNull()) {
      return "null";
    }
    return "'" + value.asText() + "'";
  }
}
