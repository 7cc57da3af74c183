package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.examples;
import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.deploy.ImageLayout;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.lineage.CodeVersion;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/** `floe k8s` as an operator types it, on the manifests in examples/ (no catalog, no cluster). */
class K8sCommandTest {
  private static final String DAILY = examples().resolve("jobs/fact_orders_daily.yaml").toString();
  private static final String JANUARY =
      examples().resolve("backfills/orders_january.yaml").toString();

  @TempDir Path work;

  @Test
  void everyCommandHasHelp() {
    for (String[] command :
        new String[][] {
          {"k8s", "--help"},
          {"k8s", "render", "--help"},
          {"k8s", "render-backfill", "--help"},
          {"k8s", "render-session-cluster", "--help"}
        }) {
      CliRun help = k8s(command);
      assertThat(help.exitCode()).as(String.join(" ", command)).isZero();
      assertThat(help.out()).contains("Usage: floe k8s");
    }
  }

  @Test
  void aCommandOfSubcommandsGivenNoneIsAUsageErrorNamingThem() {
    for (String command : List.of("k8s", "late", "tables")) {
      CliRun bare = k8s(command);
      assertThat(bare.exitCode()).as(command).isEqualTo(2);
      assertThat(bare.out()).as(command).isEmpty();
      assertThat(bare.err())
          .startsWith("floe: Cannot run floe " + command + " without a subcommand");
    }
    assertThat(k8s("k8s").err())
        .contains("give one of render, render-backfill, render-session-cluster");
  }

  @Test
  void renderPrintsAFlinkDeploymentForTheSliceOnTheBuildsFlinkAndImage() {
    CliRun render = k8s("k8s", "render", DAILY, "--slice", "2026-10-03");

    assertThat(render.exitCode()).as(render.err()).isZero();
    Map<String, Object> d = single(render.out());
    assertThat(d.get("kind")).isEqualTo("FlinkDeployment");
    assertThat(at(d, "spec.image")).isEqualTo(ImageLayout.defaultImage());
    // Derived from the build: the Flink on this classpath is the one the image runs.
    String[] flink = EnvironmentInformation.getVersion().split("\\.");
    assertThat(at(d, "spec.flinkVersion")).isEqualTo("v" + flink[0] + "_" + flink[1]);
    assertThat((List<Object>) at(d, "spec.job.args"))
        .containsExactly(
            "run",
            "/opt/floe/jobs/fact_orders_daily.yaml",
            "--slice",
            "2026-10-03",
            "--config",
            "/opt/floe/floe.yaml");
    assertThat(((Map<Object, Object>) at(d, "metadata.annotations")).get("floe.dev/code-version"))
        .isEqualTo(CodeVersion.current());
    // examples/ has no floe.yaml: rendered, with a warning on stderr only.
    assertThat(render.err()).contains("floe: warning:", "has no floe.yaml");
    assertThat(render.out()).doesNotContain("warning");
  }

  @Test
  void theClusterOptionsReachTheResource() {
    CliRun render =
        k8s(
            "k8s",
            "render",
            DAILY,
            "--slice",
            "2026-10-03",
            "--image",
            "registry.example.com/floe:7",
            "--image-pull-policy",
            "Always",
            "--namespace",
            "data",
            "--service-account",
            "floe-runner",
            "--s3-secret",
            "warehouse-keys",
            "--secret-env",
            "FLOE_CATALOG_JDBC__PASSWORD=floe-db/password",
            "--flink-conf",
            "restart-strategy.type=none",
            "--jm-memory",
            "1g",
            "--tm-cpu",
            "2",
            "--tm-memory",
            "4g",
            "--parallelism",
            "4",
            "--task-slots",
            "2",
            "--code-version",
            "1.2.3");

    assertThat(render.exitCode()).as(render.err()).isZero();
    Map<String, Object> d = single(render.out());
    assertThat(at(d, "metadata.namespace")).isEqualTo("data");
    assertThat(at(d, "spec.image")).isEqualTo("registry.example.com/floe:7");
    assertThat(at(d, "spec.imagePullPolicy")).isEqualTo("Always");
    assertThat(at(d, "spec.serviceAccount")).isEqualTo("floe-runner");
    assertThat((Map<Object, Object>) at(d, "spec.flinkConfiguration"))
        .containsEntry("restart-strategy.type", "none")
        .containsEntry("taskmanager.numberOfTaskSlots", "2");
    assertThat(at(d, "spec.jobManager.resource.memory")).isEqualTo("1g");
    assertThat(at(d, "spec.taskManager.resource.cpu")).isEqualTo(2.0);
    assertThat(at(d, "spec.job.parallelism")).isEqualTo(4);
    assertThat(((Map<Object, Object>) at(d, "metadata.annotations")).get("floe.dev/code-version"))
        .isEqualTo("1.2.3");
    assertThat(render.out())
        .contains("name: warehouse-keys", "key: access-key-id", "name: floe-db", "key: password");

    CliRun noSecret =
        k8s(
            "k8s",
            "render",
            DAILY,
            "--slice",
            "2026-10-03",
            "--no-s3-secret",
            "--code-version",
            "1");
    assertThat(noSecret.out()).doesNotContain("secretKeyRef", "FLOE_CATALOG_S3");
    // The image follows --code-version unless --image is given: floe:<version> without +commit.
    assertThat(
            at(
                single(
                    k8s(
                            "k8s",
                            "render",
                            DAILY,
                            "--slice",
                            "2026-10-03",
                            "--code-version",
                            "2.0.0+abc")
                        .out()),
                "spec.image"))
        .isEqualTo("floe:2.0.0");
  }

