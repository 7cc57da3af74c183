package dev.floe.flink.job;

import dev.floe.catalog.error.CheckFailedException;
import dev.floe.catalog.lineage.ContentDifference;
import dev.floe.catalog.lineage.ContentHash;
import java.util.Optional;

/**
 * What {@link Verify} found: the slice's content after each of two scratch runs, and on main.
 *
 * @param job the job's name
 * @param target the target table
 * @param mode the write mode
 * @param slice the slice label ({@code *} for the whole table)
 * @param first the first scratch run (its branch is dropped by now)
 * @param second the second scratch run (dropped too)
 * @param mainSnapshotId main's head when it was read, or null for a table without snapshots
 * @param main the slice's content hash on main
 * @param runDifference how the second run's content differs from the first's; null when the runs
 *     are reproducible
 * @param mainDifference how the first run's content differs from main's; null when main matches
 * @param elapsedMillis wall time of the whole verify
 */
public record VerifyResult(
    String job,
    String target,
    String mode,
    String slice,
    ScratchResult first,
    ScratchResult second,
    Long mainSnapshotId,
    ContentHash main,
    ContentDifference runDifference,
    ContentDifference mainDifference,
    long elapsedMillis) {

  /** Whether both runs left exactly the same content. */
  public boolean reproducible() {
    return first.content().equals(second.content());
  }

  /** Whether main holds what the runs left (what a rerun of the slice would leave unchanged). */
  public boolean mainMatches() {
    return reproducible() && main.equals(first.content());
  }

  /**
   * @throws CheckFailedException when the two runs differ (exit code 3)
   */
  public VerifyResult requireReproducible() {
    failure()
        .ifPresent(
            message -> {
              throw new CheckFailedException(message);
            });
    return this;
  }

  /** Why verify fails ({@link #requireReproducible}), or empty when both runs left one content. */
  public Optional<String> failure() {
    if (reproducible()) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            "Cannot verify %s for %s: two runs of the same slice left different content (%s and"
                + " %s); columns that differ: %s",
            job,
            slice,
            first.content().encode(),
            second.content().encode(),
            runDifference.columns().isEmpty()
                ? "none on their own (the values are paired differently)"
                : String.join(", ", runDifference.columns())));
  }
}
