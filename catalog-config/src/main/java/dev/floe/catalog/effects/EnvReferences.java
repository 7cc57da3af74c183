package dev.floe.catalog.effects;

import dev.floe.catalog.error.InvalidInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ${env:NAME}} references in a webhook's URL and headers. They stay unresolved in manifests,
 * in the outbox and in every message; only the request that is being sent holds the values.
 */
public final class EnvReferences {
  private static final String PREFIX = "env:";
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private EnvReferences() {}

  /** True when {@code reference} (the text inside {@code ${...}}) is a valid env reference. */
  public static boolean isEnvReference(String reference) {
    return reference.startsWith(PREFIX)
        && NAME.matcher(reference.substring(PREFIX.length())).matches();
  }

  /** True when the text holds at least one env reference. */
  public static boolean hasAny(String text) {
    return !names(text).isEmpty();
  }

  /** The variable names {@code text} references, in order. */
  public static List<String> names(String text) {
    List<String> names = new ArrayList<>();
    for (String reference : EffectTemplate.references(text)) {
      if (isEnvReference(reference)) {
        names.add(reference.substring(PREFIX.length()));
      }
    }
    return names;
  }

  /**
   * The text with each env reference replaced by {@code standIn}: what is written literally, for a
   * check that must not take a reference for a value.
   */
  public static String replaceAll(String text, String standIn) {
    Matcher matcher = EffectTemplate.REFERENCE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (matcher.find()) {
      if (isEnvReference(matcher.group(1))) {
        matcher.appendReplacement(out, Matcher.quoteReplacement(standIn));
      }
    }
    matcher.appendTail(out);
    return out.toString();
  }

  /**
   * The text with each reference replaced by its variable's value.
   *
   * @param where what holds the text, for the message, e.g. {@code effect notify_bi header
   *     Authorization}
   * @throws InvalidInputException naming the variable (never a value) when one is not set
   */
  public static String resolve(String text, Map<String, String> environment, String where) {
    Matcher matcher = EffectTemplate.REFERENCE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (matcher.find()) {
      String reference = matcher.group(1);
      if (!isEnvReference(reference)) {
        continue; // validated when the manifest was read; left as it is
      }
      String name = reference.substring(PREFIX.length());
      String value = environment.get(name);
      if (value == null) {
        throw InvalidInputException.of(
            "Cannot send %s: the environment variable %s is not set", where, name);
      }
      matcher.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    matcher.appendTail(out);
    return out.toString();
  }
}
