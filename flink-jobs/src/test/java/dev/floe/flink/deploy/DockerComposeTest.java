package dev.floe.flink.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.deploy.ImageLayout;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docker/docker-compose.yml and docker/floe.yaml against the image, Floe and Iceberg. */
class DockerComposeTest {
  private static final List<String> FLINK_SERVICES = List.of("jobmanager", "taskmanager");
  private static final String REST_FIXTURE_PREFIX = "CATALOG_";

  @TempDir Path home;

  private final JsonNode compose = DockerFiles.compose();

  @Test
  void pinsEveryImageToATag() {
    compose
        .path("services")
        .fields()
        .forEachRemaining(
            s -> {
              String image = s.getValue().path("image").asText();
              String tag = image.substring(image.lastIndexOf('/') + 1);
              assertThat(tag).as("image of service %s", s.getKey()).contains(":");
              assertThat(tag.substring(tag.indexOf(':') + 1))
                  .as("tag of service %s", s.getKey())
                  .isNotBlank()
                  .isNotEqualTo("latest");
            });
  }

  @Test
  void runsTheFlinkClusterFromTheFloeImageBuiltByDockerfile() {
    JsonNode build = DockerFiles.service("jobmanager").path("build");
    Path context = DockerFiles.docker().resolve(build.path("context").asText()).normalize();
    assertThat(context).isEqualTo(DockerFiles.root());
    assertThat(context.resolve(build.path("dockerfile").asText()))
        .isEqualTo(DockerFiles.docker().resolve("Dockerfile"));
    assertThat(DockerFiles.withDefaults(build.path("args").path("PROJECT_DIR").asText()))
        .isEqualTo(DockerFiles.dockerfile().runtime().argDefaults().get("PROJECT_DIR"));

    for (String name : FLINK_SERVICES) {
      JsonNode service = DockerFiles.service(name);
      assertThat(service.path("image").asText()).as(name).isEqualTo(ImageLayout.defaultImage());
      assertThat(service.path("command").asText()).as(name).isEqualTo(name);
      JsonNode flink =
          DockerFiles.yaml(DockerFiles.environment(service).getOrDefault("FLINK_PROPERTIES", ""));
      // The TaskManager registers at this address: it must be the JobManager's service name.
      assertThat(flink.path("jobmanager.rpc.address").asText()).as(name).isEqualTo("jobmanager");
    }
    assertThat(
            DockerFiles.yaml(
                    DockerFiles.environment(DockerFiles.service("taskmanager"))
                        .get("FLINK_PROPERTIES"))
                .path("taskmanager.numberOfTaskSlots")
                .asInt())
        .isPositive();
  }

  @Test
  void publishesFlinkMinioAndTheRestCatalog() {
    assertThat(containerPorts("jobmanager")).contains(8081);
    assertThat(containerPorts("minio")).contains(9000);
    assertThat(containerPorts("rest")).contains(8181);
  }

  @Test
  void floeYamlLoadsWithoutCredentialsAndPointsAtTheComposeServices() {
    Path file = DockerFiles.docker().resolve("floe.yaml");
    CatalogConfig config = CatalogConfigLoader.load(file, home, Map.of(), Map.of());

    assertThat(config.type()).isEqualTo("rest");
    assertThat(config.properties().keySet())
        .noneMatch(
            k -> CatalogConfig.isSecret(k) || k.toLowerCase(Locale.ROOT).contains("access-key"));
    assertThat(config.properties().keySet()).allMatch(IcebergProperties::isKnown);
    assertThat(config.properties().get(CatalogProperties.FILE_IO_IMPL))
        .isEqualTo("org.apache.iceberg.aws.s3.S3FileIO");

    URI catalog = URI.create(config.properties().get(CatalogProperties.URI));
    assertThat(catalog.getHost()).isEqualTo("rest");
    assertThat(containerPorts("rest")).contains(catalog.getPort());
    URI s3 = URI.create(config.properties().get(S3FileIOProperties.ENDPOINT));
    assertThat(s3.getHost()).isEqualTo("minio");
    assertThat(containerPorts("minio")).contains(s3.getPort());
  }

