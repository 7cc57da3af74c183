package dev.floe.flink.cli;

import java.util.List;

/**
 * A Floe command that failed inside a Flink cluster. It carries the exit code {@code bin/floe}
 * would have returned; the reason is already on the JobManager's stderr.
 */
public final class ClusterRunFailedException extends RuntimeException {
  private final int exitCode;

  public ClusterRunFailedException(List<String> args, int exitCode) {
    super(
        "Cannot finish `floe "
            + String.join(" ", args)
            + "`: it ended with exit code "
            + exitCode
            + " (the reason is in the JobManager log)");
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }
}
