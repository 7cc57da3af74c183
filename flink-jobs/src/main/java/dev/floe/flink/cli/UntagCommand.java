package dev.floe.flink.cli;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.snapshot.TagPlan;
import dev.floe.catalog.snapshot.Untag;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `floe untag <table> NAME`: remove a tag. Metadata only. */
@Command(
    name = "untag",
    header = "Remove a tag.",
    mixinStandardHelpOptions = true,
    description = {
      "Remove a tag. The snapshot stays until snapshot expiry drops it. Branches are refused:",
      "main, and audit branches (use `floe discard`). A tag already removed (one of the",
      "table's last "
          + Untag.RECENT_VERSIONS
          + " metadata versions had it: a retried untag) is a no-op, exit 0."
    })
public final class UntagCommand implements Callable<Integer> {
  @Mixin CommonOptions common;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "TABLE", description = "namespace.table")
  String table;

  @Parameters(index = "1", paramLabel = "NAME", description = "The tag to remove.")
  String name;

  @Option(
      names = "--dry-run",
      description = "Check and print what would be removed; change nothing.")
  boolean dryRun;

  @Override
  public Integer call() {
    TagPlan plan =
        common.withTable(
            table,
            loaded -> {
              Untag untag = Untag.of(loaded, table, name);
              return dryRun ? untag.apply() : untag.commit();
            });
    TagCommand.print(plan, spec.commandLine().getOut(), dryRun, common.json);
    return ExitCodes.OK;
  }
}
