package dev.floe.flink.cli;

import dev.floe.catalog.lineage.CodeVersion;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** `floe`: the top-level command. */
@Command(
    name = "floe",
    // Descriptions of shared options where a command's differs (ParallelismOption, ...).
    resourceBundle = "dev.floe.flink.cli.OptionTexts",
    mixinStandardHelpOptions = true,
    versionProvider = FloeCommand.Version.class,
    description = {
      "Idempotent Apache Iceberg batch pipelines on Apache Flink:",
      "run any task twice for the same slice and get the same table."
    },
    footerHeading = "%nExit codes:%n",
    footer = {
      "  0  ok (also a rerun that changed nothing: no-op)",
      "  1  unexpected failure",
      "  2  bad usage, manifest, slice or query (nothing committed)",
      "  3  a check failed (nothing committed)",
      "  4  commit conflict: a run from the same or newer data committed first",
      "  5  commit state unknown: look the run id up with `floe snapshots`",
      "  6  timed out (--timeout or the manifest's timeout:): the job was cancelled, nothing",
      "     committed; rerunning is safe",
      "",
      "S3, the catalog database and the REST catalog are checked before a command uses them: one",
      "that cannot be reached fails the command with one line within the catalog property",
      "floe.connect-timeout (default 30s), and nothing is committed. Warnings and retries of",
      "Flink, Iceberg and the AWS SDK go to <Floe home>/logs/floe.log (./.floe/logs/floe.log by",
      "default), not to the terminal."
    })
public final class FloeCommand implements Runnable {
  /** Floe's commands, in the order `floe --help` lists them. */
  static final List<Class<?>> SUBCOMMANDS =
      List.of(
          QuickstartCommand.class,
          TablesCommand.class,
          SqlCommand.class,
          RunCommand.class,
          BackfillCommand.class,
          VerifyCommand.class,
          SnapshotsCommand.class,
          RollbackCommand.class,
          PublishCommand.class,
          DiscardCommand.class,
          TagsCommand.class,
          TagCommand.class,
          UntagCommand.class,
          MaintainCommand.class,
          ReportCommand.class,
          RevertCommand.class,
          EffectsCommand.class,
          LateCommand.class,
          K8sCommand.class,
          LintCommand.class,
          CommandLine.HelpCommand.class);

  /**
   * Columns of every command's help. Descriptions and footers are written as lines of at most this
   * width; at picocli's default of 80 each longer line was broken in two, a word left alone on the
   * next line. On a narrower terminal the terminal folds the longer lines.
   */
  public static final int HELP_WIDTH = 100;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** The whole command line: every command (help, suggestions for a mistyped command, docs). */
  public static CommandLine commandLine() {
    CommandLine floe = new CommandLine(new FloeCommand());
    SUBCOMMANDS.forEach(command -> floe.addSubcommand(subcommand(command)));
    return finish(floe);
  }

  /**
   * The command line for {@code args}: when the first argument names a command (not {@code help}),
   * only that command's model is built. Picocli builds the model of every command it is given from
   * its annotations, which was a third of a metadata command's start-up CPU; what the one command
   * parses, prints and returns is the same as with all of them.
   */
  public static CommandLine commandLine(String[] args) {
    Optional<Class<?>> only =
        args.length == 0
            ? Optional.empty()
            : SUBCOMMANDS.stream()
                .filter(c -> c != CommandLine.HelpCommand.class)
                .filter(c -> c.getAnnotation(Command.class).name().equals(args[0]))
                .findFirst();
    if (only.isEmpty()) {
      return commandLine();
    }
    CommandLine floe = new CommandLine(new FloeCommand());
    floe.addSubcommand(subcommand(only.get()));
    return finish(floe);
  }

  /** What every command shares once the tree is built: the help width and the version. */
  private static CommandLine finish(CommandLine floe) {
    withVersion(floe);
    return floe.setUsageHelpWidth(HELP_WIDTH);
  }

  /**
   * Gives {@code command} and every subcommand below it floe's version: {@code -V}/{@code
   * --version}, which every command's help lists, printed nothing on a subcommand declared without
   * a version provider.
   */
  private static void withVersion(CommandLine command) {
    command.getCommandSpec().versionProvider(new Version());
    command.getSubcommands().values().forEach(FloeCommand::withVersion);
  }

  /**
   * A command's own command line, built as picocli builds a top-level one: with its model
   * transformers applied (lint's rule list), which {@code addSubcommand(Class)} would skip.
   */
  private static CommandLine subcommand(Class<?> command) {
    return new CommandLine(command);
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"floe " + CodeVersion.current()};
    }
  }
}
