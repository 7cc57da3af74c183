package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * A command line that names a command builds only that command's model ({@link
 * FloeCommand#commandLine(String[])}), and a user sees exactly what the whole model gives: help of
 * every command and subcommand, and the errors and exit codes of bad options.
 */
class OneCommandModelTest {
  /** Built once: picocli resets every option before it parses a command line. */
  private static final CommandLine WHOLE = FloeCommand.commandLine();

  private record Outcome(int code, String out, String err) {}

  private static Outcome run(String[] args, CommandLine commandLine) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        FloeMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true), commandLine);
    return new Outcome(code, out.toString(), err.toString());
  }

  /** Every command and nested subcommand, with --help, and with an option no command has. */
  static Stream<List<String>> commandLines() {
    List<List<String>> lines = new ArrayList<>();
    collect(WHOLE.getSubcommands(), List.of(), lines);
    return lines.stream()
        .flatMap(path -> Stream.of(append(path, "--help"), append(path, "--no-such-option")));
  }

  private static void collect(
      Map<String, CommandLine> commands, List<String> prefix, List<List<String>> lines) {
    commands.forEach(
        (name, command) -> {
          List<String> path = append(prefix, name);
          if (!name.equals("help")) {
            lines.add(path);
          }
          collect(command.getSubcommands(), path, lines);
        });
  }

  private static List<String> append(List<String> path, String arg) {
    List<String> longer = new ArrayList<>(path);
    longer.add(arg);
    return longer;
  }

  @ParameterizedTest
  @MethodSource("commandLines")
  void aNamedCommandPrintsAndExitsAsWithTheWholeModel(List<String> line) {
    String[] args = line.toArray(String[]::new);
    Outcome whole = run(args, WHOLE);
    Outcome one = run(args, FloeCommand.commandLine(args));
    assertThat(one).isEqualTo(whole);
  }

  @Test
  void onlyTheNamedCommandIsBuilt() {
    assertThat(FloeCommand.commandLine(new String[] {"snapshots", "t"}).getSubcommands())
        .containsOnlyKeys("snapshots");
  }

  @Test
  void aMistypedOrMissingCommandGetsTheWholeModelAndItsSuggestion() {
    assertThat(FloeCommand.commandLine(new String[] {"snapshot"}).getSubcommands())
        .hasSize(FloeCommand.SUBCOMMANDS.size());
    assertThat(FloeCommand.commandLine(new String[] {"help", "run"}).getSubcommands())
        .hasSize(FloeCommand.SUBCOMMANDS.size());
    assertThat(FloeCommand.commandLine(new String[] {}).getSubcommands())
        .hasSize(FloeCommand.SUBCOMMANDS.size());
    String[] typo = {"snapshot", "sales.fact_orders"};
    Outcome outcome = run(typo, FloeCommand.commandLine(typo));
    assertThat(outcome.code()).isEqualTo(2);
    assertThat(outcome.err()).contains("did you mean snapshots?");
  }
}
