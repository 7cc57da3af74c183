package dev.floe.catalog.config;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.UnreachableException;
import dev.floe.catalog.manifest.ManifestNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.RESTException;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.RESTCatalog;

/** Opens the Iceberg catalog a {@link CatalogConfig} describes. */
public final class Catalogs {

  private Catalogs() {}

  /**
   * Opens the catalog, after {@link #prepare} checked that its servers answer.
   *
   * @throws dev.floe.catalog.error.UnreachableException when S3, the catalog database or the REST
   *     catalog cannot be reached within {@code floe.connect-timeout}
   */
  public static Catalog open(CatalogConfig config) {
    prepare(config);
    try {
      return CatalogUtil.buildIcebergCatalog(
          config.name(), openProperties(config), HadoopConfs.defaults());
    } catch (RuntimeException e) {
      throw RestClientErrors.openFailure(config, e);
    }
  }

  /**
   * The properties Floe's own catalogs open with, this JVM's ({@link #open}) and Flink's: {@link
   * #icebergProperties}, and for the embedded catalog, whose warehouse is local, {@link
   * LocalReadsFileIO} unless its configuration names an {@code io-impl} or a key management service
   * (Iceberg's encryption). Another engine given the catalog (Spark) gets {@link
   * #icebergProperties}: it has not got Floe's classes.
   */
  public static Map<String, String> openProperties(CatalogConfig config) {
    Map<String, String> properties = icebergProperties(config);
    // Not with Iceberg's encryption: its Parquet decryption needs Hadoop's input files.
    if (config.type().equals(CatalogOptions.EMBEDDED)
        && !properties.containsKey(CatalogProperties.ENCRYPTION_KMS_IMPL)
        && !properties.containsKey(CatalogProperties.ENCRYPTION_KMS_TYPE)) {
      properties.putIfAbsent(CatalogProperties.FILE_IO_IMPL, LocalReadsFileIO.class.getName());
    }
    return properties;
  }

  /**
   * The properties Iceberg gets: the configured ones plus the connect timeouts {@link
   * Reachability#clientProperties} derives from {@code floe.connect-timeout} (never over a value
   * the user set).
   */
  public static Map<String, String> icebergProperties(CatalogConfig config) {
    Map<String, String> properties = new HashMap<>(config.properties());
    properties.putAll(Reachability.clientProperties(config));
    return properties;
  }

  /** Closes a catalog that holds connections (JDBC, REST); a no-op for the others. */
  public static void close(Catalog catalog) {
    if (catalog instanceof java.io.Closeable closeable) {
      try {
        closeable.close();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot close catalog " + catalog.name(), e);
      }
    }
  }

  /**
   * Loads a table by its {@code namespace.table} name; an unknown table is an input error. A JDBC
   * catalog's table commits through {@link LostAnswerCheck}.
   */
  public static Table loadTable(Catalog catalog, String name) {
    TableIdentifier identifier = identifier(name);
    try {
      Table table = catalog.loadTable(identifier);
      return catalog instanceof JdbcCatalog || catalog instanceof RESTCatalog
          ? LostAnswerCheck.wrap(table)
          : table;
    } catch (NoSuchTableException e) {
      throw InvalidInputException.of(
          "Cannot load table %s: it does not exist (create it with `floe tables apply`)", name);
    } catch (RESTException e) {
      Optional<String> unanswered =
          RestClientErrors.reason(
              e, catalog instanceof RESTCatalog rest ? rest.properties().get("uri") : null);
      if (unanswered.isPresent()) {
        throw new UnreachableException("load table " + name, unanswered.get(), e);
      }
      throw e;
    }
  }

  /**
   * A manifest's table name ({@code target:}, {@code table:}), refused where it stands (file and
   * key) unless it reads as {@code namespace.table}.
   */
  public static String tableName(ManifestNode node) {
    String name = node.asSpelled();
    try {
      identifier(name);
    } catch (InvalidInputException e) {
      throw node.error("expected <namespace>.<table>, e.g. sales.fact_orders, got '%s'", name);
    }
    return name;
  }

