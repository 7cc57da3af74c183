package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.examples;
import static dev.floe.flink.cli.CliRun.floe;
import static dev.floe.flink.cli.K8sCommandTest.at;
import static dev.floe.flink.cli.K8sCommandTest.k8s;
import static dev.floe.flink.cli.K8sCommandTest.parse;
import static dev.floe.flink.cli.K8sCommandTest.single;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.deploy.ImageLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run key on a rendered resource is the one a real `floe run` of the same slice records, so a
 * resource and the snapshot its run commits find each other; the derived backfill id is the one
 * `floe backfill` derives.
 */
class K8sRunKeyITCase {
  @TempDir static Path home;
  private static final ObjectMapper JSON = new ObjectMapper();

  @BeforeAll
  static void applyTheExampleTables() {
    CliRun apply = floe(home, "tables", "apply", examples().resolve("tables").toString());
    assertThat(apply.exitCode()).as(apply.err()).isZero();
    CliRun seed = floe(home, "sql", "-f", examples().resolve("sql/seed_staging.sql").toString());
    assertThat(seed.exitCode()).as(seed.err()).isZero();
  }

  @Test
  void aSliceResourceCarriesTheRunKeyOfFloeRunAndItsSnapshot() throws Exception {
    String job = examples().resolve("jobs/fact_orders_daily.yaml").toString();

    CliRun run = floe(home, "run", job, "--slice", "2026-10-03", "--json");
    CliRun render = k8s("k8s", "render", job, "--slice", "2026-10-03");
    CliRun snapshots = floe(home, "snapshots", "sales.fact_orders", "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    String runKey = JSON.readTree(run.out()).get("run_key").asText();
    Map<String, Object> resource = single(render.out());
    assertThat(((Map<?, ?>) at(resource, "metadata.labels")).get("floe.dev/run-key"))
        .isEqualTo(runKey);
    assertThat((String) at(resource, "metadata.name")).endsWith("-" + runKey.substring(0, 8));
    JsonNode snapshot = JSON.readTree(snapshots.out()).get(0);
    assertThat(snapshot.get("run_key").asText()).isEqualTo(runKey);
    assertThat(((Map<?, ?>) at(resource, "metadata.annotations")).get("floe.dev/slice"))
        .isEqualTo(snapshot.get("slice").asText());
  }

  @Test
  void aWholeTableResourceCarriesTheRunKeyOfFloeRun() throws Exception {
    String merge = examples().resolve("jobs/dim_customer_merge.yaml").toString();

    CliRun run = floe(home, "run", merge, "--json");
    CliRun render = k8s("k8s", "render", merge);

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(((Map<?, ?>) at(single(render.out()), "metadata.labels")).get("floe.dev/run-key"))
        .isEqualTo(JSON.readTree(run.out()).get("run_key").asText());
  }

  @Test
  void aDerivedBackfillIdIsTheOneFloeBackfillDerives() throws Exception {
    String job = examples().resolve("jobs/fact_orders_daily.yaml").toString();

    CliRun plan =
        floe(
            home,
            "backfill",
            job,
            "--from",
            "2026-01-01",
            "--to",
            "2026-01-03",
            "--dry-run",
            "--json");
    CliRun render =
        k8s("k8s", "render-backfill", job, "--from", "2026-01-01", "--to", "2026-01-03");

    assertThat(plan.exitCode()).as(plan.err()).isZero();
    String backfillId = JSON.readTree(plan.out()).get("backfill_id").asText();
    assertThat(parse(render.out()))
        .hasSize(2)
        .allSatisfy(
            d ->
                assertThat(((Map<?, ?>) at(d, "metadata.annotations")).get("floe.dev/backfill-id"))
                    .isEqualTo(backfillId));
  }

  @Test
  void renderedBackfillSlicesRecordTheBackfillIdSoFloeBackfillCountsThemLoaded(@TempDir Path home)
      throws Exception {
    // Its own catalog: a slice another test loaded first would make these runs no-ops.
    assertThat(floe(home, "tables", "apply", examples().resolve("tables").toString()).exitCode())
        .isZero();
    assertThat(
            floe(home, "sql", "-f", examples().resolve("sql/seed_staging.sql").toString())
                .exitCode())
        .isZero();
    String job = examples().resolve("jobs/fact_orders_daily.yaml").toString();
    CliRun render =
        k8s("k8s", "render-backfill", job, "--from", "2026-10-03", "--to", "2026-10-05");
    List<Map<String, Object>> resources = parse(render.out());
    assertThat(resources).hasSize(2);

    // Run each resource's own arguments, with the image's paths mapped back to this checkout.
    for (Map<String, Object> resource : resources) {
      List<String> args = new ArrayList<>();
      @SuppressWarnings("unchecked")
      List<String> rendered = (List<String>) at(resource, "spec.job.args");
      for (int i = 0; i < rendered.size(); i++) {
        if (rendered.get(i).equals("--config")) {
          i++; // the image's floe.yaml; here the embedded catalog under --home
          continue;
        }
        args.add(rendered.get(i).replace(ImageLayout.PROJECT_DIR + "/", examples() + "/"));
      }
      assertThat(args).contains("--backfill-id").doesNotContain("--allow-effects");
      CliRun run = floe(home, args.toArray(String[]::new));
      assertThat(run.exitCode()).as(run.err()).isZero();
    }

    CliRun plan =
        floe(
            home,
            "backfill",
            job,
            "--from",
            "2026-10-03",
            "--to",
            "2026-10-05",
            "--dry-run",
            "--json");
    assertThat(plan.exitCode()).as(plan.err()).isZero();
    JsonNode slices = JSON.readTree(plan.out()).get("slices");
    assertThat(slices).hasSize(2);
    slices.forEach(slice -> assertThat(slice.get("status").asText()).isEqualTo("skipped"));
    String backfillId = JSON.readTree(plan.out()).get("backfill_id").asText();
    CliRun listed =
        floe(home, "snapshots", "sales.fact_orders", "--backfill", backfillId, "--json");
    assertThat(JSON.readTree(listed.out())).hasSize(2);
  }
}
