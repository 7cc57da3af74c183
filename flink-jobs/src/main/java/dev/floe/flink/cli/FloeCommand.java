package dev.floe.flink.cli;

import dev.floe.catalog.lineage.CodeVersion;
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
    subcommands = {
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
      CommandLine.HelpCommand.class
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
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

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
