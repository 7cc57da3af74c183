package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.examples;
import static dev.floe.flink.cli.K8sCommandTest.at;
import static dev.floe.flink.cli.K8sCommandTest.k8s;
import static dev.floe.flink.cli.K8sCommandTest.parse;
import static dev.floe.flink.cli.K8sCommandTest.single;
import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.k8s.FlinkVersions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Values a user gives `floe k8s` (paths, URIs, versions) reach the rendered YAML's comments and the
 * refusals: a line break in one must never add a key to a resource or break a message in two, and a
 * value the cluster cannot use is refused at render time, naming its flag.
 */
class K8sRenderUserValuesTest {
  private static final Path DAILY = examples().resolve("jobs/fact_orders_daily.yaml");
  private static final String JANUARY =
      examples().resolve("backfills/orders_january.yaml").toString();

  @TempDir Path work;

  @Test
  void aLineBreakInAManifestPathStaysInsideItsCommentLine() throws IOException {
    Path jobs = Files.createDirectories(work.resolve("jobs"));
    Path evil = jobs.resolve("evil\nfoo: bar #x.yaml");
    Files.copy(DAILY, evil);

    CliRun render = k8s("k8s", "render", evil.toString(), "--slice", "2026-10-03");

    assertThat(render.exitCode()).as(render.err()).isZero();
    Map<String, Object> resource = single(render.out());
    assertThat(resource).doesNotContainKey("foo");
    assertThat(render.out()).contains("evil\\nfoo: bar #x.yaml");
    assertOnlyCommentsAndYaml(render.out());
  }

  @Test
  void aRefusalQuotingAManifestPathWithALineBreakStaysOneLine() throws IOException {
    Path project = Files.createDirectories(work.resolve("project/jobs")).getParent();
    Path evil = work.resolve("evil\nfoo: bar.yaml");
    Files.copy(DAILY, evil);

    CliRun outside =
        k8s(
            "k8s",
            "render",
            evil.toString(),
            "--slice",
            "2026-10-03",
            "--project-dir",
            project.toString());
    CliRun backfill =
        k8s(
            "k8s",
            "render-backfill",
            evil.toString(),
            "--from",
            "2026-01-01",
            "--to",
            "2026-01-02",
            "--project-dir",
            project.toString());

    assertRefusedOnOneLine(outside, "Cannot render " + work + "/evil\\nfoo: bar.yaml: it lies");
    assertRefusedOnOneLine(backfill, "Cannot render " + work + "/evil\\nfoo: bar.yaml: it lies");
  }

  @Test
  void aLineBreakInTheJarUriOrCodeVersionOrImageIsRefusedOnOneLineNamingTheFlag() {
    CliRun jar =
        k8s(
            "k8s",
            "render",
            DAILY.toString(),
            "--slice",
            "2026-10-03",
            "--session-cluster",
            "s",
            "--jar-uri",
            "https://x/a.jar\nfoo: bar");
    CliRun version =
        k8s(
            "k8s",
            "render",
            DAILY.toString(),
            "--slice",
            "2026-10-03",
            "--code-version",
            "1.0\nfoo: bar",
            "--image",
            "floe:1");
    CliRun image =
        k8s(
            "k8s",
            "render",
            DAILY.toString(),
            "--slice",
            "2026-10-03",
            "--image",
            "floe:1\nfoo: bar");

    assertRefusedOnOneLine(jar, "Cannot render a job for session cluster s with --jar-uri");
    assertThat(jar.err()).contains("https://x/a.jar\\nfoo: bar");
    assertRefusedOnOneLine(version, "Cannot render with --code-version 1.0\\nfoo: bar");
    assertRefusedOnOneLine(image, "Cannot render with --image floe:1\\nfoo: bar");
  }

  @Test
  void aCodeVersionMustBeADockerTagOptionallyWithTheCommitAndIsBlamedByItsFlag() {
    for (String bad : List.of("", "x:y", "1.0/x", "bad version", ".1", "-1")) {
      CliRun render =
          k8s("k8s", "render", DAILY.toString(), "--slice", "2026-10-03", "--code-version", bad);
      assertRefusedOnOneLine(render, "Cannot render with --code-version " + bad + ":");
      assertThat(render.err()).as(bad).doesNotContain("image");
    }
    for (String good : List.of("1.0", "0.1.0-SNAPSHOT+3f2a1bc", "0.1.0-SNAPSHOT+3f2a1bc-dirty")) {
      CliRun render =
          k8s("k8s", "render", DAILY.toString(), "--slice", "2026-10-03", "--code-version", good);
      assertThat(render.exitCode()).as(render.err()).isZero();
      assertThat(at(single(render.out()), "spec.image")).isEqualTo("floe:" + good.split("\\+")[0]);
    }
  }

  @Test
  void aFlinkVersionMustBeOneTheOperatorKnowsOfTheJarsMajorVersion() {
    String major = FlinkVersions.buildFlinkVersion().split("\\.")[0];
    CliRun unknown =
        k8s("k8s", "render", DAILY.toString(), "--slice", "2026-10-03", "--flink-version", "v3_0");
    CliRun older =
        k8s("k8s", "render", DAILY.toString(), "--slice", "2026-10-03", "--flink-version", "v1_20");
    CliRun current =
        k8s(
            "k8s",
            "render",
            DAILY.toString(),
            "--slice",
            "2026-10-03",
            "--flink-version",
            FlinkVersions.current());

    assertRefusedOnOneLine(unknown, "Cannot render with --flink-version v3_0: the operator");
    assertRefusedOnOneLine(older, "Cannot render with --flink-version v1_20: the Floe jar");
    assertThat(older.err()).contains("Flink " + FlinkVersions.buildFlinkVersion());
    assertThat(current.exitCode()).as(current.err()).isZero();
    assertThat(FlinkVersions.accepted()).allMatch(v -> v.startsWith("v" + major + "_"));
  }

