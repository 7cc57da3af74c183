package dev.floe.flink.cli;

import dev.floe.catalog.snapshot.RevertPlan;

/**
 * What `floe revert` did, or with --dry-run would do. A dry run of a revert that would change
 * nothing reports that no-op, as the real command would (and as `floe discard --dry-run` does):
 * only a revert that would commit is a "dry-run".
 */
enum RevertOutcome {
  REVERTED("reverted"),
  WOULD_REVERT("dry-run"),
  ALREADY_REVERTED("already-reverted"),
  NOTHING_TO_REVERT("nothing-to-revert");

  private final String status;

  RevertOutcome(String status) {
    this.status = status;
  }

  static RevertOutcome of(RevertPlan plan, boolean dryRun) {
    if (dryRun && plan.changes()) {
      return WOULD_REVERT;
    }
    if (plan.revertSnapshotId() != null) {
      return REVERTED;
    }
    return plan.alreadyRevertedBy().isPresent() ? ALREADY_REVERTED : NOTHING_TO_REVERT;
  }

  /** How --json's {@code status} names it. */
  String status() {
    return status;
  }
}
