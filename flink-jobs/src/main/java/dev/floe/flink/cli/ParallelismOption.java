package dev.floe.flink.cli;

import picocli.CommandLine.Option;

/**
 * {@code --parallelism N}: {@code floe run}, {@code verify}, {@code backfill} and {@code sql}. The
 * description below is run's and verify's; a command whose default differs says so under its
 * qualified name in {@code OptionTexts.properties} (e.g. {@code floe.backfill.parallelism}).
 */
public final class ParallelismOption {
  @Option(
      names = "--parallelism",
      paramLabel = "N",
      descriptionKey = "parallelism",
      description = "Writer parallelism (default: the manifest's, else Flink's).")
  int parallelism;

  /** The value given, or 0 for the default. */
  public int value() {
    return parallelism;
  }
}
