package dev.floe.catalog.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded catalog stores absolute paths: a moved or copied home must never write into the
 * original's tables, so Floe refuses to open it, naming both paths.
 */
class HomeLocationTest {
  @TempDir Path work;

  @Test
  void aCopiedHomeIsRefusedAndTheOriginalKeepsWorking() throws IOException {
    Path original = work.resolve("original");
    String location = createTable(original);
    Path copy = work.resolve("copy");
    copyTree(original, copy);
    List<Path> before = files(original);

    assertThatThrownBy(() -> Catalogs.open(CatalogConfigLoader.embedded(copy)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(copy.toRealPath().toString())
        .hasMessageContaining(original.toRealPath().toString())
        .hasMessageNotContaining("\n");

    assertThat(files(original)).as("nothing written into the original").isEqualTo(before);
    Catalog reopened = Catalogs.open(CatalogConfigLoader.embedded(original));
    try {
      assertThat(reopened.loadTable(TableIdentifier.parse("s.t")).location()).isEqualTo(location);
    } finally {
      Catalogs.close(reopened);
    }
  }

  @Test
  void aMovedHomeIsRefused() throws IOException {
    Path original = work.resolve("before");
    createTable(original);
    Path moved = work.resolve("after");
    Files.move(original, moved);

    assertThatThrownBy(() -> Catalogs.open(CatalogConfigLoader.embedded(moved)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("it was made at " + original.toAbsolutePath());
  }

  @Test
  void aCopyOfAHomeMadeBeforeTheRecordIsRefusedAndTheOriginalIsAdopted() throws IOException {
    Path original = work.resolve("old");
    createTable(original);
    Files.delete(original.resolve(HomeLocation.MARKER)); // as a home made before the record
    Path copy = work.resolve("old-copy");
    copyTree(original, copy);
    List<Path> before = files(original);

    assertThatThrownBy(() -> Catalogs.open(CatalogConfigLoader.embedded(copy)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot open the Floe home " + copy.toRealPath())
        .hasMessageContaining(
            "table s.t keeps its metadata outside it, at " + original.toRealPath());
    assertThat(copy.resolve(HomeLocation.MARKER)).doesNotExist();
    assertThat(files(original)).as("nothing written into the original").isEqualTo(before);

    Catalog adopted = Catalogs.open(CatalogConfigLoader.embedded(original));
    Catalogs.close(adopted);
    assertThat(Files.readString(original.resolve(HomeLocation.MARKER)).trim())
        .isEqualTo(original.toRealPath().toString());
  }

  @Test
  void aHomeMadeBeforeTheRecordAndReachedThroughALinkIsAdopted() throws IOException {
    Path real = Files.createDirectories(work.resolve("real"));
    Path link = Files.createSymbolicLink(work.resolve("link"), real);
    createTable(link.resolve("home"));
    Files.delete(real.resolve("home").resolve(HomeLocation.MARKER));

    Catalog opened = Catalogs.open(CatalogConfigLoader.embedded(real.resolve("home")));
    Catalogs.close(opened);

    assertThat(real.resolve("home").resolve(HomeLocation.MARKER)).exists();
  }

  @Test
  void aHomeMadeBeforeTheRecordWhoseConfiguredWarehouseLiesBesideItIsAdopted() throws IOException {
    Path home = work.resolve("project/.floe");
    Map<String, String> lake = Map.of("warehouse", work.resolve("project/lake").toString());
    Catalog catalog = Catalogs.open(CatalogConfigLoader.load(null, home, lake, Map.of()));
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("s"));
      catalog.createTable(
          TableIdentifier.parse("s.t"),
          new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));
    } finally {
      Catalogs.close(catalog);
    }
    Files.delete(home.resolve(HomeLocation.MARKER));

    Catalog reopened = Catalogs.open(CatalogConfigLoader.load(null, home, lake, Map.of()));
    Catalogs.close(reopened);

    assertThat(home.resolve(HomeLocation.MARKER)).exists();
  }

  private static String createTable(Path home) {
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("s"));
      Table table =
          catalog.createTable(
              TableIdentifier.parse("s.t"),
              new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));
      return table.location();
    } finally {
      Catalogs.close(catalog);
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path p : paths.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  private static List<Path> files(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      return paths.filter(Files::isRegularFile).sorted().toList();
    }
  }
}
