package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * `floe --help` lists every command with a whole one-line summary (a sentence, never cut), and
 * `floe CMD --help` still shows the long description.
 */
class HelpSummariesTest {

  @Test
  void everyCommandListsAWholeOneLineSummary() {
    List<String> problems = new ArrayList<>();
    check(FloeCommand.commandLine(), problems);
    assertThat(problems).isEmpty();
  }

  @Test
  void aCommandsOwnHelpKeepsItsLongDescription() {
    String help = help("run", "--help");

    assertThat(help).contains("Run a job manifest: one slice, one atomic commit.");
    assertThat(help).contains("merge upserts by key behind an ordering guard");
  }

  @Test
  void everyLineOfACommandsDescriptionAndFooterIsShownWholeNotWrapped() {
    List<String> problems = new ArrayList<>();
    checkLines(FloeCommand.commandLine(), problems);
    assertThat(problems).isEmpty();
  }

  private static void checkLines(CommandLine command, List<String> problems) {
    List<String> shown =
        help(path(command).toArray(String[]::new)).lines().map(String::strip).toList();
    CommandLine.Model.UsageMessageSpec usage = command.getCommandSpec().usageMessage();
    List<String> lines = new ArrayList<>(List.of(usage.description()));
    lines.addAll(List.of(usage.footer()));
    for (String text : lines.stream().flatMap(l -> Stream.of(l.split("%n"))).toList()) {
      if (!text.isBlank() && !shown.contains(text.strip())) {
        problems.add(String.join(" ", path(command)) + ": wraps '" + text.strip() + "'");
      }
    }
    command.getSubcommands().values().stream()
        .filter(sub -> !sub.getCommandName().equals("help"))
        .forEach(sub -> checkLines(sub, problems));
  }

  private static void check(CommandLine command, List<String> problems) {
    String list = help(path(command).toArray(String[]::new));
    for (CommandLine sub : command.getSubcommands().values()) {
      String name = sub.getCommandName();
      if (name.equals("help")) {
        continue;
      }
      String[] header = sub.getCommandSpec().usageMessage().header();
      if (header.length != 1 || !header[0].endsWith(".") || header[0].length() > 60) {
        problems.add(name + ": needs a one-line summary of at most 60 characters ending in '.'");
        continue;
      }
      boolean listed =
          list.lines().anyMatch(l -> l.trim().startsWith(name + " ") && l.endsWith(header[0]));
      if (!listed) {
        problems.add(name + ": not listed as '" + name + "  " + header[0] + "'");
      }
      check(sub, problems);
    }
  }

  private static List<String> path(CommandLine command) {
    List<String> path = new ArrayList<>();
    for (CommandLine c = command; c.getParent() != null; c = c.getParent()) {
      path.add(0, c.getCommandName());
    }
    path.add("--help");
    return path;
  }

  private static String help(String... args) {
    StringWriter out = new StringWriter();
    FloeMain.execute(args, new PrintWriter(out, true), new PrintWriter(new StringWriter(), true));
    return out.toString();
  }
}
