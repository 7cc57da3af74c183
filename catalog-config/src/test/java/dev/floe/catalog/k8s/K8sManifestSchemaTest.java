package dev.floe.catalog.k8s;

import static dev.floe.catalog.k8s.Resources.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every key of every resource `floe k8s` renders, and of every example in docker/k8s/, is one the
 * Flink Kubernetes Operator's CRDs (release 1.14.0) allow, with a value of the CRD's type and enum
 * (operator-crd-keys.yaml holds the copied key sets). No cluster exists here to apply them; this is
 * what keeps them appliable.
 */
class K8sManifestSchemaTest {
  private static final OperatorSchema SCHEMA = OperatorSchema.load();
  private static final String VERSION = "0.1.0-test+abc1234";
  private static final ClusterSettings CLUSTER = ClusterSettings.defaults("floe:0.1.0-test");

  @Test
  void everyRenderedResourceFitsTheOperatorsCrds() {
    Map<String, Map<String, Object>> rendered = renderedVariety();

    assertThat(rendered).hasSize(5 + 31 + 2);
    rendered.forEach((what, resource) -> assertThat(SCHEMA.problems(resource)).as(what).isEmpty());
  }

  @Test
  void theFlinkVersionsARenderAcceptsAreTheCrdsOfTheJarsMajorVersion() {
    assertThat(FlinkVersions.OPERATOR_VERSIONS)
        .isEqualTo(SCHEMA.enumOf("FlinkDeployment", "spec.flinkVersion"));
    assertThat(FlinkVersions.accepted()).contains(FlinkVersions.current());
    String major = "v" + FlinkVersions.buildFlinkVersion().split("\\.")[0] + "_";
    assertThat(FlinkVersions.accepted())
        .isNotEmpty()
        .allMatch(v -> v.startsWith(major))
        .containsAll(
            FlinkVersions.OPERATOR_VERSIONS.stream().filter(v -> v.startsWith(major)).toList());
    for (String refused : List.of("v3_0", "v1_20", "v2_9", "2.1", "")) {
      assertThatThrownBy(() -> FlinkVersions.requireAccepted(refused))
          .as(refused)
          .isInstanceOf(InvalidInputException.class)
          .hasMessageStartingWith("Cannot render with --flink-version " + refused + ":");
    }
  }

  @Test
  void everyExampleInDockerK8sFitsTheCrds() throws IOException {
    Path dir = Path.of("..", "docker", "k8s");
    List<Path> files;
    try (Stream<Path> listing = Files.list(dir)) {
      files = listing.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }

    assertThat(files).hasSizeGreaterThanOrEqualTo(5);
    for (Path file : files) {
      List<Map<String, Object>> documents =
          Resources.parse(Files.readString(file, StandardCharsets.UTF_8));
      assertThat(documents).as(file.toString()).isNotEmpty();
      for (Map<String, Object> document : documents) {
        assertThat(SCHEMA.problems(document)).as(file.toString()).isEmpty();
        if (!"Secret".equals(document.get("kind"))) {
          assertNamedForTheOperator(file.toString(), document);
          assertNoSecretValue(file.toString(), document);
        }
      }
    }
  }

  @Test
  void namesAreWhatTheOperatorAcceptsAndArgsCarryTheSlice() {
    renderedVariety()
        .forEach(
            (what, resource) -> {
              assertNamedForTheOperator(what, resource);
              Map<String, String> annotations = at(resource, "metadata.annotations");
              String slice = annotations == null ? null : annotations.get("floe.dev/slice-value");
              if (slice != null) {
                List<String> args = at(resource, "spec.job.args");
                assertThat(args).as(what).containsSubsequence("--slice", slice);
              }
            });
  }

  @Test
  void noSecretValueIsRendered() {
    renderedVariety().forEach(K8sManifestSchemaTest::assertNoSecretValue);
  }

  /** The check itself must be able to fail, or the tests above prove nothing. */
  @Test
  void theSchemaCheckFindsWhatTheOperatorWouldRefuse() {
    String good =
        K8sRender.slice(
                Resources.dailyJob(), "2026-10-03", RenderOptions.application(CLUSTER, VERSION))
            .yaml();
    assertThat(SCHEMA.problems(Resources.parse(good).get(0))).isEmpty();

    assertThat(problems(good, "    upgradeMode: stateless", "    upgradeMode: last_state"))
        .singleElement()
        .asString()
        .contains("spec.job.upgradeMode", "last_state");
    assertThat(problems(good, "    entryClass:", "    entrypointClass:"))
        .singleElement()
        .asString()
        .contains("spec.job.entrypointClass: unknown key");
    assertThat(problems(good, "    resource:\n      cpu", "    resources:\n      cpu"))
        .isNotEmpty()
        .allSatisfy(p -> assertThat(p).contains("resources: unknown key"));
    assertThat(problems(good, "      - \"2026-10-03\"", "      - 2026-10-03"))
        .singleElement()
        .asString()
        .contains("spec.job.args[]: expected a string, got Date");
    assertThat(
            problems(
                good,
                "    taskmanager.numberOfTaskSlots: \"1\"",
                "    taskmanager.numberOfTaskSlots: 1"))
        .singleElement()
        .asString()
        .contains("spec.flinkConfiguration.taskmanager.numberOfTaskSlots: expected a string");
    assertThat(problems(good, "  flinkVersion: v2_1", "  flinkVersion: v2_9"))
        .singleElement()
        .asString()
        .contains("v2_9");
    assertThat(problems(good, "    kind: Pod\n", "    kind: Pod\n    status: {phase: Running}\n"))
        .singleElement()
        .asString()
        .contains("spec.podTemplate.status: not covered");
    assertThat(SCHEMA.namePattern().matcher("floe-" + "x".repeat(41)).matches()).isFalse();
    assertThat(SCHEMA.namePattern().matcher("9floe").matches()).isFalse();
  }

