package dev.floe.catalog.config;

import java.io.Serializable;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Which Iceberg catalog to use and its properties: everything needed to open the same catalog in
 * the CLI, in Flink SQL and inside the committer on a TaskManager (hence serializable).
 *
 * @param name the catalog's name in Flink SQL
 * @param type embedded, jdbc, rest, hadoop or glue
 * @param properties Iceberg catalog properties, including {@code catalog-impl}
 * @param createsHome whether opening an embedded catalog may create its Floe home when it holds
 *     none yet (a hadoop catalog its local warehouse folder); false for commands that only use what
 *     exists ({@link #existingHomeOnly})
 */
public record CatalogConfig(
    String name, String type, Map<String, String> properties, boolean createsHome)
    implements Serializable {

  private static final Set<String> NOT_CREDENTIALS =
      Set.of("client.credentials-provider", "token-refresh-enabled", "token-exchange-enabled");

  public CatalogConfig {
    properties = new TreeMap<>(properties);
  }

  /** A configuration whose embedded catalog is created when its Floe home holds none yet. */
  public CatalogConfig(String name, String type, Map<String, String> properties) {
    this(name, type, properties, true);
  }

  /**
   * The same catalog, for a command that only uses what exists: opening it refuses a Floe home that
   * holds no embedded catalog instead of creating one ({@link Catalogs#prepare}).
   */
  public CatalogConfig existingHomeOnly() {
    return new CatalogConfig(name, type, properties, false);
  }

  /** Properties with secret values masked: the only form that may reach a log or a message. */
  public Map<String, String> redactedProperties() {
    return properties.entrySet().stream()
        .collect(
            Collectors.toMap(
                Map.Entry::getKey,
                e -> redact(e.getKey(), e.getValue()),
                (a, b) -> a,
                TreeMap::new));
  }

  /**
   * True for properties whose value must not be shown. Errs on the side of hiding: besides the
   * obvious names, any key ending in {@code key} (S3 SSE-C {@code s3.sse.key}, ADLS {@code
   * adls.auth.shared-key.account.key}) and REST {@code header.authorization}.
   */
  public static boolean isSecret(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    return k.contains("secret")
        || k.contains("password")
        || k.contains("token")
        || k.contains("credential")
        || k.contains("session-key")
        || k.contains("authorization")
        || k.endsWith("key");
  }

  /**
   * True for a property that must never come from a file: a secret ({@link #isSecret}) or an access
   * key id. Settings that only say how to find credentials ({@code client.credentials-provider},
   * the REST catalog's {@code token-*-enabled}) are not credentials.
   */
  public static boolean isCredential(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    if (NOT_CREDENTIALS.contains(k) || k.startsWith("client.credentials-provider.")) {
      return false;
    }
    return isSecret(k) || k.contains("access-key-id") || k.contains("access_key_id");
  }

  /** True for a value, e.g. a JDBC or HTTP uri, that carries a password or a user:password@. */
  public static boolean carriesCredential(String value) {
    return Redaction.carriesCredential(value);
  }

  /** The value as logs and messages may show it. */
  static String redact(String key, String value) {
    return isSecret(key) ? Redaction.MASK : Redaction.maskUriCredentials(value);
  }

  @Override
  public String toString() {
    return "CatalogConfig{name="
        + name
        + ", type="
        + type
        + ", properties="
        + redactedProperties()
        + "}";
  }
}
