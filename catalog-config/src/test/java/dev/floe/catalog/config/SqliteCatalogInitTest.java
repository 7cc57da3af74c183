package dev.floe.catalog.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteCatalogInitTest {
  private static final int PROBES = 3;
  private static final int ROUNDS = 12;

  @TempDir Path dir;

  @Test
  void processesOpeningANewHomeAtOnceAllSucceed() throws Exception {
    // Every other home holds only the marker of a database that was deleted (a reset by hand).
    for (int round = 1; round < ROUNDS; round += 2) {
      Path home = dir.resolve("home-" + round);
      Files.createDirectories(home);
      Files.createFile(home.resolve("catalog.db.ready"));
    }
    List<Process> processes = new ArrayList<>();
    List<Path> outputs = new ArrayList<>();
    for (int i = 0; i < PROBES; i++) {
      Path out = dir.resolve("probe-" + i + ".out");
      outputs.add(out);
      processes.add(
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  System.getProperty("java.class.path"),
                  CatalogOpenProbe.class.getName(),
                  dir.toString(),
                  String.valueOf(i),
                  String.valueOf(PROBES),
                  String.valueOf(ROUNDS))
              .redirectErrorStream(true)
              .redirectOutput(out.toFile())
              .start());
    }
    for (int i = 0; i < PROBES; i++) {
      Process process = processes.get(i);
      if (!process.waitFor(120, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    }
    for (int i = 0; i < PROBES; i++) {
      String output = Files.readString(outputs.get(i), StandardCharsets.UTF_8);
      assertThat(processes.get(i).exitValue()).as("probe %d: %s", i, output).isZero();
      assertThat(output).contains("opened " + (ROUNDS - 1));
    }
    // A database set up by whichever process won works for the commands after it.
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(dir.resolve("home-0")));
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
      catalog.createTable(
          TableIdentifier.of("sales", "t"),
          new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));
      assertThat(catalog.listTables(Namespace.of("sales")))
          .containsExactly(TableIdentifier.of("sales", "t"));
    } finally {
      Catalogs.close(catalog);
    }
  }

  @Test
  void databaseOfAJdbcSqliteUri() {
    Path db = dir.resolve("catalog.db");
    assertThat(SqliteCatalogInit.database("jdbc:sqlite:" + db)).isEqualTo(db);
    assertThat(SqliteCatalogInit.database("jdbc:sqlite:file:" + db + "?mode=rw")).isEqualTo(db);
    assertThat(SqliteCatalogInit.database("jdbc:sqlite::memory:")).isNull();
    assertThat(SqliteCatalogInit.database("jdbc:sqlite:" + dir.resolve("missing/catalog.db")))
        .isNull();
    assertThat(SqliteCatalogInit.database("jdbc:postgresql://localhost/floe")).isNull();
  }
}
