package dev.floe.catalog.config;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.manifest.ManifestNode;
import dev.floe.catalog.manifest.Manifests;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Builds a {@link CatalogConfig} from floe.yaml, FLOE_CATALOG_* environment variables and
 * command-line properties, in that order of precedence (later wins).
 */
public final class CatalogConfigLoader {
  public static final String CONFIG_FILE = "floe.yaml";
  private static final String ENV_PREFIX = EnvironmentVariables.CATALOG_PREFIX;
  private static final Map<String, String> IMPLEMENTATIONS =
      Map.of(
          "embedded",
          "org.apache.iceberg.jdbc.JdbcCatalog",
          "jdbc",
          "org.apache.iceberg.jdbc.JdbcCatalog",
          "rest",
          "org.apache.iceberg.rest.RESTCatalog",
          "hadoop",
          "org.apache.iceberg.hadoop.HadoopCatalog",
          CatalogOptions.GLUE,
          "org.apache.iceberg.aws.glue.GlueCatalog");

  private CatalogConfigLoader() {}

  /**
   * @param configFile floe.yaml to read, or null to read {@code ./floe.yaml} when it exists
   * @param home the Floe home for the embedded catalog (already resolved from --home/FLOE_HOME)
   * @param overrides {@code --catalog-property} values
   * @param environment the process environment (injected for tests)
   */
  public static CatalogConfig load(
      Path configFile, Path home, Map<String, String> overrides, Map<String, String> environment) {
    return load(configFile, Path.of(CONFIG_FILE), home, overrides, environment);
  }

  /** {@link #load} with the file read when none is given: {@code ./floe.yaml} there. */
  static CatalogConfig load(
      Path configFile,
      Path defaultFile,
      Path home,
      Map<String, String> overrides,
      Map<String, String> environment) {
    String type = CatalogOptions.TYPE.defaultValue();
    String name = CatalogOptions.NAME.defaultValue();
    Map<String, String> properties = new LinkedHashMap<>();

    Path file = configFile != null ? configFile : defaultFile;
    // A ./floe.yaml that is a broken link is read (and refused), not taken for no file at all.
    if (configFile != null || Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      // The accepted keys are the documented ones (CatalogOptions), never a second list.
      ManifestNode root =
          Manifests.load(file, "catalog config")
              .root()
              .requireOnlyKeys(CatalogOptions.GROUP.keysUnder(""));
      ManifestNode catalog =
          root.required("catalog").requireOnlyKeys(CatalogOptions.GROUP.keysUnder("catalog"));
      type = catalog.optionalString("type", type);
      name = catalog.optionalString("name", name);
      if (catalog.has("properties")) {
        catalog
            .child("properties")
            .entries()
            .forEach(
                (k, v) -> {
                  String value = propertyValue(v.asSpelled(), v.asText());
                  refuseCredentialInFile(k, value, file);
                  properties.put(k, value);
                });
      }
    }
    boolean warehouseFromFile = properties.containsKey(WAREHOUSE);
    for (Map.Entry<String, String> variable : environment.entrySet()) {
      String key = variable.getKey();
      if (key.startsWith(ENV_PREFIX) && key.length() > ENV_PREFIX.length()) {
        String property = envToProperty(key.substring(ENV_PREFIX.length()));
        properties.put(property, variable.getValue());
        warehouseFromFile &= !property.equals(WAREHOUSE);
      }
    }
    properties.putAll(overrides);
    warehouseFromFile &= !overrides.containsKey(WAREHOUSE);
    if (properties.containsKey("type")) {
      type = properties.remove("type");
    }
    String warehouse = properties.get(WAREHOUSE);
    // A REST catalog's warehouse is whatever its server takes, often a catalog's name (Polaris,
    // Lakekeeper): it is sent as written. Elsewhere it is a location: from floe.yaml against its
    // folder, from the environment or the command line against the working directory, as a shell
    // does.
    if (warehouse != null && !type.equals("rest")) {
      Path base = warehouseFromFile ? folderOf(file) : Path.of("");
      properties.put(WAREHOUSE, absoluteWarehouse(warehouse, base));
    }
    // Not Iceberg's, and not to be changed in passing: a jdbc catalog's name selects which
    // tables of its database it sees, so another name would hide them (and tables apply would
    // create them again over the same files).
    InvalidInputException.check(
        !properties.containsKey("name"),
        "Cannot configure catalog: 'name' is not a catalog property (from %s or --catalog-property"
            + " name=); the catalog's name is catalog.name in floe.yaml, and for a jdbc or"
            + " embedded catalog it also selects which tables of its database it sees",
        ENV_PREFIX + "NAME");
    return build(name, type, home, properties);
  }

