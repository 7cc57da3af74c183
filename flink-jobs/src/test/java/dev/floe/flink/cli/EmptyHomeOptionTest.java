package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An empty {@code --home} is refused with one line naming it, and nothing is made in the working
 * directory (it used to hold the catalog there, while bin/floe wrote the logs elsewhere).
 */
class EmptyHomeOptionTest {
  private static final List<String> CATALOG_FILES =
      List.of("catalog.db", "catalog.db.init-lock", "catalog.db.ready", "home-location");

  @AfterEach
  void removeWhatAFailedRunLeftInTheWorkingDirectory() throws IOException {
    for (String name : CATALOG_FILES) {
      Files.deleteIfExists(Path.of(name));
    }
    if (Files.isDirectory(Path.of(" "))) { // the blank home, taken as a folder named " "
      try (var files = Files.walk(Path.of(" "))) {
        for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(file);
        }
      }
    }
  }

  @Test
  void anEmptyHomeIsRefusedAndNothingIsMadeInTheWorkingDirectory() {
    assertRefused("");
  }

  @Test
  void aBlankHomeIsRefusedToo() {
    assertRefused(" ");
  }

  @Test
  void aHomeWrittenWithATildeIsRefusedWithThePathWrittenOutAndNoFolderNamedTilde() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int code =
        FloeMain.execute(
            new String[] {"sql", "SELECT 1", "--home", "~/floe-home"},
            new PrintWriter(out, true),
            new PrintWriter(err, true));

    assertThat(code).as(err.toString()).isEqualTo(2);
    assertThat(err.toString())
        .isEqualTo(
            "floe: Cannot use --home '~/floe-home': '~' is expanded only by a shell and only"
                + " unquoted; write the path out, e.g. "
                + System.getProperty("user.home")
                + "/floe-home\n");
    assertThat(Path.of("~")).as("a folder named '~' in the working directory").doesNotExist();
  }

  private static void assertRefused(String home) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int code =
        FloeMain.execute(
            new String[] {"snapshots", "sales.fact_orders", "--home", home},
            new PrintWriter(out, true),
            new PrintWriter(err, true));

    assertThat(code).as(err.toString()).isEqualTo(2);
    assertThat(err.toString())
        .isEqualTo(
            "floe: Cannot use --home '"
                + home
                + "': it is empty; name the Floe home's folder, or leave --home out to use"
                + " $FLOE_HOME, else ./.floe\n");
    assertThat(out.toString()).isEmpty();
    for (String name : CATALOG_FILES) {
      assertThat(Path.of(name)).as("left in the working directory").doesNotExist();
    }
    assertThat(Path.of(" ")).as("a folder named ' '").doesNotExist();
  }
}
