package dev.floe.flink.cli;

import static dev.floe.flink.cli.K8sCommandTest.k8s;
import static dev.floe.flink.cli.K8sCommandTest.parse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.error.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code floe k8s render-maintenance}: a CronJob running {@code floe maintain --apply}. */
class RenderMaintenanceCommandTest {

  @Test
  @SuppressWarnings("unchecked")
  void rendersACronJobThatAppliesThePlanWithItsBudgetAndNeverOverlaps() {
    CliRun run = render("--max-tables", "5", "--max-bytes", "1000000", "--image", "floe:test");

    assertThat(run.exitCode()).as(run.err()).isZero();
    List<Map<String, Object>> documents = parse(run.out());
    assertThat(documents).hasSize(1);
    Map<String, Object> cronJob = documents.get(0);
    assertThat(cronJob).containsEntry("kind", "CronJob").containsEntry("apiVersion", "batch/v1");
    Map<String, Object> spec = (Map<String, Object>) cronJob.get("spec");
    assertThat(spec)
        .containsEntry("schedule", "0 3 * * *")
        .containsEntry("concurrencyPolicy", "Forbid");
    Map<String, Object> job =
        (Map<String, Object>) ((Map<String, Object>) spec.get("jobTemplate")).get("spec");
    assertThat(job).containsEntry("backoffLimit", 0).containsEntry("activeDeadlineSeconds", 4200);
    Map<String, Object> pod =
        (Map<String, Object>) ((Map<String, Object>) job.get("template")).get("spec");
    Map<String, Object> container = ((List<Map<String, Object>>) pod.get("containers")).get(0);
    assertThat(container).containsEntry("image", "floe:test");
    assertThat((List<String>) container.get("args"))
        .containsExactly(
            "maintain",
            "--apply",
            "--all",
            "--max-bytes",
            "1000000",
            "--max-tables",
            "5",
            "--timeout",
            "PT1H",
            "--config",
            "/opt/floe/floe.yaml");
    assertThat((List<String>) container.get("command"))
        .startsWith("java")
        .contains("--add-opens=java.base/java.nio=ALL-UNNAMED", "dev.floe.flink.cli.FloeMain")
        .contains("-Xmx1536m"); // 75 % of the pod's 2048m
    Map<String, Object> limits =
        (Map<String, Object>) ((Map<String, Object>) container.get("resources")).get("limits");
    assertThat(limits).containsEntry("memory", "2048Mi");
    assertThat(run.out()).contains("Credentials come from Secrets").doesNotContain("secret-key=");
  }

