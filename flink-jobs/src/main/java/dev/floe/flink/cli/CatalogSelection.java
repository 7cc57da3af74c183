package dev.floe.flink.cli;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.CatalogOptions;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.config.EnvironmentVariables;
import dev.floe.catalog.config.TildePaths;
import dev.floe.catalog.error.InvalidInputException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import picocli.CommandLine.Option;

/**
 * Where the catalog is: the options of every command that opens one. {@link CommonOptions} adds
 * {@code --json}; a command that only prints text ({@code floe quickstart}) mixes in this alone.
 */
public class CatalogSelection {
  @Option(
      names = "--home",
      paramLabel = "DIR",
      description =
          "Floe home for the embedded catalog, not empty (default: $FLOE_HOME unless empty, else "
              + CatalogOptions.DEFAULT_HOME
              + ").")
  Path home;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "Catalog configuration file (default: ./floe.yaml when it exists).")
  Path config;

  @Option(
      names = "--catalog-property",
      paramLabel = "KEY=VALUE",
      description = "An Iceberg catalog property; repeatable; wins over floe.yaml.")
  Map<String, String> catalogProperties = new LinkedHashMap<>();

  /**
   * The home directory: --home, then $FLOE_HOME, then ./.floe. An empty or blank FLOE_HOME counts
   * as unset, as in bin/floe; an empty or blank --home is refused (it would put the catalog in the
   * working directory).
   */
  public Path home() {
    if (home != null) {
      InvalidInputException.check(
          !home.toString().isBlank(),
          "Cannot use --home '%s': it is empty; name the Floe home's folder, or leave --home out"
              + " to use $FLOE_HOME, else %s",
          home,
          CatalogOptions.DEFAULT_HOME);
      return notTilde("--home", home.toString());
    }
    String fromEnv = System.getenv(EnvironmentVariables.HOME.key());
    return fromEnv != null && !fromEnv.isBlank()
        ? notTilde(EnvironmentVariables.HOME.key(), fromEnv)
        : Path.of(EnvironmentVariables.HOME.defaultValue());
  }

  private static Path notTilde(String source, String home) {
    return Path.of(TildePaths.requireNone(source, home));
  }

  /**
   * The catalog of a command that only uses what exists (reads, plans, dry runs, changes to
   * existing tables): an embedded catalog is not created where the Floe home holds none, the
   * command fails naming the home instead ({@link CatalogConfig#existingHomeOnly}).
   */
  public CatalogConfig catalog() {
    return creatingCatalog().existingHomeOnly();
  }

  /**
   * The catalog of a command that may create things (tables, a quickstart, a run): an embedded
   * catalog is created in a Floe home that holds none yet.
   */
  public CatalogConfig creatingCatalog() {
    return CatalogConfigLoader.load(config, home(), catalogProperties, System.getenv());
  }

  /**
   * Opens the catalog (one that exists: {@link #catalog()}), loads {@code table} and applies {@code
   * action} to it; the catalog is closed whatever happens. What the table commands do between
   * "open" and "close".
   */
  public <T> T withTable(String table, Function<Table, T> action) {
    Catalog catalog = Catalogs.open(catalog());
    try {
      return action.apply(Catalogs.loadTable(catalog, table));
    } finally {
      Catalogs.close(catalog);
    }
  }
}
