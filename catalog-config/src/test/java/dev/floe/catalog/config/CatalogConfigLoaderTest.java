package dev.floe.catalog.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.testing.TableRows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CatalogConfigLoaderTest {
  private static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  private static final String PASSWORD = "hunter2-but-longer";

  @TempDir Path dir;

  @Test
  void theEmbeddedDefaultIsSqliteUnderTheHomeWithAWarehouseBesideIt() {
    Path home = dir.resolve("floe-home");

    CatalogConfig config = CatalogConfigLoader.embedded(home);

    Path absolute = home.toAbsolutePath().normalize();
    assertThat(config.name()).isEqualTo("floe");
    assertThat(config.type()).isEqualTo("embedded");
    assertThat(config.properties())
        .contains(
            entry("uri", "jdbc:sqlite:" + absolute.resolve("catalog.db")),
            entry("warehouse", absolute.resolve("warehouse").toUri().toString()),
            entry("jdbc.schema-version", "V1"),
            entry("catalog-impl", "org.apache.iceberg.jdbc.JdbcCatalog"));
  }

  @Test
  void aHomeWhosePathHoldsASpaceHashOrPercentKeepsItsTablesInsideIt() throws IOException {
    Path home = dir.resolve("emb dir/home #1 50%");
    Files.createDirectories(home);
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    Catalog catalog = Catalogs.open(config);
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("s"));
      Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
      Table table = catalog.createTable(TableIdentifier.of("s", "t"), schema);
      table
          .newAppend()
          .appendFile(TableRows.write(table, TableRows.row(table, Map.of("id", 1L))))
          .commit();
      assertThat(Files.exists(home.resolve("warehouse/s/t/metadata"))).isTrue();
      assertThat(Files.exists(dir.resolve("emb%20dir"))).isFalse();
      try (var files = Files.list(home.resolve("warehouse/s/t/data"))) {
        assertThat(files.filter(f -> f.toString().endsWith(".parquet"))).hasSize(1);
      }
    } finally {
      Catalogs.close(catalog);
    }
  }

  @Test
  void aRelativeHomeIsMadeAbsolute() {
    CatalogConfig config = CatalogConfigLoader.embedded(Path.of(".floe"));

    assertThat(config.properties().get("uri"))
        .isEqualTo("jdbc:sqlite:" + Path.of(".floe").toAbsolutePath().normalize() + "/catalog.db");
  }

  @Test
  void withoutAnySettingTheLoaderGivesTheEmbeddedDefault() throws IOException {
    Path file = write("catalog: {}\n");

    CatalogConfig config = CatalogConfigLoader.load(file, dir, Map.of(), Map.of());

    assertThat(config).isEqualTo(CatalogConfigLoader.embedded(dir));
  }

  @Test
  void theCatalogNameIsReadAsTheFileSpellsIt() throws IOException {
    Path file = write("catalog:\n  type: rest\n  name: 0755\n  properties: {uri: http://r}\n");

    CatalogConfig config = CatalogConfigLoader.load(file, dir, Map.of(), Map.of());

    assertThat(config.name()).isEqualTo("0755"); // YAML 1.1 reads 493
  }

  @Test
  void readsTypeNameAndPropertiesFromFloeYaml() throws IOException {
    Path file =
        write(
            """
            catalog:
              type: rest
              name: lake
              properties:
                uri: http://rest:8181
                warehouse: s3://warehouse/
                s3.path-style-access: true
                client.max-retries: 3
            """);

    CatalogConfig config = CatalogConfigLoader.load(file, dir, Map.of(), Map.of());

    assertThat(config.name()).isEqualTo("lake");
    assertThat(config.type()).isEqualTo("rest");
    assertThat(config.properties())
        .containsExactly(
            entry("catalog-impl", "org.apache.iceberg.rest.RESTCatalog"),
            entry("client.max-retries", "3"),
            entry("s3.path-style-access", "true"),
            entry("uri", "http://rest:8181"),
            entry("warehouse", "s3://warehouse/"));
  }

  @Test
  void aRelativeWarehouseInFloeYamlIsReadAgainstTheFilesFolderNotTheWorkingDirectory()
      throws IOException {
    Path project = Files.createDirectories(dir.resolve("project"));
    Path file = project.resolve("floe.yaml");
    Files.writeString(
        file, "catalog: {type: hadoop, properties: {warehouse: ./lake/../warehouse}}\n");

    CatalogConfig config = CatalogConfigLoader.load(file, dir, Map.of(), Map.of());

    assertThat(config.properties().get("warehouse"))
        .isEqualTo(project.toAbsolutePath().resolve("warehouse").toString());
  }

  @Test
  void aRelativeWarehouseFromTheCommandLineIsMadeAbsoluteAgainstTheWorkingDirectory() {
    CatalogConfig config =
        CatalogConfigLoader.load(null, dir, Map.of("type", "hadoop", "warehouse", "wh"), Map.of());

    assertThat(config.properties().get("warehouse"))
        .isEqualTo(Path.of("wh").toAbsolutePath().toString());
  }

  @Test
  void aRestCatalogsWarehouseIsPassedAsWrittenItMayBeACatalogName() throws IOException {
    Path project = Files.createDirectories(dir.resolve("project"));
    Path file = project.resolve("floe.yaml");
    Files.writeString(
        file,
        "catalog: {type: rest, properties: {uri: http://127.0.0.1:8181, warehouse:"
            + " analytics_prod}}\n");

    assertThat(
            CatalogConfigLoader.load(file, dir, Map.of(), Map.of()).properties().get("warehouse"))
        .isEqualTo("analytics_prod");
    assertThat(
            CatalogConfigLoader.load(file, dir, Map.of("warehouse", "other/wh"), Map.of())
                .properties()
                .get("warehouse"))
        .isEqualTo("other/wh");
    // The same words for a catalog whose warehouse is a place are a folder beside floe.yaml.
    assertThat(
            CatalogConfigLoader.load(file, dir, Map.of("type", "hadoop"), Map.of())
                .properties()
                .get("warehouse"))
        .isEqualTo(project.toAbsolutePath().resolve("analytics_prod").toString());
  }

  @Test
  void aHadoopCatalogWithoutAWarehouseIsRefusedWhenLoaded() {
    assertThatThrownBy(
            () -> CatalogConfigLoader.load(null, dir, Map.of("type", "hadoop"), Map.of()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith(
            "Cannot configure catalog: catalog.type 'hadoop' needs the property 'warehouse'");
  }

  @Test
  void aWarehouseStartingWithATildeIsRefusedWithThePathWrittenOut() {
    assertThatThrownBy(
            () ->
                CatalogConfigLoader.load(
                    null, dir, Map.of("type", "hadoop", "warehouse", "~/lake"), Map.of()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot use catalog.properties.warehouse '~/lake': '~' is expanded only by a shell and"
                + " only unquoted; write the path out, e.g. "
                + System.getProperty("user.home")
                + "/lake");
  }

  @Test
  void aWarehouseWithASchemeOrAnAbsolutePathIsKeptAsWritten() {
    for (String location : List.of("s3://bucket/wh", "file:///srv/wh", "/srv/wh", "hdfs://nn/wh")) {
      CatalogConfig config =
          CatalogConfigLoader.load(
              null, dir, Map.of("type", "hadoop", "warehouse", location), Map.of());
      assertThat(config.properties().get("warehouse")).as(location).isEqualTo(location);
    }
  }

  @Test
  void catalogPropertiesKeepTheirSpellingButBooleansAndUnparseableNumbersTakeYamlsReading() {
    Path file =
        write(
            """
            catalog:
              type: rest
              properties:
                uri: http://rest:8181
                s3.path-style-access: on
                cache-enabled: yes
                client.pool.size: 1_000
                header.x-version: 1.10
                owner: 0755
            """);

    CatalogConfig config = CatalogConfigLoader.load(file, dir, Map.of(), Map.of());

    assertThat(config.properties())
        .containsEntry("s3.path-style-access", "true")
        .containsEntry("cache-enabled", "true")
        .containsEntry("client.pool.size", "1000")
        .containsEntry("header.x-version", "1.10")
        .containsEntry("owner", "0755");
  }

  @Test
  void mapsFloeCatalogEnvironmentVariablesToIcebergProperties() throws IOException {
    Path file = write("catalog: {type: rest, properties: {uri: http://rest:8181}}\n");
    Map<String, String> env =
        Map.of(
            "FLOE_CATALOG_S3__SECRET_ACCESS_KEY", SECRET,
            "FLOE_CATALOG_S3__ACCESS_KEY_ID", "AKIAEXAMPLE",
            "FLOE_CATALOG_S3__ENDPOINT", "http://minio:9000",
            "FLOE_CATALOG_IO_IMPL", "org.apache.iceberg.aws.s3.S3FileIO",
            "FLOE_CATALOG_", "ignored: no key",
            "FLOE_HOME", "/elsewhere",
            "PATH", "/usr/bin");

    CatalogConfig config = CatalogConfigLoader.load(file, dir, Map.of(), env);

    assertThat(config.properties())
        .containsExactly(
            entry("catalog-impl", "org.apache.iceberg.rest.RESTCatalog"),
            entry("io-impl", "org.apache.iceberg.aws.s3.S3FileIO"),
            entry("s3.access-key-id", "AKIAEXAMPLE"),
            entry("s3.endpoint", "http://minio:9000"),
            entry("s3.secret-access-key", SECRET),
            entry("uri", "http://rest:8181"));
  }

  @Test
  void floeCatalogTypeSetsTheTypeAndANameFromTheEnvironmentIsRefusedNotPassedOn() {
    CatalogConfig config =
        CatalogConfigLoader.load(
            null,
            dir.resolve("h"),
            Map.of(),
            Map.of("FLOE_CATALOG_TYPE", "rest", "FLOE_CATALOG_URI", "http://127.0.0.1:8181"));

    assertThat(config.type()).isEqualTo("rest");
    assertThat(config.properties()).doesNotContainKey("type");
    assertThatThrownBy(
            () ->
                CatalogConfigLoader.load(
                    null, dir.resolve("h"), Map.of(), Map.of("FLOE_CATALOG_NAME", "other")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith(
            "Cannot configure catalog: 'name' is not a catalog property (from FLOE_CATALOG_NAME");
    assertThatThrownBy(
            () ->
                CatalogConfigLoader.load(null, dir.resolve("h"), Map.of("name", "other"), Map.of()))
        .isInstanceOf(InvalidInputException.class);
  }

  @Test
  void laterSourcesWinFileThenEnvironmentThenCommandLine() throws IOException {
    Path file =
        write(
            """
            catalog:
              type: jdbc
              properties: {uri: "jdbc:postgresql://file/db", warehouse: s3://file/, jdbc.user: file}
            """);
    Map<String, String> env =
        Map.of("FLOE_CATALOG_URI", "jdbc:postgresql://env/db", "FLOE_CATALOG_JDBC__USER", "env");
    Map<String, String> overrides = Map.of("uri", "jdbc:postgresql://flag/db");

    CatalogConfig config = CatalogConfigLoader.load(file, dir, overrides, env);

    assertThat(config.type()).isEqualTo("jdbc");
    assertThat(config.properties())
        .contains(
            entry("uri", "jdbc:postgresql://flag/db"),
            entry("jdbc.user", "env"),
            entry("warehouse", "s3://file/"));
  }

  @Test
  void aCatalogPropertyCanChooseTheType() throws IOException {
    Path file = write("catalog: {type: embedded}\n");

    CatalogConfig config =
        CatalogConfigLoader.load(
            file, dir, Map.of("type", "hadoop", "warehouse", "file:///tmp/wh"), Map.of());

    assertThat(config.type()).isEqualTo("hadoop");
    assertThat(config.properties())
        .containsExactly(
            entry("catalog-impl", "org.apache.iceberg.hadoop.HadoopCatalog"),
            entry("warehouse", "file:///tmp/wh"));
  }

  @Test
  void anEmbeddedCatalogKeepsUserPropertiesOverItsDefaults() throws IOException {
    Path file = write("catalog: {properties: {jdbc.busy_timeout: '1000'}}\n");

    CatalogConfig config = CatalogConfigLoader.load(file, dir, Map.of(), Map.of());

    assertThat(config.properties()).containsEntry("jdbc.busy_timeout", "1000");
    assertThat(config.properties()).containsEntry("jdbc.schema-version", "V1");
  }

  @Test
  void refusesAUriForTheEmbeddedCatalogWhoseDatabaseIsTheHomes() {
    Path file = write("catalog: {type: embedded, properties: {uri: 'http://127.0.0.1:8181'}}\n");

    assertThatThrownBy(() -> CatalogConfigLoader.load(file, dir, Map.of(), Map.of()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot configure catalog: the embedded catalog keeps its database in the Floe home"
                + " (FLOE_HOME or --home), so it takes no 'uri' (http://127.0.0.1:8181); set"
                + " catalog.type to jdbc or rest to use it");
  }

  @Test
  void refusesAnUnknownCatalogType() throws IOException {
    Path file = write("catalog: {type: hive}\n");

    assertThatThrownBy(() -> CatalogConfigLoader.load(file, dir, Map.of(), Map.of()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("unknown catalog.type 'hive'")
        .hasMessageContaining("embedded, glue, hadoop, jdbc, rest");
  }

  @Test
  void refusesARestCatalogWithoutAUri() throws IOException {
    Path file = write("catalog: {type: rest, properties: {warehouse: s3://w/}}\n");

    assertThatThrownBy(() -> CatalogConfigLoader.load(file, dir, Map.of(), Map.of()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("catalog.type 'rest' needs the property 'uri'");
  }

  @Test
  void refusesAnUnknownKeyInFloeYamlNamingTheKeyAndTheFile() throws IOException {
    Path file = write("catalog: {type: embedded, warehouse: /tmp/w}\n");

    assertThatThrownBy(() -> CatalogConfigLoader.load(file, dir, Map.of(), Map.of()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("unknown key 'warehouse'")
        .hasMessageContaining(file.toString());
  }

  @Test
  void refusesAnUnknownTopLevelKeyInFloeYaml() throws IOException {
    Path file = write("catalog: {type: embedded}\nflink: {parallelism: 2}\n");

    assertThatThrownBy(() -> CatalogConfigLoader.load(file, dir, Map.of(), Map.of()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("unknown key 'flink'")
        .hasMessageContaining(file.toString());
  }

  @Test
  void refusesAConfigFileThatSetsTheSameKeyTwice() throws IOException {
    Path file =
        write(
            "catalog:\n  type: jdbc\n  properties: {uri: 'jdbc:postgresql://db/c'}\n  type: rest\n");

    assertThatThrownBy(() -> CatalogConfigLoader.load(file, dir, Map.of(), Map.of()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read "
                + file
                + " at 'catalog': key 'type' appears twice, on lines 2 and 4; a key may appear"
                + " once per mapping");
  }

  @Test
  void refusesAConfigFileOverTheSizeLimitNamingItsKind() throws IOException {
    Path file = write("catalog: {type: jdbc}\n" + "#".repeat(2 * 1024 * 1024));

    assertThatThrownBy(() -> CatalogConfigLoader.load(file, dir, Map.of(), Map.of()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read catalog config "
                + file
                + ": it is 2097174 bytes; a manifest may be at most 1048576 bytes");
  }

  @Test
  void refusesAConfigFileThatDoesNotExist() {
    Path file = dir.resolve("missing.yaml");

    assertThatThrownBy(() -> CatalogConfigLoader.load(file, dir, Map.of(), Map.of()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("no such file");
  }

  @Test
  void aFloeYamlInTheWorkingDirectoryThatIsABrokenLinkIsRefusedNotIgnored() throws IOException {
    Path link = Files.createSymbolicLink(dir.resolve("floe.yaml"), dir.resolve("gone/floe.yaml"));

    assertThatThrownBy(() -> CatalogConfigLoader.load(null, link, dir, Map.of(), Map.of()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("floe.yaml")
        .hasMessageContaining("no such file");
  }

  @Test
  void neverShowsSecretValuesInToStringOrRedactedProperties() throws IOException {
    Path file = write("catalog: {type: jdbc, properties: {uri: 'jdbc:postgresql://db/c'}}\n");
    Map<String, String> env =
        Map.of(
            "FLOE_CATALOG_S3__SECRET_ACCESS_KEY",
            SECRET,
            "FLOE_CATALOG_JDBC__PASSWORD",
            PASSWORD,
            "FLOE_CATALOG_S3__SESSION_TOKEN",
            "session-token-value",
            "FLOE_CATALOG_CREDENTIAL",
            "client:credential-value");

    CatalogConfig config = CatalogConfigLoader.load(file, dir, Map.of(), env);

    assertThat(config.properties()).containsEntry("s3.secret-access-key", SECRET);
    assertThat(config.properties()).containsEntry("jdbc.password", PASSWORD);
    assertThat(config.toString())
        .doesNotContain(SECRET, PASSWORD, "session-token-value", "credential-value")
        .contains("s3.secret-access-key=******", "jdbc.password=******")
        .contains("uri=jdbc:postgresql://db/c");
    assertThat(config.redactedProperties().values())
        .doesNotContain(SECRET, PASSWORD, "session-token-value", "client:credential-value");
    assertThat(config.redactedProperties()).containsEntry("uri", "jdbc:postgresql://db/c");
  }

  @Test
  void redactsKeysAndAuthorizationHeadersThatDoNotSaySecret() {
    CatalogConfig config =
        new CatalogConfig(
            "floe",
            "rest",
            Map.of(
                "uri", "http://rest:8181",
                "s3.sse.key", "c3NlLWMtY3VzdG9tZXIta2V5",
                "adls.auth.shared-key.account.key", "YWRscy1zaGFyZWQta2V5",
                "header.Authorization", "Bearer eyJhbGciOi",
                "s3.access-key-id", "AKIAEXAMPLE"));

    assertThat(config.toString())
        .doesNotContain("c3NlLWMtY3VzdG9tZXIta2V5", "YWRscy1zaGFyZWQta2V5", "eyJhbGciOi")
        .contains("s3.access-key-id=AKIAEXAMPLE", "uri=http://rest:8181");
  }

  @Test
  void refusesCredentialsWrittenInFloeYamlAndNamesTheVariableToUseInstead() {
    for (String key : List.of("s3.secret-access-key", "s3.access-key-id", "jdbc.password")) {
      Path file =
          write("catalog: {type: jdbc, properties: {uri: x, " + key + ": " + SECRET + "}}\n");

      assertThatThrownBy(() -> CatalogConfigLoader.load(file, dir, Map.of(), Map.of()))
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("Cannot read catalog property '" + key + "'")
          .hasMessageContaining(CatalogConfigLoader.propertyToEnv(key))
          .hasMessageNotContaining(SECRET);
    }
    assertThat(CatalogConfigLoader.propertyToEnv("s3.secret-access-key"))
        .isEqualTo("FLOE_CATALOG_S3__SECRET_ACCESS_KEY");
    assertThat(CatalogConfigLoader.envToProperty("S3__SECRET_ACCESS_KEY"))
        .isEqualTo("s3.secret-access-key");
  }

  @Test
  void aUserPasswordInAUriIsRefusedFromTheFileAndMaskedInLogs() {
    Path file =
        write(
            "catalog: {type: rest, properties: {uri: 'http://floe:" + PASSWORD + "@rest:8181'}}\n");

    assertThatThrownBy(() -> CatalogConfigLoader.load(file, dir, Map.of(), Map.of()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot read catalog property 'uri'")
        .hasMessageContaining("FLOE_CATALOG_URI")
        .hasMessageNotContaining(PASSWORD);
    CatalogConfig fromEnv =
        CatalogConfigLoader.load(
            write("catalog: {type: rest}\n"),
            dir,
            Map.of(),
            Map.of(
                "FLOE_CATALOG_URI",
                "http://floe:" + PASSWORD + "@rest:8181?a=1&token=" + PASSWORD));
    assertThat(fromEnv.redactedProperties())
        .containsEntry("uri", "http://floe:******@rest:8181?a=1&token=******");
  }

  @Test
  void errorsNeverEchoASecretFromTheEnvironment() {
    Map<String, String> env =
        Map.of("FLOE_CATALOG_TYPE", "nessie", "FLOE_CATALOG_S3__SECRET_ACCESS_KEY", SECRET);

    assertThatThrownBy(() -> CatalogConfigLoader.load(write("catalog: {}\n"), dir, Map.of(), env))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("unknown catalog.type 'nessie'")
        .hasMessageNotContaining(SECRET);
  }

  @Test
  void aFloeYamlThatIsNotValidYamlIsRefusedWithoutEchoingItsLines() {
    Path file = write("catalog:\n  properties:\n    jdbc.password: " + PASSWORD + ": oops\n");

    assertThatThrownBy(() -> CatalogConfigLoader.load(file, dir, Map.of(), Map.of()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("not valid YAML: mapping values are not allowed here")
        .hasMessageContaining("line 3, column")
        .hasMessageNotContaining(PASSWORD)
        .hasMessageNotContaining("hunter2");
  }

  private Path write(String text) {
    try {
      Path file = dir.resolve("floe.yaml");
      Files.writeString(file, text);
      return file;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