  private static List<String> problems(String yaml, String from, String to) {
    assertThat(yaml).contains(from);
    return SCHEMA.problems(Resources.parse(yaml.replace(from, to)).get(0));
  }

  /** A resource of every shape `floe k8s` renders, keyed by what it is. */
  private static Map<String, Map<String, Object>> renderedVariety() {
    ClusterSettings full =
        new ClusterSettings(
                "registry.example.com/floe:7",
                "IfNotPresent",
                "data",
                "floe-runner",
                FlinkVersions.current(),
                new PodResources(0.5, "1g"),
                new PodResources(2, "4096m"),
                4,
                SecretEnv.s3("warehouse"),
                Map.of("restart-strategy.type", "none"))
            .withSecretEnv(
                List.of(SecretEnv.parse("FLOE_CATALOG_JDBC__PASSWORD=floe-db/password")));
    RenderOptions application = RenderOptions.application(CLUSTER, VERSION);
    RenderOptions session =
        application.withSubmission(Submission.session("floe-session", "s3://bucket/floe.jar"));
    Path merge = Resources.examples().resolve("jobs/dim_customer_merge.yaml");
    Path january = Resources.examples().resolve("backfills/orders_january.yaml");

    Map<String, Rendered> all = new LinkedHashMap<>();
    all.put("deployment", K8sRender.slice(Resources.dailyJob(), "2026-10-03", application));
    all.put(
        "deployment, every option",
        K8sRender.slice(
            Resources.dailyJob(),
            "2026-10-03",
            new RenderOptions(null, full, Submission.application(), 8, VERSION)));
    all.put("deployment, whole table", K8sRender.slice(merge, null, application));
    all.put("session job", K8sRender.slice(Resources.dailyJob(), "2026-10", session));
    all.put("session cluster", K8sRender.sessionCluster("floe-session", full));
    all.put("backfill", K8sRender.backfill(BackfillRender.of(january), application));
    all.put(
        "session backfill",
        K8sRender.backfill(BackfillRender.of(Resources.dailyJob(), "2026", "2028"), session));

    Map<String, Map<String, Object>> resources = new LinkedHashMap<>();
    all.forEach(
        (what, rendered) -> {
          List<Map<String, Object>> yaml = Resources.parse(rendered.yaml());
          for (int i = 0; i < yaml.size(); i++) {
            resources.put(what + " #" + i, yaml.get(i));
          }
          // --json prints the same resources; a v1 List holds several.
          Map<String, Object> json = Resources.parse(rendered.json()).get(0);
          List<Map<String, Object>> items = new ArrayList<>();
          if ("List".equals(json.get("kind"))) {
            items.addAll(at(json, "items"));
          } else {
            items.add(json);
          }
          assertThat(items).as(what + " as JSON").isEqualTo(yaml);
        });
    return resources;
  }

  private static void assertNamedForTheOperator(String what, Map<String, Object> resource) {
    String name = at(resource, "metadata.name");
    assertThat(name).as(what).hasSizeLessThanOrEqualTo(63).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    assertThat(SCHEMA.namePattern().matcher(name).matches()).as(what + ": " + name).isTrue();
    if ("FlinkSessionJob".equals(resource.get("kind"))) {
      String cluster = at(resource, "spec.deploymentName");
      assertThat(SCHEMA.namePattern().matcher(cluster).matches()).as(what).isTrue();
    }
  }

  /** Credentials reach the pods only by reference: every variable is a secretKeyRef. */
  private static void assertNoSecretValue(String what, Map<String, Object> resource) {
    Map<String, Object> template = at(resource, "spec.podTemplate");
    if (template == null) {
      return;
    }
    List<Map<String, Object>> containers = at(template, "spec.containers");
    for (Map<String, Object> container : containers) {
      @SuppressWarnings("unchecked")
      List<Map<String, Object>> env = (List<Map<String, Object>>) container.get("env");
      assertThat(env)
          .as(what)
          .allSatisfy(
              e -> {
                assertThat(e).containsOnlyKeys("name", "valueFrom");
                assertThat((Map<String, Object>) at(e, "valueFrom"))
                    .containsOnlyKeys("secretKeyRef");
              });
    }
  }
}
