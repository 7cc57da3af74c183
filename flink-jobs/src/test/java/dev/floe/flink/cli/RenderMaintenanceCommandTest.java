package dev.floe.flink.cli;

import static dev.floe.flink.cli.K8sCommandTest.k8s;
import static dev.floe.flink.cli.K8sCommandTest.parse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.error.ExitCodes;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code floe k8s render-maintenance}: a CronJob running {@code floe maintain --apply}. */
class RenderMaintenanceCommandTest {

  @Test
  @SuppressWarnings("unchecked")
  void rendersACronJobThatAppliesThePlanWithItsBudgetAndNeverOverlaps() {
    CliRun run =
        k8s(
            "k8s",
            "render-maintenance",
            "--all",
            "--schedule",
            "0 3 * * *",
            "--timeout",
            "1h",
            "--max-tables",
            "5",
            "--max-bytes",
            "1000000",
            "--image",
            "floe:test");

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
}
