package dev.floe.catalog.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.effects.EffectTemplate;
import dev.floe.catalog.effects.EnvReferences;
import dev.floe.catalog.manifest.ManifestNode;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a list of webhook effects: a job manifest's {@code effects}, or any other manifest's list
 * with the same keys (a backfill's {@code on_backfill_done}). Everything that can be checked before
 * a run is checked here, so a typo never surfaces after a commit.
 */
public final class EffectSpecParser {
  private static final Set<String> EFFECT_KEYS = JobManifestKeys.GROUP.keysUnder("effects[]");
  private static final Set<String> WEBHOOK_KEYS =
      JobManifestKeys.GROUP.keysUnder("effects[].webhook");
  private static final Pattern EFFECT_NAME = Pattern.compile("[A-Za-z0-9_.-]+");
  private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
  // java.net.http refuses to set these itself; say so when the manifest is read, not when sending.
  private static final Set<String> RESTRICTED_HEADERS =
      Set.of("connection", "content-length", "expect", "host", "upgrade");
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final int MAX_ATTEMPTS_LIMIT = 100;

  private EffectSpecParser() {}

  /**
   * @param list the effects' node (may be absent: no effects)
   * @param variables the names a body may reference, e.g. {@link EffectTemplate#RUN_VARIABLES}
   */
  public static List<EffectSpec> parse(ManifestNode list, List<String> variables) {
    List<EffectSpec> effects = new ArrayList<>();
    if (!list.isPresent()) {
      return effects;
    }
    Set<String> names = new HashSet<>();
    for (ManifestNode item : list.items()) {
      EffectSpec effect = parseOne(item.requireOnlyKeys(EFFECT_KEYS), variables);
      if (!names.add(effect.name())) {
        throw item.child("name").error("effect name '%s' is used twice", effect.name());
      }
      effects.add(effect);
    }
    return effects;
  }

  private static EffectSpec parseOne(ManifestNode item, List<String> variables) {
    String name = item.requiredString("name");
    if (!EFFECT_NAME.matcher(name).matches()) {
      throw item.child("name")
          .error("effect name '%s' may hold only letters, digits, '_', '.' and '-'", name);
    }
    ManifestNode webhook = item.required("webhook").requireOnlyKeys(WEBHOOK_KEYS);
    String url = url(webhook.required("url"));
    Map<String, String> headers = headers(webhook.child("headers"));
    String body =
        webhook.has("body")
            ? body(webhook.child("body"), variables)
            : EffectTemplate.defaultBody(variables);
    long maxAttempts =
        item.has("max_attempts")
            ? item.child("max_attempts").asLong()
            : EffectSpec.DEFAULT_MAX_ATTEMPTS;
    if (maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS_LIMIT) {
      throw item.child("max_attempts")
          .error("expected 1 to %d attempts, got %d", MAX_ATTEMPTS_LIMIT, maxAttempts);
    }
    return new EffectSpec(name, url, headers, body, (int) maxAttempts);
  }

  private static String url(ManifestNode node) {
    String url = node.asSpelled();
    requireOnlyEnvReferences(node, url);
    if (url.startsWith("${")) {
      return url; // the whole URL comes from the environment: checked when sending
    }
    try {
      URI uri = URI.create(url.replaceAll("\\$\\{env:[^}]*}", "x"));
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
        throw node.error("expected an http:// or https:// URL with a host, got '%s'", url);
      }
    } catch (IllegalArgumentException e) {
      throw node.error("not a valid URL: '%s'", url);
    }
    return url;
  }

  private static Map<String, String> headers(ManifestNode node) {
    Map<String, String> headers = new LinkedHashMap<>();
    if (!node.isPresent()) {
      return headers;
    }
    for (Map.Entry<String, ManifestNode> entry : node.entries().entrySet()) {
      String name = entry.getKey();
      ManifestNode value = entry.getValue();
      if (!HEADER_NAME.matcher(name).matches()) {
        throw value.error("'%s' is not a valid header name", name);
      }
      if (RESTRICTED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
        throw value.error("header '%s' is set by the HTTP client and cannot be overridden", name);
      }
      String text = value.asSpelled();
      requireOnlyEnvReferences(value, text);
      if (!isValidHeaderText(text.replaceAll("\\$\\{[^}]*}", ""))) {
        // Not quoted either: HTTP would refuse the value, and it may hold a token.
        throw value.error(
            "header '%s' holds a line break, a control character or a character above U+00FF,"
                + " which HTTP refuses",
            name);
      }
      if (CatalogConfig.isSecret(name) && !EnvReferences.hasAny(text)) {
        // The value is deliberately not quoted: it may be the very token that must not be here.
        throw value.error(
            "header '%s' looks secret, so its value must come from the environment, e.g."
                + " 'Bearer ${env:BI_TOKEN}'; a manifest never holds a token",
            name);
      }
      headers.put(name, text);
    }
    return headers;
  }

  private static String body(ManifestNode node, List<String> variables) {
    String body = node.asSpelled();
    for (String reference : EffectTemplate.references(body)) {
      if (EnvReferences.isEnvReference(reference)) {
        throw node.error(
            "'${%s}': the body is kept in the outbox, so it cannot reference the environment"
                + " (put secrets in headers)",
            reference);
      }
      if (!variables.contains(reference)) {
        throw node.error(
            "unknown variable '${%s}' (known: %s)", reference, String.join(", ", variables));
      }
    }
    if (body.isBlank()) {
      throw node.error("the body is empty (leave 'body' out to send every variable)");
    }
    // Filled with text and then with numbers: a reference outside quotes must give valid JSON
    // whatever its value is.
    for (Object sample : List.of("x", 1L)) {
      Map<String, Object> values = new HashMap<>();
      variables.forEach(v -> values.put(v, sample));
      try {
        JSON.readTree(EffectTemplate.renderJson(body, values));
      } catch (JsonProcessingException e) {
        throw node.error("not valid JSON once filled in: %s", e.getOriginalMessage());
      }
    }
    return body;
  }

  /** What java.net.http accepts in a header value: visible ASCII, space, tab, obs-text. */
  private static boolean isValidHeaderText(String text) {
    return text.chars().allMatch(c -> c == '\t' || (c >= 0x20 && c != 0x7f && c <= 0xff));
  }

  private static void requireOnlyEnvReferences(ManifestNode node, String text) {
    for (String reference : EffectTemplate.references(text)) {
      if (!EnvReferences.isEnvReference(reference)) {
        throw node.error("'${%s}': only ${env:NAME} references are allowed here", reference);
      }
    }
  }
}