  @Test
  @SuppressWarnings("unchecked")
  void thePodsMemoryIsAKubernetesQuantityAndTheHeapThreeQuartersOfItHoweverItIsWritten() {
    for (String[] sized :
        new String[][] {{"2Gi", "2048Mi", "-Xmx1536m"}, {"4g", "4096Mi", "-Xmx3072m"}}) {
      CliRun run = render("--jm-memory", sized[0]);
      assertThat(run.exitCode()).as(run.err()).isZero();
      Map<String, Object> container = container(run.out());
      assertThat((List<String>) container.get("command")).contains(sized[2]);
      assertThat(
              (Map<String, Object>)
                  ((Map<String, Object>) container.get("resources")).get("limits"))
          .containsEntry("memory", sized[1]);
    }
    CliRun tiny = render("--jm-memory", "1024k");
    assertThat(tiny.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(tiny.err()).contains("with --jm-memory 1024k:", "needs at least 512Mi");
    for (String bad : new String[] {"1.5g", "2048", "1t2"}) {
      CliRun run = render("--jm-memory", bad);
      assertThat(run.exitCode()).as(bad).isEqualTo(ExitCodes.INVALID_INPUT);
      assertThat(run.err())
          .as(bad)
          .startsWith("floe: Cannot render a pod with memory '" + bad + "': give a whole size");
    }
  }

  @Test
  void refusesAMissingSelectionABadScheduleAMissingTimeoutAndTaskManagerFlags() {
    CliRun none = k8s("k8s", "render-maintenance", "--schedule", "0 3 * * *", "--timeout", "1h");
    CliRun badSchedule =
        k8s("k8s", "render-maintenance", "--all", "--schedule", "daily", "--timeout", "1h");
    CliRun noTimeout = k8s("k8s", "render-maintenance", "--all", "--schedule", "0 3 * * *");

    assertThat(none.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(none.err()).contains("--all");
    assertThat(badSchedule.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(badSchedule.err()).contains("schedule 'daily'");
    assertThat(noTimeout.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(noTimeout.err()).contains("--timeout");
    CliRun slots =
        k8s(
            "k8s",
            "render-maintenance",
            "--all",
            "--schedule",
            "0 3 * * *",
            "--timeout",
            "1h",
            "--task-slots",
            "4");
    assertThat(slots.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(slots.err())
        .contains("Cannot render the maintenance CronJob with --task-slots", "--jm-memory");
  }

  private static final String NOTIFY =
      """
      on_maintenance_done:
        - name: tell_ops
          webhook:
            url: "https://hooks.example.com/floe"
            body: '{"apply": "${apply_id}", "exit": "${exit_code}"}'
      """;

  @SuppressWarnings("unchecked")
  private static List<String> podArgs(CliRun run) {
    Map<String, Object> spec = (Map<String, Object>) parse(run.out()).get(0).get("spec");
    Map<String, Object> job =
        (Map<String, Object>) ((Map<String, Object>) spec.get("jobTemplate")).get("spec");
    Map<String, Object> pod =
        (Map<String, Object>) ((Map<String, Object>) job.get("template")).get("spec");
    return (List<String>) ((List<Map<String, Object>>) pod.get("containers")).get(0).get("args");
  }

  private static CliRun render(String... more) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "k8s",
                "render-maintenance",
                "--all",
                "--schedule",
                "0 3 * * *",
                "--timeout",
                "1h"));
    args.addAll(List.of(more));
    return k8s(args.toArray(String[]::new));
  }

  @Test
  void passesTheNotificationManifestAsItsPathInsideTheImage(@TempDir Path project)
      throws Exception {
    Files.writeString(project.resolve("floe.yaml"), "catalog: {}\n");
    Path manifest = Files.createDirectories(project.resolve("maintenance")).resolve("notify.yaml");
    Files.writeString(manifest, NOTIFY);

    CliRun detected = render("--notify", manifest.toString());
    CliRun explicit = render("--notify", manifest.toString(), "--project-dir", project.toString());

    assertThat(detected.exitCode()).as(detected.err()).isZero();
    assertThat(podArgs(detected))
        .containsSubsequence("--timeout", "PT1H", "--notify", "/opt/floe/maintenance/notify.yaml");
    assertThat(explicit.exitCode()).as(explicit.err()).isZero();
    assertThat(podArgs(explicit)).isEqualTo(podArgs(detected));
  }

  @Test
  void refusesANotificationManifestThatIsBadOrOutsideTheProject(@TempDir Path dir)
      throws Exception {
    Path project = Files.createDirectories(dir.resolve("project"));
    Files.writeString(project.resolve("floe.yaml"), "catalog: {}\n");
    Path unknownKey = project.resolve("bad.yaml");
    Files.writeString(unknownKey, "on_maintenance_finished: []\n");
    Path outside = dir.resolve("notify.yaml");
    Files.writeString(outside, NOTIFY);

    CliRun bad = render("--notify", unknownKey.toString());
    CliRun missing = render("--notify", project.resolve("nope.yaml").toString());
    CliRun notInImage = render("--notify", outside.toString(), "--project-dir", project.toString());
    CliRun dirAlone = render("--project-dir", project.toString());

    assertThat(bad.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(bad.err()).contains("on_maintenance_finished");
    assertThat(missing.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(missing.err()).contains("nope.yaml");
    assertThat(notInImage.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(notInImage.err()).contains("outside the project directory");
    assertThat(dirAlone.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(dirAlone.err()).contains("--project-dir", "--notify");
    for (CliRun refused : List.of(bad, missing, notInImage, dirAlone)) {
      assertThat(refused.out()).isEmpty();
    }
  }

  @Test
  void refusesTableNamesFloeMaintainWouldRefuseEveryNight() {
    CliRun run =
        k8s(
            "k8s",
            "render-maintenance",
            "nons",
            "weird table",
            "--schedule",
            "0 3 * * *",
            "--timeout",
            "1h");
    CliRun nested =
        k8s(
            "k8s",
            "render-maintenance",
            "sales.fact_orders",
            "a.b.c",
            "--schedule",
            "0 3 * * *",
            "--timeout",
            "1h");

    assertThat(run.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(run.err())
        .startsWith(
            "floe: Cannot render the maintenance CronJob with table nons: floe maintain refuses"
                + " it (expected <namespace>.<table>");
    assertThat(run.out()).isEmpty();
    assertThat(nested.exitCode()).as(nested.err()).isZero();
    assertThat(podArgs(nested)).containsSubsequence("--apply", "sales.fact_orders", "a.b.c");
  }

  @Test
  void neverWritesTheCronJobOverTheNotificationManifest(@TempDir Path project) throws Exception {
    Files.writeString(project.resolve("floe.yaml"), "catalog: {}\n");
    Path manifest = Files.createDirectories(project.resolve("maintenance")).resolve("notify.yaml");
    Files.writeString(manifest, NOTIFY);

    CliRun run = render("--notify", manifest.toString(), "-o", manifest.toString());

    assertThat(run.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(run.err())
        .startsWith(
            "floe: Cannot write the resources to "
                + manifest
                + ": it is the --notify manifest "
                + manifest
                + " this render reads");
    assertThat(Files.readString(manifest)).isEqualTo(NOTIFY);
  }

  @Test
  void neverWritesTheCronJobOverTheProjectsFloeYaml(@TempDir Path project) throws Exception {
    Path config = Files.writeString(project.resolve("floe.yaml"), "catalog: {}\n");
    Path manifest = Files.createDirectories(project.resolve("maintenance")).resolve("notify.yaml");
    Files.writeString(manifest, NOTIFY);

    CliRun run = render("--notify", manifest.toString(), "-o", config.toString());

    assertThat(run.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(run.err()).contains("it is the project's catalog configuration");
    assertThat(Files.readString(config)).isEqualTo("catalog: {}\n");
  }

  /** The CronJob's one container. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> container(String yaml) {
    Map<String, Object> spec = (Map<String, Object>) parse(yaml).get(0).get("spec");
    Map<String, Object> job =
        (Map<String, Object>) ((Map<String, Object>) spec.get("jobTemplate")).get("spec");
    Map<String, Object> pod =
        (Map<String, Object>) ((Map<String, Object>) job.get("template")).get("spec");
    return ((List<Map<String, Object>>) pod.get("containers")).get(0);
  }
}
