package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A command line picocli cannot parse is refused in one line on stderr, exit 2, that names the
 * mistake and where the command's usage is ("(see `floe run --help`)"), as a value of the wrong
 * type always was; the whole usage text (17 to 108 lines) no longer follows it.
 */
class UsageErrorsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;

  static Stream<Arguments> commandLines() {
    return Stream.of(
        Arguments.of(List.of("snapshots", "t", "--no-such-option"), "floe snapshots"),
        Arguments.of(List.of("snapshots"), "floe snapshots"),
        Arguments.of(List.of("snapshots", "t", "--limit", "1", "--limit", "2"), "floe snapshots"),
        Arguments.of(List.of("snapshots", "t", "u"), "floe snapshots"),
        Arguments.of(List.of("snapshots", "t", "--catalog-property", "noequals"), "floe snapshots"),
        Arguments.of(List.of("late", "frob", "x"), "floe late"),
        Arguments.of(List.of("late"), "floe late"),
        Arguments.of(List.of("snapshot", "t"), "floe"),
        Arguments.of(List.of("bogus"), "floe"),
        Arguments.of(List.of("help", "bogus"), "floe"),
        Arguments.of(List.of("snapshots", "t", "--limit", "abc"), "floe snapshots"));
  }

  @ParameterizedTest
  @MethodSource("commandLines")
  void isOneLineNamingTheCommandsHelp(List<String> args, String command) {
    CliRun run = floe(home, args.toArray(String[]::new));

    assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err().lines()).as(run.err()).hasSize(1);
    assertThat(run.err()).startsWith("floe: ").endsWith(" (see `" + command + " --help`)\n");
    assertThat(run.err()).doesNotContain(". (see").doesNotContain(".; did you mean");
  }

  @Test
  void withJsonStdoutHoldsTheFailureObjectAndStderrTheSameOneLine() throws Exception {
    CliRun run = floe(home, "snapshots", "t", "--json", "--limt", "1");

    assertThat(run.exitCode()).isEqualTo(2);
    JsonNode json = JSON.readTree(run.out());
    assertThat(json.get("status").asText()).isEqualTo("failed");
    assertThat(json.get("exit_code").asInt()).isEqualTo(2);
    String error = json.get("error").asText();
    assertThat(error).startsWith("Unknown options: '--limt'").endsWith("; did you mean --limit?");
    assertThat(run.err()).isEqualTo("floe: " + error + " (see `floe snapshots --help`)\n");
  }
}
