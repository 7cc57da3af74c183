package dev.floe.flink.cli;

import dev.floe.catalog.commit.FailurePoint;
import picocli.CommandLine.Option;

/**
 * {@code --inject-failure POINT}, shared by every command that commits: fail on purpose at a named
 * point to rehearse atomicity (the table must hold exactly the old or the new content, and a rerun
 * must end as a clean run would). Hidden from the option list; documented in docs/reliability.md.
 */
public final class FailureInjectionOption {
  @Option(
      names = "--inject-failure",
      hidden = true,
      paramLabel = "POINT",
      description =
          "Fail on purpose at this point, to rehearse atomicity: ${COMPLETION-CANDIDATES}.")
  FailurePoint failAt = FailurePoint.NONE;

  public FailurePoint point() {
    return failAt;
  }
}
