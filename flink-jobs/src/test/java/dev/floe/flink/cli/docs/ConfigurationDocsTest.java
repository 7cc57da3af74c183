package dev.floe.flink.cli.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Fails when docs/configuration.md and the code drift. Run with {@code -Dfloe.docs.update=true} it
 * rewrites the file instead (see {@link ConfigurationDocs#REGENERATE_COMMAND}).
 */
class ConfigurationDocsTest {
  private static final String UPDATE_PROPERTY = "floe.docs.update";

  @Test
  void committedReferenceMatchesTheCode() throws IOException {
    Path file = repositoryRoot().resolve(ConfigurationDocs.DEFAULT_PATH);
    if (Boolean.getBoolean(UPDATE_PROPERTY)) {
      ConfigurationDocs.write(file);
      return;
    }
    String hint =
        "%s is out of date with the code; regenerate it from the repository root with:%n  %s"
            .formatted(ConfigurationDocs.DEFAULT_PATH, ConfigurationDocs.REGENERATE_COMMAND);
    assertThat(file).as(hint).exists();
    assertThat(Files.readString(file, StandardCharsets.UTF_8))
        .as(hint)
        .isEqualTo(ConfigurationDocs.render());
  }

  @Test
  void renderingIsDeterministic() {
    assertThat(ConfigurationDocs.render()).isEqualTo(ConfigurationDocs.render());
  }

  @Test
  void documentsEveryGroupAndCommandButNotHiddenOrStandardOptions() {
    String docs = ConfigurationDocs.render();

    ConfigurationDocs.groups().forEach(group -> assertThat(docs).contains(" " + group.title()));
    assertThat(docs)
        .contains("### floe\n", "### floe run\n", "### floe sql\n", "### floe snapshots\n")
        .contains("| `--max-conflict-retries` | `N` | `3` |")
        .contains("| `MANIFEST` | positional |")
        .doesNotContain("--inject-failure")
        .doesNotContain("| `-h`, `--help`")
        .doesNotContain("### floe help");
  }

  @Test
  void writesTheFileMainIsAskedFor() throws IOException {
    Path file = Files.createTempDirectory("floe-docs").resolve("nested/configuration.md");

    ConfigurationDocs.main(new String[] {file.toString()});

    assertThat(Files.readString(file, StandardCharsets.UTF_8))
        .isEqualTo(ConfigurationDocs.render());
  }

  /** Surefire runs in the module folder; the docs live next to {@code mvnw}. */
  private static Path repositoryRoot() {
    Path start = Path.of("").toAbsolutePath();
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      if (Files.exists(dir.resolve("mvnw"))) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "Cannot find the repository root: no mvnw in " + start + " or above");
  }
}
