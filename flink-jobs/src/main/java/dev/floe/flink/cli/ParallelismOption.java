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
  Integer parallelism;

  /**
   * The value given, or 0 for the default.
   *
   * @throws InvalidInputException for a value given below 1 or above {@link
   *     JobSpec#MAX_PARALLELISM}: every command that takes the flag asks before it starts anything
   */
  public int value() {
    if (parallelism == null) {
      return 0;
    }
    InvalidInputException.check(
        parallelism >= 1 && parallelism <= JobSpec.MAX_PARALLELISM,
        "Cannot use --parallelism %d: give 1 to %d, or leave it out for the default",
        parallelism,
        JobSpec.MAX_PARALLELISM);
    return parallelism;
  }
}
