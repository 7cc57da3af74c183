package dev.floe.catalog.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.manifest.Manifests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableSpecLoaderTest {
  @TempDir Path dir;

  @Test
  void loadsEveryYamlAndYmlFileOfADirectoryInNameOrder() throws IOException {
    write("b_orders.yml", "sales.orders");
    write("a_customers.yaml", "sales.customers");
    Files.writeString(dir.resolve("README.md"), "not a spec");
    Files.createDirectory(dir.resolve("nested.yaml"));

    assertThat(TableSpecLoader.load(dir))
        .extracting(TableSpec::table, TableSpec::source)
        .containsExactly(
            tuple("sales.customers", dir.resolve("a_customers.yaml").toString()),
            tuple("sales.orders", dir.resolve("b_orders.yml").toString()));
  }

  @Test
  void readsASpecWhoseSuffixIsInUpperCaseAsFloeLintDoes() throws IOException {
    write("ORDERS.YAML", "sales.orders");
    write("customers.Yml", "sales.customers");

    assertThat(TableSpecLoader.load(dir))
        .extracting(TableSpec::table)
        .containsExactly("sales.orders", "sales.customers");
  }

  @Test
  void aLinkThatLeadsNowhereIsRefusedNotSkipped() throws IOException {
    write("a.yaml", "sales.orders");
    Path link = Files.createSymbolicLink(dir.resolve("b.yaml"), dir.resolve("gone.yaml"));

    assertThatThrownBy(() -> TableSpecLoader.load(dir))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(link.toString())
        .hasMessageContaining("no such file");
  }

  @Test
  void skipsHiddenFilesSuchAsAnEditorsLockLinkThatLeadsNowhere() throws IOException {
    write("orders.yaml", "sales.orders");
    Files.createSymbolicLink(dir.resolve(".#orders.yaml"), Path.of("user@host.12345:1733600000"));
    write(".draft.yaml", "sales.draft");

    assertThat(TableSpecLoader.load(dir))
        .extracting(TableSpec::table)
        .containsExactly("sales.orders");
  }

  @Test
  void loadsASingleFile() throws IOException {
    Path file = write("orders.yaml", "sales.orders");

    assertThat(TableSpecLoader.load(file))
        .extracting(TableSpec::table)
        .containsExactly("sales.orders");
  }

  @Test
  void rejectsTwoSpecsForTheSameTable() throws IOException {
    write("a.yaml", "sales.orders");
    write("b.yaml", "sales.orders");

    assertThatThrownBy(() -> TableSpecLoader.load(dir))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read %s: table sales.orders is already declared in %s",
            dir.resolve("b.yaml"), dir.resolve("a.yaml"));
  }

  @Test
  void rejectsADirectoryWithoutSpecsAndAMissingFile() {
    assertThatThrownBy(() -> TableSpecLoader.load(dir))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("holds no *.yaml or *.yml table spec");
    assertThatThrownBy(() -> TableSpecLoader.load(dir.resolve("missing.yaml")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("no such file");
  }

  @Test
  void aTableSpecOverTheSizeLimitIsRefusedNamingItsKind() throws IOException {
    Path file = write("orders.yaml", "sales.orders");
    Files.writeString(file, "#".repeat(Manifests.MAX_MANIFEST_BYTES), StandardOpenOption.APPEND);

    assertThatThrownBy(() -> TableSpecLoader.load(dir))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot read table spec " + file + ": it is ")
        .hasMessageEndingWith("a manifest may be at most 1048576 bytes");
  }

  @Test
  void aTableSpecWithADuplicateKeyIsRefused() throws IOException {
    Path file = write("orders.yaml", "sales.orders");
    Files.writeString(file, "partition: []\n", StandardOpenOption.APPEND);
    Files.writeString(file, "partition: [order_date]\n", StandardOpenOption.APPEND);

    assertThatThrownBy(() -> TableSpecLoader.load(file))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("key 'partition' appears twice");
  }

  private Path write(String fileName, String table) throws IOException {
    Path file = dir.resolve(fileName);
    Files.writeString(file, "table: " + table + "\nschema: [{name: id, type: long}]\n");
    return file;
  }
}
