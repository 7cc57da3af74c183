package dev.floe.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.testing.ImportGraph;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * catalog-config stays the bottom module: no Flink, no other Floe module, and no package cycles
 * (docs/architecture.md draws the layers).
 */
class PackageLayeringTest {
  private static final ImportGraph GRAPH =
      ImportGraph.of(Path.of("src/main/java"), "dev.floe.catalog");

  @Test
  void seesNeitherFlinkNorTheModulesAboveIt() {
    assertThat(GRAPH.packages()).contains("commit", "lineage", "snapshot");
    assertThat(
            GRAPH.importsOf(
                "org.apache.flink.", "dev.floe.flink.", "dev.floe.bench.", "dev.floe.it."))
        .isEmpty();
  }

  @Test
  void hasNoPackageCycles() {
    assertThat(GRAPH.cycles()).isEmpty();
  }
}
