package dev.floe.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A project whose path holds a space, a '#' and a '%', as a user's folder may: bin/floe runs there
 * without log4j complaining about its log file's pattern, and the embedded catalog keeps its
 * warehouse inside the Floe home (not in a sibling folder named with URI escapes).
 */
class BinFloeHomePathITCase {
  @TempDir Path work;

  @Test
  void aHomeWhosePathHoldsASpaceHashAndPercentWorksAndKeepsItsTablesInside() throws Exception {
    Path project = Files.createDirectories(work.resolve("my project #1 50%"));
    Path tables = BinFloe.repoRoot().resolve("examples/tables");

    BinFloe.Result applied = BinFloe.run(project, "tables", "apply", tables.toString());

    assertThat(applied.exitCode()).as(applied.err()).isZero();
    assertThat(applied.err()).doesNotContain("ERROR").doesNotContain("conversion");
    assertThat(project.resolve(".floe/warehouse/sales/fact_orders/metadata")).isDirectory();
    try (var siblings = Files.list(work)) {
      assertThat(siblings).containsExactly(project);
    }
  }
}