  /** Parses {@code namespace.table} (namespaces may be nested: {@code a.b.table}). */
  public static TableIdentifier identifier(String name) {
    if (name == null || !name.contains(".") || name.startsWith(".") || name.endsWith(".")) {
      throw InvalidInputException.of(
          "Cannot use table name '%s': expected <namespace>.<table>, e.g. sales.fact_orders", name);
    }
    return TableIdentifier.parse(name);
  }

  /**
   * Gets ready to open a catalog; Flink's catalog factory and {@link #open} both call it first.
   * Makes its secrets known to {@link Redaction}, creates what it needs locally (the embedded
   * catalog's home directory, refused when it was moved or copied: {@link HomeLocation}, or when it
   * holds no catalog yet and the configuration {@linkplain CatalogConfig#existingHomeOnly only uses
   * what exists}; SQLite's native library kept where bin/floe says: {@link SqliteNativeLibrary}),
   * checks once per JVM that its servers answer ({@link Reachability}), and sets up a new SQLite
   * catalog database under a lock other processes respect ({@link SqliteCatalogInit}).
   */
  public static void prepare(CatalogConfig config) {
    Redaction.remember(config);
    RestClientErrors.remember(config);
    // Before the home: an old home's catalog is read to adopt it (HomeLocation).
    SqliteNativeLibrary.prepareFor(config.properties().get("uri"));
    prepareHome(config);
    requireSqliteDatabase(config);
    prepareHadoopWarehouse(config);
    Reachability.requireOnce(config);
    SqliteCatalogInit.ensure(config);
  }

  /**
   * True when {@code config} is an embedded catalog whose Floe home holds no catalog database yet
   * (a folder that does not exist, or one that never had a catalog), a jdbc catalog whose local
   * SQLite database does not exist yet, or a hadoop catalog whose local warehouse does not exist
   * yet: opening it would create one.
   */
  public static boolean holdsNoCatalog(CatalogConfig config) {
    Path database = embeddedDatabase(config);
    if (database != null) {
      return !Files.exists(database);
    }
    // In a folder that does not exist the real apply fails: no empty catalog to plan against.
    Path sqlite =
        config.type().equals("jdbc")
            ? SqliteCatalogInit.database(config.properties().get("uri"))
            : null;
    if (sqlite != null) {
      return !Files.exists(sqlite);
    }
    Path warehouse = localHadoopWarehouse(config);
    return warehouse != null && !Files.exists(warehouse);
  }

  /** The SQLite database file of an embedded catalog, or null for any other catalog. */
  private static Path embeddedDatabase(CatalogConfig config) {
    String uri = config.properties().get("uri");
    if (!config.type().equals(CatalogOptions.EMBEDDED)
        || uri == null
        || !uri.startsWith("jdbc:sqlite:")) {
      return null;
    }
    return Path.of(uri.substring("jdbc:sqlite:".length()));
  }

  /**
   * Refuses, as opening the catalog would, an embedded catalog's home that holds no catalog when
   * {@code config} only uses what exists; creates nothing. For a command that reaches the home's
   * database another way first (the effect outbox), which would otherwise create the file.
   *
   * @throws InvalidInputException naming the home
   */
  public static void requireHome(CatalogConfig config) {
    Path database = embeddedDatabase(config);
    if (database != null && !config.createsHome() && holdsNoCatalog(config)) {
      throw InvalidInputException.of(
          "Cannot open the catalog: %s holds no Floe home (FLOE_HOME or --home); create one with"
              + " `floe tables apply` or `floe quickstart`",
          database.getParent());
    }
    requireSqliteDatabase(config);
  }

  /**
   * Refuses, for a command that only uses what exists (a read, a plan, a dry run), a jdbc catalog
   * whose SQLite database file does not exist: SQLite's driver creates a missing file, so a
   * mistyped uri opened a new, empty catalog (and left its file behind), where `floe maintain`
   * found no tables and reported nothing to do. A command that creates tables creates it.
   */
  private static void requireSqliteDatabase(CatalogConfig config) {
    if (!config.type().equals("jdbc") || config.createsHome()) {
      return;
    }
    String uri = config.properties().get("uri");
    Path database = SqliteCatalogInit.file(uri);
    InvalidInputException.check(
        database == null || Files.exists(database),
        "Cannot open the catalog: its SQLite database %s does not exist (catalog.properties.uri"
            + " %s); correct the uri, or create the catalog with `floe tables apply` (without"
            + " --dry-run)",
        database,
        Redaction.maskUriCredentials(String.valueOf(uri)));
  }

