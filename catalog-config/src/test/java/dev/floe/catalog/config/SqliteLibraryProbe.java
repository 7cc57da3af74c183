package dev.floe.catalog.config;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.SupportsNamespaces;

/**
 * Run in its own JVM by {@link SqliteNativeLibraryTest}: opens the embedded catalog in {@code
 * args[0]} as a command does, then prints each file this process mapped SQLite's native library
 * from (Linux's {@code /proc/self/maps}), one per line.
 */
public final class SqliteLibraryProbe {
  private SqliteLibraryProbe() {}

  public static void main(String[] args) throws Exception {
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(Path.of(args[0])));
    try {
      ((SupportsNamespaces) catalog).listNamespaces();
    } finally {
      Catalogs.close(catalog);
    }
    Files.readAllLines(Path.of("/proc/self/maps")).stream()
        .filter(line -> line.contains("sqlitejdbc"))
        .map(line -> line.substring(line.indexOf('/')))
        .distinct()
        .forEach(System.out::println);
  }
}