  @Test
  void outputGoesToAFileOrAsJson() throws IOException {
    Path file = work.resolve("slice.yaml");

    CliRun toFile = k8s("k8s", "render", DAILY, "--slice", "2026-10-03", "-o", file.toString());
    CliRun json = k8s("k8s", "render", DAILY, "--slice", "2026-10-03", "--json");

    assertThat(toFile.exitCode()).isZero();
    assertThat(toFile.out()).isEmpty();
    assertThat(json.exitCode()).isZero();
    assertThat(json.out()).startsWith("{");
    assertThat(single(json.out())).isEqualTo(single(Files.readString(file)));
  }

  @Test
  void aBackfillManifestPrintsOneResourcePerSliceAfterTheConcurrencyNote() throws IOException {
    CliRun stream = k8s("k8s", "render-backfill", JANUARY);
    CliRun flags =
        k8s(
            "k8s",
            "render-backfill",
            DAILY,
            "--from",
            "2026-01-01",
            "--to",
            "2026-01-04",
            "--max-concurrency",
            "3");
    Path dir = work.resolve("january");
    CliRun files = k8s("k8s", "render-backfill", JANUARY, "--out-dir", dir.toString());

    assertThat(stream.exitCode()).as(stream.err()).isZero();
    assertThat(parse(stream.out())).hasSize(31);
    assertThat(stream.out())
        .startsWith("# Backfill orders_january_rebuild:")
        .contains("Apply at most 2 at a time", "optimistic concurrency");
    assertThat(parse(flags.out())).hasSize(3);
    assertThat(flags.out()).contains("Apply at most 3 at a time");

    assertThat(files.exitCode()).as(files.err()).isZero();
    try (var listing = Files.list(dir)) {
      List<String> names = listing.map(p -> p.getFileName().toString()).sorted().toList();
      assertThat(names).hasSize(31);
      assertThat(names.get(0)).startsWith("001-floe-fact-orders-daily-2026-01-01-");
      assertThat(names.get(30)).startsWith("031-floe-fact-orders-daily-2026-01-31-");
      assertThat(parse(Files.readString(dir.resolve(names.get(0))))).hasSize(1);
    }
    assertThat(files.out()).contains("Apply at most 2", dir.resolve("001-").toString());
  }

  @Test
  void aSessionJobAndItsSessionCluster() {
    CliRun cluster = k8s("k8s", "render-session-cluster", "floe-session");
    CliRun job =
        k8s(
            "k8s",
            "render",
            DAILY,
            "--slice",
            "2026-10-03",
            "--session-cluster",
            "floe-session",
            "--jar-uri",
            "s3://artifacts/floe.jar");

    assertThat(cluster.exitCode()).as(cluster.err()).isZero();
    Map<String, Object> session = single(cluster.out());
    assertThat(at(session, "metadata.name")).isEqualTo("floe-session");
    assertThat((Map<Object, Object>) at(session, "spec")).doesNotContainKey("job");
    assertThat(job.exitCode()).as(job.err()).isZero();
    Map<String, Object> sessionJob = single(job.out());
    assertThat(sessionJob.get("kind")).isEqualTo("FlinkSessionJob");
    assertThat(at(sessionJob, "spec.deploymentName")).isEqualTo("floe-session");
    assertThat(at(sessionJob, "spec.job.jarURI")).isEqualTo("s3://artifacts/floe.jar");
  }

  @Test
  void aSessionJobRefusesTheFlagsOfItsClustersPods() {
    for (String[] flag :
        new String[][] {
          {"--secret-env", "FLOE_CATALOG_URI=floe-db/uri"},
          {"--image", "registry/floe:9"},
          {"--tm-memory", "8g"},
          {"--task-slots", "8"},
          {"--service-account", "other"},
          {"--no-s3-secret"},
        }) {
      List<String> args =
          new ArrayList<>(
              List.of(
                  "k8s",
                  "render",
                  DAILY,
                  "--slice",
                  "2026-10-03",
                  "--session-cluster",
                  "floe-session",
                  "--jar-uri",
                  "s3://artifacts/floe.jar"));
      args.addAll(List.of(flag));
      CliRun run = k8s(args.toArray(String[]::new));
      String given = String.join(" ", flag);

      assertThat(run.exitCode()).as(flag[0]).isEqualTo(ExitCodes.INVALID_INPUT);
      assertThat(run.err())
          .isEqualTo(
              "floe: Cannot render a session job with "
                  + given
                  + ": it runs on the pods of session cluster floe-session, which `floe k8s"
                  + " render-session-cluster floe-session "
                  + flag[0]
                  + " ...` sets up\n");
      assertThat(run.out()).isEmpty();
    }
  }

