package dev.floe.flink.cli.docs;

import dev.floe.flink.cli.FloeCommand;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Renders the picocli command tree, one section per command, from picocli's own model: the
 * annotations are the only declaration of a flag, so a new command or flag shows up here without
 * anyone listing it.
 */
final class CommandDocs {
  private static final Comparator<OptionSpec> BY_NAME =
      Comparator.comparing(option -> sortKey(option.longestName()));

  private CommandDocs() {}

  /**
   * The commands worth a section, depth first in registration order. Hidden commands and picocli's
   * own {@code help} command are left out; an alias is listed once.
   */
  static List<CommandLine> commands(CommandLine root) {
    List<CommandLine> commands = new ArrayList<>();
    collect(root, commands, Collections.newSetFromMap(new IdentityHashMap<>()));
    return commands;
  }

  /**
   * The options a command's table lists: not hidden, and not picocli's -h/--help or -V/--version.
   */
  static List<OptionSpec> documentedOptions(CommandSpec spec) {
    return spec.options().stream()
        .filter(option -> !option.hidden() && !option.usageHelp() && !option.versionHelp())
        .sorted(BY_NAME)
        .toList();
  }

  static List<PositionalParamSpec> documentedParameters(CommandSpec spec) {
    return spec.positionalParameters().stream().filter(param -> !param.hidden()).toList();
  }

  /**
   * @param level the heading level, 3 for {@code ###}
   */
  static String render(CommandLine command, int level) {
    CommandSpec spec = command.getCommandSpec();
    StringBuilder out = new StringBuilder();
    out.append("#".repeat(level)).append(' ').append(spec.qualifiedName()).append("\n\n");
    out.append("```text\n").append(usage(spec)).append("\n```\n\n");
    String description = joined(spec.usageMessage().description());
    if (!description.isEmpty()) {
      out.append(Markdown.text(description)).append("\n\n");
    }
    MarkdownTable table = new MarkdownTable("Option", "Value", "Default", "Description");
    for (PositionalParamSpec param : documentedParameters(spec)) {
      table.row(
          Markdown.code(param.paramLabel()),
          param.arity().min() == 0 ? "positional, optional" : "positional",
          Markdown.code(param.defaultValue()),
          description(param));
    }
    for (OptionSpec option : documentedOptions(spec)) {
      table.row(
          String.join(", ", List.of(option.names()).stream().map(Markdown::code).toList()),
          option.arity().max() > 0 ? Markdown.code(option.paramLabel()) : "",
          Markdown.code(option.defaultValue()),
          description(option));
    }
    if (!table.isEmpty()) {
      out.append(table.render()).append('\n');
    }
    String[] footer = spec.usageMessage().footer();
    if (footer.length > 0) {
      String heading = formatted(spec.usageMessage().footerHeading()).trim();
      if (!heading.isEmpty()) {
        out.append(Markdown.text(heading)).append("\n\n");
      }
      out.append("```text\n");
      for (String line : footer) {
        out.append(formatted(line)).append('\n');
      }
      out.append("```\n\n");
    }
    return out.toString();
  }

  private static void collect(CommandLine command, List<CommandLine> into, Set<Object> seen) {
    if (!seen.add(command) || !documented(command)) {
      return;
    }
    into.add(command);
    for (CommandLine sub : command.getSubcommands().values()) {
      collect(sub, into, seen);
    }
  }

  private static boolean documented(CommandLine command) {
    return !command.getCommandSpec().usageMessage().hidden()
        && !(command.getCommand() instanceof CommandLine.HelpCommand);
  }

  private static String usage(CommandSpec spec) {
    // The width of `floe --help`, fixed so the usage lines do not depend on the terminal.
    spec.usageMessage().width(FloeCommand.HELP_WIDTH).autoWidth(false);
    CommandLine.Help help =
        new CommandLine.Help(spec, CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
    return help.synopsis(0).replace("\r\n", "\n").stripTrailing();
  }

  private static String description(ArgSpec arg) {
    // renderedDescription() fills in ${DEFAULT-VALUE}, as --help does.
    return Markdown.text(joined(arg.renderedDescription()));
  }

  /** Description lines are one paragraph; picocli's help wraps them itself. */
  private static String joined(String[] lines) {
    return formatted(String.join(" ", lines)).trim();
  }

  /** Picocli help text is a format string: %n is a line break, %% a percent sign. */
  private static String formatted(String text) {
    return text.replace("%n", "\n").replace("%%", "%");
  }

  private static String sortKey(String name) {
    return name.replaceFirst("^-+", "").toLowerCase(Locale.ROOT);
  }
}
