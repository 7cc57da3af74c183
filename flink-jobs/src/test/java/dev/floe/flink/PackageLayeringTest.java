package dev.floe.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.testing.ImportGraph;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * flink-jobs sits on catalog-config and under benchmarks and integration-tests, with no package
 * cycles (docs/architecture.md draws the layers).
 */
class PackageLayeringTest {
  private static final ImportGraph GRAPH =
      ImportGraph.of(Path.of("src/main/java"), "dev.floe.flink");

  @Test
  void seesNoModuleAboveIt() {
    assertThat(GRAPH.packages()).contains("job", "commit", "cli");
    assertThat(GRAPH.importsOf("dev.floe.bench.", "dev.floe.it.", "dev.floe.testservers."))
        .isEmpty();
  }

  @Test
  void hasNoPackageCycles() {
    assertThat(GRAPH.cycles()).isEmpty();
  }
}
