package dev.floe.catalog.testing;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real embedded catalog (Iceberg JdbcCatalog on SQLite, local warehouse) in a fresh folder for
 * each test: {@code @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();}.
 */
public final class EmbeddedCatalog implements BeforeEachCallback, AfterEachCallback {
  private final Map<String, String> overrides;
  private Path home;
  private CatalogConfig config;
  private Catalog catalog;

  public EmbeddedCatalog() {
    this(Map.of());
  }

  /**
   * @param overrides catalog properties set over the embedded default's (a test's own {@code
   *     io-impl}, say)
   */
  public EmbeddedCatalog(Map<String, String> overrides) {
    this.overrides = Map.copyOf(overrides);
  }

  @Override
  public void beforeEach(ExtensionContext context) throws IOException {
    home = Files.createTempDirectory("floe-catalog");
    CatalogConfig base = CatalogConfigLoader.embedded(home);
    Map<String, String> properties = new HashMap<>(base.properties());
    properties.putAll(overrides);
    config = new CatalogConfig(base.name(), base.type(), properties);
    catalog = Catalogs.open(config);
  }

  @Override
  public void afterEach(ExtensionContext context) throws IOException {
    Catalogs.close(catalog);
    try (Stream<Path> files = Files.walk(home)) {
      files.sorted(Comparator.reverseOrder()).forEach(EmbeddedCatalog::delete);
    }
  }

  public Path home() {
    return home;
  }

  public CatalogConfig config() {
    return config;
  }

  public Catalog catalog() {
    return catalog;
  }

  /** Creates {@code namespace.table} (and its namespace when missing), format version 2. */
  public Table create(String name, Schema schema, PartitionSpec spec) {
    TableIdentifier identifier = Catalogs.identifier(name);
    SupportsNamespaces namespaces = (SupportsNamespaces) catalog;
    if (!namespaces.namespaceExists(identifier.namespace())) {
      namespaces.createNamespace(identifier.namespace());
    }
    return catalog.createTable(identifier, schema, spec, Map.of("format-version", "2"));
  }

  /** The table as the catalog has it now. */
  public Table load(String name) {
    return Catalogs.loadTable(catalog, name);
  }

  private static void delete(Path path) {
    try {
      Files.delete(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