  /**
   * Creates the embedded catalog's Floe home, or, for a configuration that {@linkplain
   * CatalogConfig#existingHomeOnly only uses what exists}, refuses a home without its database.
   */
  private static void prepareHome(CatalogConfig config) {
    Path database = embeddedDatabase(config);
    Path home = database == null ? null : database.getParent();
    if (home == null) {
      return;
    }
    // The home is the user's choice (--home, FLOE_HOME): a file there is a usage error.
    if (Files.exists(home) && !Files.isDirectory(home)) {
      throw InvalidInputException.of(
          "Cannot use the Floe home %s: it is a file, not a folder", home);
    }
    requireHome(config);
    try {
      Files.createDirectories(home);
      HomeLocation.require(home, localPath(config.properties().get("warehouse")));
    } catch (FileAlreadyExistsException e) {
      throw InvalidInputException.of(
          "Cannot create the Floe home %s: %s is a file, not a folder", home, e.getFile());
    } catch (AccessDeniedException e) {
      throw InvalidInputException.of(
          "Cannot create the Floe home %s: permission denied on %s", home, e.getFile());
    } catch (IOException e) {
      throw new InvalidInputException(
          "Cannot create the Floe home " + home + ": " + e.getMessage(), e);
    }
  }

  /**
   * A hadoop catalog's local warehouse folder: created for a command that may create a home, and
   * refused, naming it, for one that only uses what exists. Iceberg's {@code HadoopCatalog} lists
   * no namespaces of a warehouse that does not exist yet but fails ("Namespace does not exist: "),
   * so {@code SHOW DATABASES} failed on a new warehouse, and a mistyped one looked like an empty
   * catalog to the commands that worked.
   */
  private static void prepareHadoopWarehouse(CatalogConfig config) {
    Path warehouse = localHadoopWarehouse(config);
    if (warehouse == null || Files.isDirectory(warehouse)) {
      return;
    }
    if (Files.exists(warehouse)) {
      throw InvalidInputException.of(
          "Cannot open the catalog: the hadoop warehouse %s is a file, not a folder", warehouse);
    }
    InvalidInputException.check(
        config.createsHome(),
        "Cannot open the catalog: the hadoop warehouse %s does not exist; create it with `floe"
            + " tables apply`, or correct catalog.properties.warehouse",
        warehouse);
    try {
      Files.createDirectories(warehouse);
    } catch (IOException e) {
      throw new InvalidInputException(
          "Cannot create the hadoop warehouse " + warehouse + ": " + e.getMessage(), e);
    }
  }

  /** The local folder of a hadoop catalog's warehouse, or null for any other catalog or place. */
  private static Path localHadoopWarehouse(CatalogConfig config) {
    return config.type().equals("hadoop") ? localPath(config.properties().get("warehouse")) : null;
  }

  /**
   * The local file or folder a location names ({@code file:/...}, also written plain as the
   * embedded catalog writes a home whose path holds a space, '#' or '%', or an absolute path), or
   * null for another scheme, a relative path or none.
   */
  static Path localPath(String location) {
    if (location == null || location.isBlank()) {
      return null;
    }
    try {
      if (location.startsWith("file://") && !location.startsWith("file:///")) {
        return null; // file://host/...: left to Hadoop
      }
      if (location.startsWith("file:/")) {
        try {
          return Path.of(URI.create(location)).normalize();
        } catch (IllegalArgumentException e) {
          return Path.of(location.substring("file:".length())).normalize(); // file:/a b/...
        }
      }
      Path path = Path.of(location);
      return path.isAbsolute() ? path.normalize() : null;
    } catch (IllegalArgumentException | FileSystemNotFoundException e) {
      return null; // not a path this file system can name: left to Hadoop
    }
  }
}
