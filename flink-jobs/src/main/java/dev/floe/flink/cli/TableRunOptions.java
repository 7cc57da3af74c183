package dev.floe.flink.cli;

import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code TABLE --run RUN_ID}, one run of one table: {@code floe publish}, {@code discard} and
 * {@code revert}. The {@code --run} description below is publish's; discard's and revert's are in
 * {@code OptionTexts.properties}.
 */
public final class TableRunOptions {
  @Parameters(index = "0", paramLabel = "TABLE", description = "namespace.table")
  String table;

  @Option(
      names = "--run",
      required = true,
      paramLabel = "RUN_ID",
      descriptionKey = "run",
      description = "The run id `floe run --publish manual` printed.")
  String runId;

  public String table() {
    return table;
  }

  public String runId() {
    return runId;
  }
}