  @Test
  void theSessionClusterHintQuotesANameAShellWouldSplit() {
    CliRun run =
        k8s(
            "k8s",
            "render",
            DAILY,
            "--slice",
            "2026-10-03",
            "--session-cluster",
            "my session",
            "--jar-uri",
            "s3://artifacts/floe.jar",
            "--task-slots",
            "8");

    assertThat(run.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(run.err())
        .contains(
            "session cluster my session, which `floe k8s render-session-cluster 'my session'"
                + " --task-slots ...` sets up");
  }

  @Test
  void badInputExitsTwoWithCannotRender() throws IOException {
    Path outside = Files.createDirectories(work.resolve("elsewhere"));
    String merge = examples().resolve("jobs/dim_customer_merge.yaml").toString();
    String[][] cases = {
      {"render", examples().resolve("jobs/nope.yaml").toString(), "--slice", "2026-10-03"},
      {"render", DAILY, "--slice", "2026-10-32"},
      {"render", DAILY},
      {"render", merge, "--slice", "2026-10-03"},
      {"render-backfill", merge, "--from", "2026-01", "--to", "2026-02"},
      // floe backfill and the manifest key stop at 1024; this rendered 5000 at a time.
      {
        "render-backfill",
        DAILY,
        "--from",
        "2026-01",
        "--to",
        "2026-02",
        "--max-concurrency",
        "5000"
      },
      {"render", DAILY, "--slice", "2026-10-03", "--session-cluster", "floe-session"},
      {"render", DAILY, "--slice", "2026-10-03", "--project-dir", outside.toString()},
    };
    for (String[] args : cases) {
      List<String> all = new ArrayList<>(List.of("k8s"));
      all.addAll(List.of(args));
      CliRun run = k8s(all.toArray(String[]::new));
      assertThat(run.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.INVALID_INPUT);
      assertThat(run.err()).as(String.join(" ", args)).startsWith("floe: Cannot render");
      assertThat(run.out()).isEmpty();
    }
    assertThat(
            k8s(
                    "k8s",
                    "render",
                    DAILY,
                    "--slice",
                    "2026-10-03",
                    "--session-cluster",
                    "floe-session",
                    "--jar-uri",
                    ImageLayout.JAR_URI)
                .err())
        .contains("Cannot render", "local:///opt/flink/usrlib/floe.jar");
    CliRun credential =
        k8s("k8s", "render", DAILY, "--slice", "2026-10-03", "--flink-conf", "s3.secret-key=abc");
    assertThat(credential.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(credential.err()).contains("looks like a credential").doesNotContain("abc");
    assertThat(k8s("k8s", "render", DAILY, "--slice", "2026-10-03", "--tm-memory", "lots").err())
        .contains("Cannot render a pod with memory 'lots'");
  }

  @Test
  @SuppressWarnings("unchecked")
  void flinkSettingsAYaml11ReaderWouldTakeForInfinityOrNaNStayStrings() {
    CliRun render =
        k8s(
            "k8s",
            "render",
            DAILY,
            "--slice",
            "2026-10-03",
            "--flink-conf",
            "a.b=.inf",
            "--flink-conf",
            "c.d=-.Inf",
            "--flink-conf",
            "e.f=.NaN");

    assertThat(render.exitCode()).as(render.err()).isZero();
    Map<String, Object> conf =
        (Map<String, Object>) at(single(render.out()), "spec.flinkConfiguration");
    assertThat(conf)
        .containsEntry("a.b", ".inf")
        .containsEntry("c.d", "-.Inf")
        .containsEntry("e.f", ".NaN");
    CliRun tooParallel =
        k8s("k8s", "render", DAILY, "--slice", "2026-10-03", "--parallelism", "50000");
    assertThat(tooParallel.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(tooParallel.err())
        .startsWith(
            "floe: Cannot render with --parallelism 50000: give a positive number of at most"
                + " 32768");
  }

  /** Runs {@code floe <args>} in-process; the k8s commands take no --home. */
  static CliRun k8s(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = FloeMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new CliRun(code, out.toString(), err.toString());
  }

  /** Every document, as kubectl's YAML 1.1 reader types it. */
  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> parse(String yaml) {
    List<Map<String, Object>> documents = new ArrayList<>();
    for (Object document : new Yaml().loadAll(yaml)) {
      if (document != null) {
        documents.add((Map<String, Object>) document);
      }
    }
    return documents;
  }

  static Map<String, Object> single(String yaml) {
    List<Map<String, Object>> documents = parse(yaml);
    assertThat(documents).hasSize(1);
    return documents.get(0);
  }

  @SuppressWarnings("unchecked")
  static Object at(Map<String, Object> resource, String path) {
    Object value = resource;
    for (String key : path.split("\\.")) {
      value = ((Map<String, Object>) value).get(key);
    }
    return value;
  }
}
