package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.examples;
import static dev.floe.flink.cli.K8sCommandTest.k8s;
import static dev.floe.flink.cli.K8sCommandTest.single;
import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.k8s.SecretEnv;
import dev.floe.catalog.lineage.CodeVersion;
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
 * The example manifests in docker/k8s/ are the output of `floe k8s` on examples/, and must stay so:
 * this test renders them again and compares. Run with {@code -Dfloe.docs.update=true} it rewrites
 * them instead ({@link #REGENERATE_COMMAND}).
 *
 * <p>A run key includes the code version, which includes the commit: rendered with the real one,
 * every commit would change the examples. They are rendered with {@code --code-version} set to the
 * version without its commit part ({@link #EXAMPLE_CODE_VERSION}), and say so in their header.
 */
class K8sExamplesTest {
  static final String REGENERATE_COMMAND =
      "./mvnw -B -o -q -pl catalog-config,flink-jobs test -Dtest=K8sExamplesTest"
          + " -Dfloe.docs.update=true -Dsurefire.failIfNoSpecifiedTests=false";
  private static final String UPDATE_PROPERTY = "floe.docs.update";
  private static final String EXAMPLE_CODE_VERSION = CodeVersion.current().split("\\+")[0];
  private static final String JAR_URI = "https://artifacts.example.com/floe/floe.jar";
  private static final String DAILY = "examples/jobs/fact_orders_daily.yaml";
  private static final String SECRET_EXAMPLE = "secret-example.yaml";

  /** File name → the `floe k8s` arguments that render it (paths relative to the repository). */
  private static Map<String, List<String>> examplesToRender() {
    Map<String, List<String>> files = new LinkedHashMap<>();
    files.put(
        "fact-orders-daily-2026-10-03.yaml", List.of("render", DAILY, "--slice", "2026-10-03"));
    files.put(
        "fact-orders-daily-2026-10-03-session-job.yaml",
        List.of(
            "render",
            DAILY,
            "--slice",
            "2026-10-03",
            "--session-cluster",
            "floe-session",
            "--jar-uri",
            JAR_URI));
    files.put("session-cluster.yaml", List.of("render-session-cluster", "floe-session"));
    files.put(
        "fact-orders-daily-backfill.yaml",
        List.of(
            "render-backfill",
            DAILY,
            "--from",
            "2026-01-01",
            "--to",
            "2026-01-04",
            "--max-concurrency",
            "2"));
    return files;
  }

  @Test
  void theExamplesAreWhatFloeK8sRendersToday() throws IOException {
    Path dir = repositoryRoot().resolve("docker/k8s");
    boolean update = Boolean.getBoolean(UPDATE_PROPERTY);
    List<String> stale = new ArrayList<>();
    for (Map.Entry<String, List<String>> example : examplesToRender().entrySet()) {
      String expected = render(example.getValue());
      Path file = dir.resolve(example.getKey());
      if (update) {
        Files.createDirectories(dir);
        Files.writeString(file, expected, StandardCharsets.UTF_8);
      } else if (!Files.exists(file)
          || !Files.readString(file, StandardCharsets.UTF_8).equals(expected)) {
        stale.add(example.getKey());
      }
    }
    assertThat(stale)
        .as(
            "docker/k8s/ examples out of date with `floe k8s`; regenerate them from the repository"
                + " root with:%n  %s",
            REGENERATE_COMMAND)
        .isEmpty();
  }

  @Test
  void everyYamlFileThereIsGeneratedOrTheSecretExample() throws IOException {
    Path dir = repositoryRoot().resolve("docker/k8s");
    try (Stream<Path> files = Files.list(dir)) {
      List<String> yaml =
          files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml")).toList();
      List<String> expected = new ArrayList<>(examplesToRender().keySet());
      expected.add(SECRET_EXAMPLE);
      assertThat(yaml).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  @Test
  void theSecretExampleHoldsTheKeysTheResourcesReadAndOnlyPlaceholders() throws IOException {
    Map<String, Object> secret =
        single(
            Files.readString(
                repositoryRoot().resolve("docker/k8s").resolve(SECRET_EXAMPLE),
                StandardCharsets.UTF_8));

    assertThat(secret).containsEntry("apiVersion", "v1").containsEntry("kind", "Secret");
    assertThat(((Map<?, ?>) secret.get("metadata")).get("name"))
        .isEqualTo(SecretEnv.DEFAULT_S3_SECRET);
    @SuppressWarnings("unchecked")
    Map<String, Object> data = (Map<String, Object>) secret.get("stringData");
    assertThat(data.keySet())
        .containsExactlyInAnyOrder(SecretEnv.ACCESS_KEY_ID_KEY, SecretEnv.SECRET_ACCESS_KEY_KEY);
    assertThat(data.values()).containsOnly("REPLACE_ME");
  }

  /** The provenance header, then exactly what `floe k8s` prints. */
  private static String render(List<String> args) {
    List<String> all = new ArrayList<>(List.of("k8s"));
    for (String arg : args) {
      all.add(arg.startsWith("examples/") ? examples().resolveSibling(arg).toString() : arg);
    }
    all.addAll(List.of("--code-version", EXAMPLE_CODE_VERSION));
    CliRun run = k8s(all.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.err()).isZero();
    return "# Generated by `floe k8s "
        + String.join(" ", args)
        + " --code-version "
        + EXAMPLE_CODE_VERSION
        + "`\n"
        + "# from the repository root; do not edit (K8sExamplesTest compares it with the command's\n"
        + "# output). The code version leaves out the commit so the example does not change with\n"
        + "# every commit: render your own manifests without --code-version, or with the version of\n"
        + "# the Floe inside your image, so names and run keys match what the runs record.\n"
        + run.out();
  }

  /** Surefire runs in the module folder; docker/ lives next to {@code mvnw}. */
  private static Path repositoryRoot() {
    Path start = Path.of("").toAbsolutePath();
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      if (Files.exists(dir.resolve("mvnw"))) {
        return dir;
      }
    }
    throw new IllegalStateException("Cannot find the repository root above " + start);
  }
}
