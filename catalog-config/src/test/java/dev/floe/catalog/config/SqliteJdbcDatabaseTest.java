package dev.floe.catalog.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A jdbc catalog on a local SQLite file is guarded as the embedded home is: SQLite's driver creates
 * a file that is missing, so a mistyped uri used to open a new, empty catalog.
 */
class SqliteJdbcDatabaseTest {
  @TempDir Path dir;

  private CatalogConfig jdbc(Path database) {
    return jdbcUri("jdbc:sqlite:" + database);
  }

  private CatalogConfig jdbcUri(String uri) {
    return CatalogConfigLoader.load(
        null,
        dir.resolve("home"),
        Map.of("type", "jdbc", "uri", uri, "warehouse", dir.resolve("wh").toString()),
        Map.of());
  }

  @Test
  void aCommandThatOnlyUsesWhatExistsRefusesAMissingDatabaseNamingItAndCreatesNothing() {
    Path typo = dir.resolve("catt.db");

    for (Runnable opening :
        new Runnable[] {
          () -> Catalogs.open(jdbc(typo).existingHomeOnly()),
          () -> Catalogs.requireHome(jdbc(typo).existingHomeOnly())
        }) {
      assertThatThrownBy(opening::run)
          .isInstanceOf(InvalidInputException.class)
          .hasMessage(
              "Cannot open the catalog: its SQLite database "
                  + typo
                  + " does not exist (catalog.properties.uri jdbc:sqlite:"
                  + typo
                  + "); correct the uri, or create the catalog with `floe tables apply` (without"
                  + " --dry-run)");
    }
    assertThat(typo).doesNotExist();
  }

  @Test
  void aCommandThatCreatesTablesCreatesTheDatabaseAndReadsFindItThen() {
    Path database = dir.resolve("catalog.db");
    Catalog created = Catalogs.open(jdbc(database));
    Catalogs.close(created);
    assertThat(database).exists();

    Catalog read = Catalogs.open(jdbc(database).existingHomeOnly());
    try {
      assertThat(((SupportsNamespaces) read).listNamespaces(Namespace.empty())).isEmpty();
    } finally {
      Catalogs.close(read);
    }
  }

  @Test
  void theDatabaseFileIsTheOneSqlitesDriverOpens() throws Exception {
    Files.createDirectories(dir.resolve("my dir"));
    // SQLite decodes %20 in a file: URI name: the apply created "my dir/catalog.db", and every
    // read then looked for "my%20dir/catalog.db" and was refused.
    String escaped = "jdbc:sqlite:file:" + dir.resolve("my%20dir").resolve("catalog.db");
    Catalogs.close(Catalogs.open(jdbcUri(escaped)));
    assertThat(dir.resolve("my dir").resolve("catalog.db")).exists();
    Catalogs.close(Catalogs.open(jdbcUri(escaped).existingHomeOnly()));
    Catalogs.close(
        Catalogs.open(
            jdbcUri("jdbc:sqlite:file://localhost" + dir.resolve("my dir").resolve("catalog.db"))
                .existingHomeOnly()));

    // A prefix in another case is the same driver: a typo there was created empty.
    Path typo = dir.resolve("typo.db");
    assertThatThrownBy(() -> Catalogs.open(jdbcUri("JDBC:SQLITE:" + typo).existingHomeOnly()))
        .isInstanceOf(InvalidInputException.class);
    assertThat(typo).doesNotExist();
    // A database in memory has no file to look for.
    assertThat(Catalogs.holdsNoCatalog(jdbcUri("jdbc:sqlite:file:memdb1?mode=memory&cache=shared")))
        .isFalse();
  }

  @Test
  void aDryRunOnAMissingDatabaseSeesNoCatalogAsOnANewHome() {
    Path fresh = dir.resolve("fresh.db");

    assertThat(Catalogs.holdsNoCatalog(jdbc(fresh).existingHomeOnly())).isTrue();
    assertThat(fresh).doesNotExist();
    // journal_mode=memory keeps the database on disk (only mode=memory does not): it was taken
    // for a database in memory, and a mistyped file was created empty again.
    assertThat(
            Catalogs.holdsNoCatalog(
                jdbcUri("jdbc:sqlite:" + fresh + "?journal_mode=MEMORY").existingHomeOnly()))
        .isTrue();
    // In a folder that does not exist the apply itself fails: the dry run refuses too.
    assertThat(Catalogs.holdsNoCatalog(jdbc(dir.resolve("nope").resolve("c.db")))).isFalse();
  }
}