  @Test
  void floeCatalogVariablesBecomeTheS3CredentialsFloeAndIcebergRead() {
    Path file = DockerFiles.docker().resolve("floe.yaml");
    Set<String> fromFile =
        CatalogConfigLoader.load(file, home, Map.of(), Map.of()).properties().keySet();
    for (String name : FLINK_SERVICES) {
      Map<String, String> env = DockerFiles.environment(DockerFiles.service(name));
      long floeVariables = env.keySet().stream().filter(k -> k.startsWith("FLOE_CATALOG_")).count();
      Map<String, String> properties =
          new HashMap<>(CatalogConfigLoader.load(file, home, Map.of(), env).properties());
      properties.keySet().removeAll(fromFile);

      assertThat(properties).as(name).hasSize((int) floeVariables);
      assertThat(properties.keySet()).as(name).allMatch(IcebergProperties::isKnown);
      assertThat(properties)
          .as(name)
          .containsKeys(S3FileIOProperties.ACCESS_KEY_ID, S3FileIOProperties.SECRET_ACCESS_KEY);
    }
  }

  @Test
  void restCatalogVariablesAreIcebergPropertiesOnTheSameWarehouse() {
    Map<String, String> env = DockerFiles.environment(DockerFiles.service("rest"));
    Map<String, String> properties = new HashMap<>();
    env.forEach(
        (key, value) -> {
          if (key.startsWith(REST_FIXTURE_PREFIX)) {
            properties.put(restFixtureProperty(key), value);
          }
        });
    assertThat(properties.keySet()).isNotEmpty().allMatch(IcebergProperties::isKnown);
    assertThat(env).containsKeys("AWS_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY");

    Map<String, String> floe =
        CatalogConfigLoader.load(
                DockerFiles.docker().resolve("floe.yaml"), home, Map.of(), Map.of())
            .properties();
    for (String shared :
        List.of(
            CatalogProperties.WAREHOUSE_LOCATION,
            CatalogProperties.FILE_IO_IMPL,
            S3FileIOProperties.ENDPOINT,
            S3FileIOProperties.PATH_STYLE_ACCESS)) {
      assertThat(properties.get(shared)).as(shared).isEqualTo(floe.get(shared));
    }
    String bucket = URI.create(floe.get(CatalogProperties.WAREHOUSE_LOCATION)).getHost();
    String createBucket = DockerFiles.service("create-bucket").path("command").toString();
    assertThat(createBucket).contains("mc mb --ignore-existing local/" + bucket);
  }

  @Test
  void secretsComeFromTheCallersEnvironmentNotFromTheFile() {
    compose
        .path("services")
        .fields()
        .forEachRemaining(
            s ->
                s.getValue()
                    .path("environment")
                    .fields()
                    .forEachRemaining(
                        e -> {
                          if (DockerfileTest.looksSecret(e.getKey())
                              || e.getKey().endsWith("_PASSWORD")
                              || e.getKey().endsWith("_USER")) {
                            assertThat(DockerFiles.isInterpolated(e.getValue().asText()))
                                .as("%s of service %s", e.getKey(), s.getKey())
                                .isTrue();
                          }
                        }));
  }

  @Test
  void theRestFixtureMappingIsNotFloes() {
    // The two conventions are opposite; a Floe-style name given to the fixture must not pass.
    assertThat(restFixtureProperty("CATALOG_S3_PATH__STYLE__ACCESS"))
        .isEqualTo(S3FileIOProperties.PATH_STYLE_ACCESS);
    assertThat(IcebergProperties.isKnown(restFixtureProperty("CATALOG_S3__ENDPOINT"))).isFalse();
  }

  /**
   * How Iceberg's REST fixture names a property (RCKUtils.environmentCatalogConfig in
   * iceberg-open-api's test fixtures): prefix dropped, {@code __} becomes {@code -}, {@code _}
   * becomes {@code .}, lower case. Floe's own FLOE_CATALOG_* mapping is the other way round.
   */
  static String restFixtureProperty(String variable) {
    return variable
        .replaceFirst(REST_FIXTURE_PREFIX, "")
        .replaceAll("__", "-")
        .replaceAll("_", ".")
        .toLowerCase(Locale.ROOT);
  }

  /** The container side of a service's {@code ports} ("9000:9000" or "127.0.0.1:9000:9000"). */
  private List<Integer> containerPorts(String name) {
    List<Integer> ports = new ArrayList<>();
    for (JsonNode port : DockerFiles.service(name).path("ports")) {
      String[] parts = port.asText().split(":");
      ports.add(Integer.parseInt(parts[parts.length - 1].split("/")[0]));
    }
    return ports;
  }
}
