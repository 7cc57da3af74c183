package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.testing.TableRows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `floe maintain T --orphans` on a home whose path has a space (the embedded warehouse is then
 * {@code file:///.../u%20space/warehouse}, which Hadoop writes literally) and a table whose data
 * path goes through a symlinked directory: the live file stays, the table reads the same, and the
 * one real orphan goes.
 */
class MaintainOrphansSpellingsTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path temp;

  @Test
  void orphansKeepALiveFileWrittenThroughASymlinkUnderAHomeWithASpace() throws Exception {
    Path home = Files.createDirectories(temp.resolve("u space"));
    // The table directory as Hadoop wrote it for a home an older Floe made (its warehouse a file:
    // URI with %20, taken literally), and a link to its parent that write.data.path goes through.
    Path tableDir =
        withTable(
            home,
            null,
            ignored -> {
              Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
              try {
                ((SupportsNamespaces) catalog).createNamespace(Namespace.of("s"));
                Table t =
                    catalog
                        .buildTable(TableIdentifier.of("s", "t"), SCHEMA)
                        .withPartitionSpec(PartitionSpec.unpartitioned())
                        .withLocation(home.resolve("warehouse/s/t").toUri().toString())
                        .create();
                return Path.of(new org.apache.hadoop.fs.Path(t.location()).toUri().getPath());
              } finally {
                Catalogs.close(catalog);
              }
            });
    assertThat(tableDir.toString()).contains("u%20space");
    Path link = Files.createSymbolicLink(temp.resolve("alink"), tableDir.getParent());
    String dataPath = link.resolve("t/data").toString();
    String live =
        withTable(
            home,
            "s.t",
            t -> {
              t.updateProperties().set(TableProperties.WRITE_DATA_LOCATION, dataPath).commit();
              DataFile file = TableRows.write(t, TableRows.row(t, Map.of("id", 1L)));
              t.newAppend().appendFile(file).commit();
              return file.location();
            });
    assertThat(live).startsWith(dataPath + "/");
    Path orphan = Files.writeString(tableDir.resolve("data/orphan.parquet"), "orphan");
    try (Stream<Path> files = Files.walk(tableDir)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
      }
    }
    ContentHash content = withTable(home, "s.t", TableContent::hash);

    CliRun run = floe(home, "maintain", "s.t", "--orphans", "--orphan-min-age", "PT1H", "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode deleted = JSON.readTree(run.out()).get("actions").get(0).get("deleted");
    assertThat(deleted).extracting(d -> d.get("path").asText()).containsExactly("file:" + orphan);
    assertThat(orphan).doesNotExist();
    assertThat(Path.of(live)).exists();
    ContentHash after = withTable(home, "s.t", TableContent::hash);
    assertThat(after).isEqualTo(content);
  }

  private static <T> T withTable(Path home, String name, Function<Table, T> action)
      throws IOException {
    if (name == null) {
      return action.apply(null);
    }
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      return action.apply(Catalogs.loadTable(catalog, name));
    } finally {
      Catalogs.close(catalog);
    }
  }
}
