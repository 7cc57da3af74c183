package dev.floe.catalog.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HadoopWarehouseTest {
  @TempDir Path dir;

  private CatalogConfig hadoop(String warehouse) {
    return CatalogConfigLoader.load(
        null, dir.resolve("home"), Map.of("type", "hadoop", "warehouse", warehouse), Map.of());
  }

  @Test
  void aCommandThatMayCreateAHomeStartsANewWarehouseThatListsNoNamespaces() {
    Path warehouse = dir.resolve("new/warehouse");
    Catalog catalog = Catalogs.open(hadoop(warehouse.toString()));
    try {
      assertThat(((SupportsNamespaces) catalog).listNamespaces(Namespace.empty())).isEmpty();
      assertThat(warehouse).isDirectory();
    } finally {
      Catalogs.close(catalog);
    }
  }

  @Test
  void aCommandThatOnlyUsesWhatExistsRefusesAMissingWarehouseNamingItAndCreatesNothing() {
    Path warehouse = dir.resolve("mistyped");

    assertThatThrownBy(() -> Catalogs.open(hadoop(warehouse.toUri().toString()).existingHomeOnly()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot open the catalog: the hadoop warehouse "
                + warehouse
                + " does not exist; create it with `floe tables apply`, or correct"
                + " catalog.properties.warehouse");
    assertThat(warehouse).doesNotExist();
  }

  @Test
  void aMissingLocalWarehouseHoldsNoCatalogSoADryRunCanPlanInMemory() throws IOException {
    Path warehouse = dir.resolve("wh");
    assertThat(Catalogs.holdsNoCatalog(hadoop(warehouse.toString()))).isTrue();
    Files.createDirectories(warehouse);
    assertThat(Catalogs.holdsNoCatalog(hadoop(warehouse.toString()))).isFalse();
    assertThat(Catalogs.holdsNoCatalog(hadoop("s3://bucket/wh"))).isFalse();
  }

  @Test
  void aWarehouseThatIsAFileIsRefused() throws IOException {
    Path file = Files.writeString(dir.resolve("wh"), "x");

    assertThatThrownBy(() -> Catalogs.open(hadoop(file.toString())))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot open the catalog: the hadoop warehouse " + file + " is a file, not a folder");
  }
}
