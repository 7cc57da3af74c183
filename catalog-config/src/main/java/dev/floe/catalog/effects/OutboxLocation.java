package dev.floe.catalog.effects;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogOptions;
import dev.floe.catalog.config.Redaction;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Which database holds a catalog's outbox: {@code floe.outbox.uri} when set, else the JDBC
 * catalog's own database (the embedded SQLite file, or the jdbc catalog's PostgreSQL). Catalogs
 * without a database (rest, hadoop, glue) have no outbox unless {@code floe.outbox.uri} names one.
 */
public final class OutboxLocation {
  /** A JDBC URL for the outbox; wins over the catalog's own database. */
  public static final String URI_PROPERTY = CatalogOptions.OUTBOX_URI_PROPERTY;

  /** Prefix of the driver properties (user, password, ...) that go with {@link #URI_PROPERTY}. */
  public static final String JDBC_PREFIX = CatalogOptions.OUTBOX_JDBC_PREFIX;

  // Iceberg's JdbcCatalog passes its "jdbc."-prefixed properties to the driver; so do we.
  private static final String CATALOG_JDBC_PREFIX = "jdbc.";
  private static final String JDBC_CATALOG = "org.apache.iceberg.jdbc.JdbcCatalog";

  private final String url;
  private final Properties driverProperties;

  private OutboxLocation(String url, Properties driverProperties) {
    this.url = url;
    this.driverProperties = driverProperties;
  }

  /** The outbox database of {@code catalog}, or empty when it has none. */
  public static Optional<OutboxLocation> of(CatalogConfig catalog) {
    Map<String, String> properties = catalog.properties();
    String explicit = properties.get(URI_PROPERTY);
    if (explicit != null && !explicit.isBlank()) {
      return Optional.of(new OutboxLocation(explicit, driverProperties(properties, JDBC_PREFIX)));
    }
    String uri = properties.get("uri");
    if (JDBC_CATALOG.equals(properties.get("catalog-impl"))
        && uri != null
        && uri.startsWith("jdbc:")) {
      return Optional.of(
          new OutboxLocation(uri, driverProperties(properties, CATALOG_JDBC_PREFIX)));
    }
    return Optional.empty();
  }

  /**
   * Whether the outbox lives in the catalog's own database ({@code catalog.db} of an embedded
   * catalog): opening it there creates that database when it is missing.
   */
  public static boolean inCatalogDatabase(CatalogConfig catalog) {
    String explicit = catalog.properties().get(URI_PROPERTY);
    return explicit == null || explicit.isBlank();
  }

  /** The JDBC URL; may hold credentials, so messages use {@link #describe()}. */
  String url() {
    return url;
  }

  Properties driverProperties() {
    Properties copy = new Properties();
    copy.putAll(driverProperties);
    return copy;
  }

  /**
   * The URL for messages: without its query string (where a password could be) and with the
   * password of a {@code user:password@} masked.
   */
  public String describe() {
    int query = url.indexOf('?');
    return Redaction.maskUriCredentials(query < 0 ? url : url.substring(0, query) + "?...");
  }

  @Override
  public String toString() {
    return describe();
  }

  private static Properties driverProperties(Map<String, String> properties, String prefix) {
    Properties driver = new Properties();
    properties.forEach(
        (key, value) -> {
          if (key.startsWith(prefix)) {
            driver.setProperty(key.substring(prefix.length()), value);
          }
        });
    return driver;
  }
}
