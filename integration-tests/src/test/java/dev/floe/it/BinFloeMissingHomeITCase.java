package dev.floe.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A FLOE_HOME with a typo, given to a command that only reads: bin/floe fails with one line naming
 * the folder, and makes no catalog there. (The one thing left is an empty logs folder: log4j makes
 * its file's folder when the JVM starts, before the command knows the home holds no catalog.)
 */
class BinFloeMissingHomeITCase {
  @TempDir Path work;

  @Test
  void aReadOnlyCommandOnAHomeThatDoesNotExistCreatesNothing() throws Exception {
    Path typo = work.resolve("typo");

    BinFloe.Result result =
        BinFloe.run(work, Map.of("FLOE_HOME", typo.toString()), "snapshots", "sales.fact_orders");

    assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
    assertThat(result.err().lines())
        .containsExactly(
            "floe: Cannot open the catalog: "
                + typo
                + " holds no Floe home (FLOE_HOME or --home); create one with `floe tables apply`"
                + " or `floe quickstart`");
    try (Stream<Path> files = Files.walk(typo)) {
      assertThat(files).containsExactlyInAnyOrder(typo, typo.resolve("logs"));
    }
    assertThat(work.resolve(".floe")).doesNotExist();
  }
}
