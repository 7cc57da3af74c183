package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.examples;
import static dev.floe.flink.cli.K8sCommandTest.k8s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.error.ExitCodes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `floe k8s render-backfill --out-dir` with the runbook's batch script. */
class K8sRenderIntoAnOutDirTest {
  private static final String JANUARY =
      examples().resolve("backfills/orders_january.yaml").toString();

  @TempDir Path work;

  /**
   * docs/deploy/kubernetes.md applies {@code "$dir"/*.yaml}. Rendering again into the same folder
   * (another image version, an edited manifest: new run keys, so new names) keeps the old files
   * next to the new ones, and the script then runs every slice twice, as two racing clusters.
   * Either the old resources go, or the command refuses a folder that already holds some.
   */
  @Test
  void renderingAgainIntoTheSameOutDirNeverLeavesTheOldResourcesToApply() throws IOException {
    Path dir = work.resolve("q1");
    CliRun first =
        k8s(
            "k8s",
            "render-backfill",
            JANUARY,
            "--out-dir",
            dir.toString(),
            "--code-version",
            "1.0.0");
    assertThat(first.exitCode()).as(first.err()).isZero();

    CliRun second =
        k8s(
            "k8s",
            "render-backfill",
            JANUARY,
            "--out-dir",
            dir.toString(),
            "--code-version",
            "1.0.1");

    if (second.exitCode() != 0) {
      assertThat(second.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
      assertThat(second.err()).startsWith("floe: Cannot");
      return;
    }
    List<String> yamlFiles;
    try (var listing = Files.list(dir)) {
      yamlFiles =
          listing.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml")).toList();
    }
    assertThat(yamlFiles).as("files kubectl would apply from %s", dir).hasSize(31);
  }

  /**
   * An output path that cannot be written is the user's input, so exit 2, and the message says why
   * (project rule: "Cannot <do X>: <reason>"). Here -o names a folder, and --out-dir a file: both
   * end in exit 1 with "floe: Cannot write the resources to X" and no reason, plus the hint to
   * rerun with FLOE_DEBUG for a stack trace.
   */
  @Test
  void anOutputPathThatCannotBeWrittenIsRefusedWithExit2AndAReason() throws IOException {
    String daily = examples().resolve("jobs/fact_orders_daily.yaml").toString();
    Path folder = Files.createDirectories(work.resolve("a-folder"));
    Path file = Files.writeString(work.resolve("a-file"), "x");

    CliRun toFolder = k8s("k8s", "render", daily, "--slice", "2026-10-03", "-o", folder.toString());
    CliRun intoFile = k8s("k8s", "render-backfill", JANUARY, "--out-dir", file.toString());

    for (CliRun run : List.of(toFolder, intoFile)) {
      assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.INVALID_INPUT);
      assertThat(run.err()).matches("(?s)floe: Cannot write [^\n]*: [^\n]+\n.*");
      assertThat(run.err()).doesNotContain("FLOE_DEBUG");
    }
  }
}