  /** The embedded default: a SQLite JdbcCatalog and a warehouse under {@code home}. */
  public static CatalogConfig embedded(Path home) {
    return build(CatalogOptions.NAME.defaultValue(), CatalogOptions.EMBEDDED, home, Map.of());
  }

  private static CatalogConfig build(
      String name, String type, Path home, Map<String, String> userProperties) {
    String impl = IMPLEMENTATIONS.get(type);
    if (impl == null) {
      throw InvalidInputException.of(
          "Cannot configure catalog: unknown catalog.type '%s' (expected one of %s)",
          type, String.join(", ", IMPLEMENTATIONS.keySet().stream().sorted().toList()));
    }
    Map<String, String> properties = new LinkedHashMap<>();
    if (type.equals(CatalogOptions.EMBEDDED)) {
      // Its database is the home's: a uri of another catalog's server here was handed to
      // SQLite's driver and failed as an unexpected error (exit 1).
      InvalidInputException.check(
          !userProperties.containsKey("uri"),
          "Cannot configure catalog: the embedded catalog keeps its database in the Floe home"
              + " (FLOE_HOME or --home), so it takes no 'uri' (%s); set catalog.type to jdbc or"
              + " rest to use it",
          Redaction.maskUriCredentials(String.valueOf(userProperties.get("uri"))));
      Path absoluteHome = home.toAbsolutePath().normalize();
      properties.put("uri", "jdbc:sqlite:" + absoluteHome.resolve("catalog.db"));
      Path warehouse = absoluteHome.resolve("warehouse");
      String uri = warehouse.toUri().toString();
      // Hadoop reads a file: location's %-escapes literally: a home whose path holds a space, a
      // '#' or a '%' would get its warehouse in a directory named with the escapes, beside the
      // home instead of inside it. Such a path is given plain; others keep the form homes made
      // before had.
      properties.put("warehouse", uri.contains("%") ? "file:" + warehouse : uri);
      properties.put("jdbc.schema-version", "V1");
      // Several connections (CLI, Flink SQL, committer) share one SQLite file: wait, don't fail.
      properties.put("jdbc.busy_timeout", "30000");
      properties.put("jdbc.journal_mode", "WAL");
    }
    properties.putAll(userProperties);
    properties.put("catalog-impl", impl);
    if (!properties.containsKey("uri") && !type.equals("hadoop") && !type.equals("glue")) {
      throw InvalidInputException.of(
          "Cannot configure catalog: catalog.type '%s' needs the property 'uri'", type);
    }
    // Iceberg's HadoopCatalog refused it with a stack trace ("warehousePath must not be null").
    InvalidInputException.check(
        !type.equals("hadoop") || !properties.getOrDefault(WAREHOUSE, "").isBlank(),
        "Cannot configure catalog: catalog.type 'hadoop' needs the property 'warehouse', the folder"
            + " its tables live in (e.g. warehouse: ./warehouse, or s3://bucket/warehouse)");
    CatalogConfig config = new CatalogConfig(name, type, properties);
    // Its secrets are masked in every error and log line from now on, also before it is opened.
    Redaction.remember(config);
    Reachability.timeout(config); // a bad floe.connect-timeout is refused up front
    for (String key : HTTP_ENDPOINTS) {
      // The AWS SDK's own refusal names neither the property nor a fix ("Illegal character in
      // scheme name at index 0: 127.0.0.1:9000").
      requireHttpUrl(key, properties.get(key), "http://127.0.0.1:9000");
    }
    if (type.equals("rest")) {
      // Iceberg's: "Failed to create request URI from base 127.0.0.1:8181", exit 1.
      requireHttpUrl("uri", properties.get("uri"), "http://127.0.0.1:8181");
    }
    return config;
  }

