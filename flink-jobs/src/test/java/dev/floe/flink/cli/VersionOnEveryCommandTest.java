package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * Every command's help lists {@code -V}/{@code --version}: on every command and nested subcommand
 * it prints what {@code floe --version} prints (it printed nothing on a subcommand, exit 0).
 */
class VersionOnEveryCommandTest {

  /** Every command and nested subcommand, each with -V and with --version. */
  static Stream<List<String>> commandLines() {
    List<List<String>> paths = new ArrayList<>();
    collect(FloeCommand.commandLine().getSubcommands(), List.of(), paths);
    return paths.stream().flatMap(path -> Stream.of(append(path, "-V"), append(path, "--version")));
  }

  private static void collect(
      Map<String, CommandLine> commands, List<String> prefix, List<List<String>> paths) {
    commands.forEach(
        (name, command) -> {
          if (!name.equals("help")) {
            List<String> path = append(prefix, name);
            paths.add(path);
            collect(command.getSubcommands(), path, paths);
          }
        });
  }

  private static List<String> append(List<String> path, String arg) {
    List<String> longer = new ArrayList<>(path);
    longer.add(arg);
    return longer;
  }

  private static String[] floe(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = FloeMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new String[] {String.valueOf(code), out.toString(), err.toString()};
  }

  @ParameterizedTest
  @MethodSource("commandLines")
  void printsFloesVersion(List<String> line) {
    String[] floe = floe("--version");
    assertThat(floe[1]).startsWith("floe ");

    String[] command = floe(line.toArray(String[]::new));

    assertThat(command).containsExactly("0", floe[1], "");
  }
}
