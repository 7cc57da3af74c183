package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.deploy.ImageLayout;
import dev.floe.catalog.error.ExitCodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FloeClusterMainTest {
  @TempDir Path home;

  @Test
  void aFailingCommandThrowsWithItsExitCodeInsteadOfExitingTheJvm() {
    StringWriter err = new StringWriter();
    String missing = home.resolve("jobs/missing.yaml").toString();

    assertThatThrownBy(
            () ->
                FloeClusterMain.run(
                    new String[] {
                      "run", missing, "--slice", "2026-10-03", "--home", home.toString()
                    },
                    new PrintWriter(new StringWriter()),
                    new PrintWriter(err, true)))
        .isInstanceOfSatisfying(
            ClusterRunFailedException.class,
            e -> assertThat(e.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT))
        .hasMessageContaining("Cannot finish `floe run " + missing)
        .hasMessageContaining("exit code 2");
    assertThat(err.toString()).contains("missing.yaml");
  }

  @Test
  void aSucceedingCommandReturnsNormally() {
    StringWriter out = new StringWriter();

    FloeClusterMain.run(
        new String[] {"--version"},
        new PrintWriter(out, true),
        new PrintWriter(new StringWriter()));

    assertThat(out.toString()).startsWith("floe ");
  }

  @Test
  void isTheEntryClassTheImageAndTheKubernetesManifestsName() {
    assertThat(FloeClusterMain.class.getName()).isEqualTo(ImageLayout.CLUSTER_ENTRY_CLASS);
  }
}
