package dev.floe.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An empty home, as a script with an unset variable passes it: an empty FLOE_HOME counts as unset
 * (the catalog and the logs both in ./.floe), an empty --home is refused with one line. Neither
 * puts the catalog's files into the working directory.
 */
class BinFloeEmptyHomeITCase {
  @TempDir Path work;

  @Test
  void anEmptyHomeOptionIsRefusedWithOneLineAndNothingIsMade() throws Exception {
    BinFloe.Result result = BinFloe.run(work, "snapshots", "sales.fact_orders", "--home", "");

    assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
    assertThat(result.err().lines())
        .containsExactly(
            "floe: Cannot use --home '': it is empty; name the Floe home's folder, or leave"
                + " --home out to use $FLOE_HOME, else ./.floe");
    assertThat(namesIn(work)).allMatch(name -> name.startsWith("out") || name.startsWith("err"));
  }

  @Test
  void anEmptyFloeHomeIsTheDefaultHomeForTheCatalogAndTheLogs() throws Exception {
    Path tables = BinFloe.repoRoot().resolve("examples/tables");

    BinFloe.Result applied =
        BinFloe.run(work, Map.of("FLOE_HOME", ""), "tables", "apply", tables.toString());

    assertThat(applied.exitCode()).as(applied.err()).isZero();
    assertThat(work.resolve(".floe/catalog.db")).isRegularFile();
    assertThat(namesIn(work))
        .allMatch(name -> name.equals(".floe") || name.startsWith("out") || name.startsWith("err"));
  }

  private static Stream<String> namesIn(Path dir) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(file -> file.getFileName().toString()).toList().stream();
    }
  }
}
