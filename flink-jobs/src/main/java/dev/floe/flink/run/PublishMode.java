package dev.floe.flink.run;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.AuditBranch;
import dev.floe.catalog.snapshot.ScratchBranch;
import java.util.Locale;

/**
 * Where a run's commit becomes visible: main at once, an audit branch published later, or a scratch
 * branch that is only read and then dropped.
 */
public enum PublishMode {
  /** Commit to main. */
  AUTO,
  /**
   * Write-audit-publish: commit to the branch {@code audit-<run-id>}; main is unchanged until
   * {@code floe publish}.
   */
  MANUAL,
  /**
   * Commit to the branch {@code scratch-<run-id>}, which never reaches main: what {@code
   * ScratchRun} (and so {@code floe verify}) reads and then drops. Not a {@code --publish} choice
   * of {@code floe run}, since nothing would ever drop the branch.
   */
  SCRATCH;

  public String text() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The branch a run with this id commits to, or null for main. */
  public String branch(String runId) {
    return switch (this) {
      case AUTO -> null;
      case MANUAL -> AuditBranch.of(runId);
      case SCRATCH -> ScratchBranch.of(runId);
    };
  }

  /**
   * @throws InvalidInputException for anything but auto or manual
   */
  public static PublishMode parse(String text) {
    for (PublishMode mode : new PublishMode[] {AUTO, MANUAL}) {
      if (mode.text().equals(text)) {
        return mode;
      }
    }
    throw InvalidInputException.of("Cannot read --publish '%s': expected auto or manual", text);
  }
}