  /** Refuses a {@code value} of {@code key} that is not an http:// or https:// URL. */
  private static void requireHttpUrl(String key, String value, String example) {
    InvalidInputException.check(
        value == null || value.matches("(?i)https?://[^/\\s]+.*"),
        "Cannot configure catalog: property %s=%s is not an http:// or https:// URL, e.g. %s",
        key,
        Redaction.maskUriCredentials(String.valueOf(value)),
        example);
  }

  private static final String WAREHOUSE = "warehouse";

  /**
   * A catalog property's value: as the file spells it ({@code 0755} stays 0755, not YAML's 493),
   * except where Iceberg and the AWS SDK would misread the spelling: a YAML boolean ({@code on},
   * {@code yes}) is {@code true} or {@code false}, which is what Java's Boolean.parseBoolean
   * understands, and a number Java cannot parse as written ({@code 1_000}, {@code 0x10}) is YAML's
   * reading of it.
   */
  static String propertyValue(String spelled, String read) {
    if (spelled == null || spelled.equals(read)) {
      return read;
    }
    if (read.equals("true") || read.equals("false")) {
      return read;
    }
    return isJavaNumber(spelled) || !isJavaNumber(read) ? spelled : read;
  }

  private static boolean isJavaNumber(String text) {
    try {
      Double.parseDouble(text);
      return !text.isBlank() && Character.isDigit(text.charAt(text.length() - 1));
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /**
   * A warehouse written as a relative path is read against {@code base} and made absolute. Left
   * relative, Hadoop resolved it against the working directory of each command, so a command run
   * from another folder (or a Flink task manager) saw another, empty warehouse, and tables created
   * there recorded relative locations that only opened from that folder. A location with a scheme
   * ({@code s3://}, {@code file:}) or an absolute path is kept as written.
   */
  static String absoluteWarehouse(String location, Path base) {
    TildePaths.requireNone("catalog.properties." + WAREHOUSE, location);
    if (location.isBlank()
        || location.matches("[A-Za-z][A-Za-z0-9+.-]*:.*")
        || Path.of(location).isAbsolute()) {
      return location;
    }
    return base.toAbsolutePath().resolve(location).normalize().toString();
  }

  private static Path folderOf(Path file) {
    Path parent = file.toAbsolutePath().getParent();
    return parent != null ? parent : Path.of("");
  }

  /** Properties the AWS SDK takes as http(s) endpoints. */
  private static final List<String> HTTP_ENDPOINTS =
      List.of("s3.endpoint", "glue.endpoint", "sts.endpoint", "dynamodb.endpoint");

  /**
   * Credentials never live in a file Floe reads (floe.yaml is committed with the jobs and baked
   * into images): they come from FLOE_CATALOG_* variables, a mounted Secret, or, for S3, the AWS
   * SDK's own chain (AWS_ACCESS_KEY_ID, a credentials file).
   */
  private static void refuseCredentialInFile(String key, String value, Path file) {
    if (CatalogConfig.isCredential(key)) {
      throw InvalidInputException.of(
          "Cannot read catalog property '%s' from %s: credentials never belong in files; set the"
              + " environment variable %s instead (for S3 also AWS_ACCESS_KEY_ID or an AWS"
              + " credentials file)",
          key, file, propertyToEnv(key));
    }
    if (CatalogConfig.carriesCredential(value)) {
      throw InvalidInputException.of(
          "Cannot read catalog property '%s' from %s: its value carries a password"
              + " (password=... or user:password@); credentials never belong in files, so drop it"
              + " and set %s (jdbc.password), or the whole value in %s",
          key, file, propertyToEnv("jdbc.password"), propertyToEnv(key));
    }
  }

  /** The inverse of {@link #envToProperty}: {@code s3.secret-access-key} to its variable. */
  static String propertyToEnv(String property) {
    return ENV_PREFIX + property.toUpperCase(Locale.ROOT).replace("-", "_").replace(".", "__");
  }

  /**
   * {@code S3__SECRET_ACCESS_KEY} to {@code s3.secret-access-key}: {@code __} separates the parts
   * of a property name, {@code _} joins the words of one part, as Iceberg spells its properties.
   */
  static String envToProperty(String suffix) {
    return suffix
        .toLowerCase(Locale.ROOT)
        .replace("__", "\u0000")
        .replace('_', '-')
        .replace('\u0000', '.');
  }
}