  @Test
  void theOutputFileIsNeverAFileTheRenderReads() throws IOException {
    Path project = Files.createDirectories(work.resolve("project"));
    Files.writeString(
        project.resolve("floe.yaml"),
        "catalog: {type: rest, properties: {uri: 'http://rest:8181'}}\n");
    Path job = Files.createDirectories(project.resolve("jobs")).resolve("daily.yaml");
    Files.copy(DAILY, job);
    Path backfill = Files.createDirectories(project.resolve("backfills")).resolve("b.yaml");
    Files.writeString(
        backfill, "backfill: b1\njob: ../jobs/daily.yaml\nfrom: 2026-01-01\nto: 2026-01-03\n");
    String jobText = Files.readString(job);
    String backfillText = Files.readString(backfill);
    String configText = Files.readString(project.resolve("floe.yaml"));
    Path link = work.resolve("link.yaml");
    Files.createSymbolicLink(link, job);

    List<CliRun> refused =
        List.of(
            k8s("k8s", "render", job.toString(), "--slice", "2026-10-03", "-o", job.toString()),
            k8s("k8s", "render", job.toString(), "--slice", "2026-10-03", "-o", link.toString()),
            k8s(
                "k8s",
                "render",
                job.toString(),
                "--slice",
                "2026-10-03",
                "-o",
                project.resolve("jobs/../floe.yaml").toString()),
            k8s("k8s", "render-backfill", backfill.toString(), "-o", backfill.toString()),
            k8s("k8s", "render-backfill", backfill.toString(), "-o", job.toString()));

    for (CliRun run : refused) {
      assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.INVALID_INPUT);
      assertThat(run.err())
          .startsWith("floe: Cannot write the resources to ")
          .contains("this render reads");
      assertThat(run.out()).isEmpty();
    }
    assertThat(refused.get(0).err()).contains("it is the manifest " + job);
    assertThat(refused.get(2).err()).contains("the project's catalog configuration");
    assertThat(refused.get(3).err()).contains("it is the backfill manifest " + backfill);
    assertThat(refused.get(4).err()).contains("it is the job manifest");
    assertThat(Files.readString(job)).isEqualTo(jobText);
    assertThat(Files.readString(backfill)).isEqualTo(backfillText);
    assertThat(Files.readString(project.resolve("floe.yaml"))).isEqualTo(configText);

    Path out = work.resolve("out.yaml");
    Files.writeString(out, "old\n");
    CliRun elsewhere =
        k8s("k8s", "render", job.toString(), "--slice", "2026-10-03", "-o", out.toString());
    assertThat(elsewhere.exitCode()).as(elsewhere.err()).isZero();
    assertThat(parse(Files.readString(out))).hasSize(1);
  }

  @Test
  void aBackfillsResourceIsNamedApartFromThePlainRenderAndFromOtherBackfillsOfTheSlice() {
    String plain = name(k8s("k8s", "render", DAILY.toString(), "--slice", "2026-01-01"));
    List<String> a = backfillNames("--backfill-id", "a");
    List<String> again = backfillNames("--backfill-id", "a");
    List<String> b = backfillNames("--backfill-id", "b");
    List<String> aWithEffects = backfillNames("--backfill-id", "a", "--allow-effects");

    assertThat(again).isEqualTo(a);
    assertThat(a.get(0)).startsWith("floe-fact-orders-daily-2026-01-01-").isNotEqualTo(plain);
    assertThat(b.get(0)).isNotEqualTo(a.get(0)).isNotEqualTo(plain);
    assertThat(aWithEffects.get(0))
        .isNotEqualTo(a.get(0))
        .isNotEqualTo(b.get(0))
        .isNotEqualTo(plain);
    assertThat(a.get(0)).hasSameSizeAs(plain);
    String[] backfillA = {
      "k8s",
      "render-backfill",
      DAILY.toString(),
      "--from",
      "2026-01-01",
      "--to",
      "2026-01-03",
      "--backfill-id",
      "a"
    };
    assertThat(k8s(backfillA).out()).isEqualTo(k8s(backfillA).out());
    // A backfill manifest's slices are named apart from the plain renders of the same slices too.
    CliRun january = k8s("k8s", "render-backfill", JANUARY);
    assertThat(january.exitCode()).as(january.err()).isZero();
    String firstOfJanuary = (String) at(parse(january.out()).get(0), "metadata.name");
    assertThat(firstOfJanuary)
        .isNotEqualTo(name(k8s("k8s", "render", DAILY.toString(), "--slice", "2026-01-01")));
  }

  private static List<String> backfillNames(String... flags) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "k8s",
                "render-backfill",
                DAILY.toString(),
                "--from",
                "2026-01-01",
                "--to",
                "2026-01-03"));
    args.addAll(List.of(flags));
    CliRun run = k8s(args.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.err()).isZero();
    return parse(run.out()).stream().map(d -> (String) at(d, "metadata.name")).toList();
  }

  private static String name(CliRun render) {
    assertThat(render.exitCode()).as(render.err()).isZero();
    return (String) at(single(render.out()), "metadata.name");
  }

  private static void assertRefusedOnOneLine(CliRun run, String start) {
    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(run.err()).startsWith("floe: " + start);
    assertThat(run.err().strip()).doesNotContain("\n");
    assertThat(run.out()).isEmpty();
  }

  /** Every line is a comment, a document marker, or part of the YAML of a resource. */
  private static void assertOnlyCommentsAndYaml(String yaml) {
    for (String line : yaml.split("\n")) {
      assertThat(line).matches("#.*|---|[a-zA-Z]+:.*|\\s+.*");
    }
  }
}
