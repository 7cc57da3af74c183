package dev.floe.flink.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.deploy.ImageLayout;
import dev.floe.flink.cli.FloeCommand;
import dev.floe.flink.cli.FloeMain;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docker/README.md's commands against the code: the entry classes, the jar path, the container
 * paths and every {@code floe ...} line, parsed by Floe's own command line.
 */
class DockerReadmeTest {
  private static final String FUNCTION = "floe() {";
  private static final Pattern JSON_BODY = Pattern.compile("-d '(\\{.*?})'", Pattern.DOTALL);

  private final String readme = DockerFiles.read(DockerFiles.docker().resolve("README.md"));
  private final List<String> commands = shellCommands(readme);

  @Test
  void flinkRunUsesFloeMainAndTheJarInTheImage() {
    List<String> floe = floeFunction();
    int run = floe.indexOf("run");
    assertThat(floe.subList(0, run + 1))
        .containsExactly("docker", "compose", "exec", "jobmanager", "flink", "run");
    assertThat(floe.get(run + 1)).isEqualTo("-c");
    // FloeMain under `flink run`: main runs in the client, and its exit code is the command's.
    assertThat(floe.get(run + 2)).isEqualTo(FloeMain.class.getName());
    assertThat(floe.get(run + 3)).isEqualTo(ImageLayout.JAR_PATH);
    assertThat(floe.subList(run + 4, floe.size()))
        .containsExactly("$@", "--config", ImageLayout.CONFIG_FILE);
  }

  @Test
  void everyFloeCommandParsesAndNamesFilesTheImageHas() {
    List<List<String>> floeLines =
        commands.stream()
            .map(ShellWords::split)
            .filter(w -> !w.isEmpty() && w.get(0).equals("floe"))
            .toList();
    assertThat(floeLines).hasSizeGreaterThanOrEqualTo(6);
    List<String> suffix =
        floeFunction().subList(floeFunction().indexOf("$@") + 1, floeFunction().size());
    for (List<String> line : floeLines) {
      List<String> args = new ArrayList<>(line.subList(1, line.size()));
      args.addAll(suffix);
      assertParses(args);
    }
  }

  @Test
  void restSubmissionUsesTheClusterEntryClassWithArgumentsThatParse() throws Exception {
    Matcher body = JSON_BODY.matcher(readme);
    assertThat(body.find()).as("a REST /jars/<id>/run request body").isTrue();
    JsonNode request = new ObjectMapper().readTree(body.group(1));

    assertThat(request.path("entryClass").asText()).isEqualTo(ImageLayout.CLUSTER_ENTRY_CLASS);
    assertThat(Class.forName(ImageLayout.CLUSTER_ENTRY_CLASS)).isNotNull();
    List<String> args = new ArrayList<>();
    request.path("programArgsList").forEach(a -> args.add(a.asText()));
    assertParses(args);
    assertThat(readme).contains("docker compose cp jobmanager:" + ImageLayout.JAR_PATH);
  }

  @Test
  void listsEveryPinnedImageAndBuildsTheDefaultImageName() {
    DockerFiles.compose()
        .path("services")
        .forEach(s -> assertThat(readme).contains("`" + s.path("image").asText()));
    DockerFiles.dockerfile()
        .stages()
        .forEach(s -> assertThat(readme).contains("`" + s.image() + "`"));
    assertThat(readme).contains("-t " + ImageLayout.defaultImage() + " .");
  }

  private static void assertParses(List<String> args) {
    for (String arg : args) {
      if (arg.startsWith(ImageLayout.PROJECT_DIR + "/") && !arg.equals(ImageLayout.CONFIG_FILE)) {
        // The image's project is examples/ unless PROJECT_DIR says otherwise.
        Path inRepo =
            DockerFiles.root()
                .resolve("examples")
                .resolve(arg.substring(ImageLayout.PROJECT_DIR.length() + 1));
        assertThat(inRepo).as("%s in the default image", arg).exists();
      }
    }
    assertThatCode(() -> FloeCommand.commandLine().parseArgs(args.toArray(String[]::new)))
        .as("floe %s", String.join(" ", args))
        .doesNotThrowAnyException();
  }

  /** The words of the README's {@code floe() { ... }} shell function body. */
  private List<String> floeFunction() {
    String definition =
        commands.stream()
            .filter(c -> c.startsWith(FUNCTION))
            .findFirst()
            .orElseThrow(() -> new AssertionError("docker/README.md defines no " + FUNCTION));
    String body = definition.substring(FUNCTION.length(), definition.lastIndexOf('}'));
    return ShellWords.split(body.replace(";", " "));
  }

  /**
   * The commands in the README's bash blocks: continuation lines and lines inside a quote joined,
   * and a shell function's lines up to its closing brace kept as one command.
   */
  static List<String> shellCommands(String markdown) {
    List<String> commands = new ArrayList<>();
    boolean inBash = false;
    StringBuilder pending = new StringBuilder();
    for (String line : markdown.lines().toList()) {
      if (line.startsWith("```")) {
        inBash = !inBash && line.equals("```bash");
        continue;
      }
      if (!inBash) {
        continue;
      }
      String trimmed = line.trim();
      boolean open =
          trimmed.endsWith("\\")
              || ShellWords.endsInQuote(pending + trimmed)
              || (pending.toString().startsWith(FUNCTION) || trimmed.startsWith(FUNCTION))
                  && !trimmed.equals("}");
      pending.append(trimmed.endsWith("\\") ? trimmed.substring(0, trimmed.length() - 1) : trimmed);
      pending.append(' ');
      if (!open) {
        commands.add(pending.toString().trim());
        pending.setLength(0);
      }
    }
    return commands;
  }
}
