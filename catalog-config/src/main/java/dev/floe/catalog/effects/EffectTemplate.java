package dev.floe.catalog.effects;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Fills the {@code ${variable}} references of a JSON body template. A reference inside a JSON
 * string is replaced by the value's escaped text, so a quote or a newline in a value cannot break
 * (or inject into) the JSON; outside a string, a number or boolean is written as is, text as a
 * quoted JSON string and a missing value as {@code null}.
 */
public final class EffectTemplate {
  /** {@code ${name}}; {@code ${env:NAME}} matches too and is told apart by its prefix. */
  static final Pattern REFERENCE = Pattern.compile("\\$\\{([^}]*)}");

  /** The values a job's effects can use: what the run that committed reports. */
  public static final List<String> RUN_VARIABLES =
      List.of(
          "job",
          "target",
          "mode",
          "slice",
          "run_key",
          "run_id",
          "snapshot_id",
          "rows",
          "content_hash");

  private EffectTemplate() {}

  /** The names a template references, in order of appearance (env references included). */
  public static List<String> references(String template) {
    List<String> names = new ArrayList<>();
    Matcher matcher = REFERENCE.matcher(template);
    while (matcher.find()) {
      names.add(matcher.group(1));
    }
    return names;
  }

  /**
   * A body that sends every one of {@code variables} as one JSON object. A snapshot id is sent as a
   * JSON string (DESIGN rule 12): as a number, a receiver that reads JSON numbers as doubles
   * (JavaScript, jq) would round it to another snapshot's id.
   */
  public static String defaultBody(Collection<String> variables) {
    return variables.stream()
        .map(
            v ->
                v.equals("snapshot_id")
                    ? "\"" + v + "\": \"${" + v + "}\""
                    : "\"" + v + "\": ${" + v + "}")
        .collect(Collectors.joining(", ", "{", "}"));
  }

  /**
   * Fills {@code template} with {@code values}.
   *
   * @throws IllegalArgumentException when a referenced variable has no entry in {@code values}
   */
  public static String renderJson(String template, Map<String, ?> values) {
    StringBuilder out = new StringBuilder(template.length() + 64);
    boolean inString = false;
    boolean escaped = false;
    int i = 0;
    while (i < template.length()) {
      char c = template.charAt(i);
      if (c == '$' && !escaped && template.startsWith("{", i + 1)) {
        int end = template.indexOf('}', i + 2);
        if (end > 0) {
          String name = template.substring(i + 2, end);
          if (!values.containsKey(name)) {
            throw new IllegalArgumentException(
                "Cannot fill the effect body: no value for '${" + name + "}'");
          }
          Object value = values.get(name);
          out.append(inString ? escape(value) : literal(value));
          i = end + 1;
          continue;
        }
      }
      if (inString && escaped) {
        escaped = false;
      } else if (inString && c == '\\') {
        escaped = true;
      } else if (c == '"') {
        inString = !inString;
      }
      out.append(c);
      i++;
    }
    return out.toString();
  }

  private static String escape(Object value) {
    return value == null
        ? ""
        : new String(JsonStringEncoder.getInstance().quoteAsString(String.valueOf(value)));
  }

  private static String literal(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Number || value instanceof Boolean) {
      return value.toString();
    }
    return "\"" + escape(value) + "\"";
  }
}
