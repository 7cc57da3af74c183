package dev.floe.flink.cli;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.JobSpec;
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

  /**
   * The value given, or 0 for the default (also when 0 is given).
   *
   * @throws InvalidInputException for a value below 0 or above {@link JobSpec#MAX_PARALLELISM}:
   *     every command that takes the flag asks before it starts anything
   */
  public int value() {
    InvalidInputException.check(
        parallelism >= 0 && parallelism <= JobSpec.MAX_PARALLELISM,
        "Cannot use --parallelism %d: give 1 to %d, or 0 (or nothing) for the default",
        parallelism,
        JobSpec.MAX_PARALLELISM);
    return parallelism;
  }
}
