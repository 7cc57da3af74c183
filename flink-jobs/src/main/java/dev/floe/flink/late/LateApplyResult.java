package dev.floe.flink.late;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.window.LateAction;
import dev.floe.catalog.window.LatePlan;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@code floe late apply} did, or would do with {@code --dry-run}.
 *
 * @param job the job manifest's name
 * @param plan the plan it followed
 * @param dryRun true when nothing was run or written
 * @param reruns the slices it reran, in plan order; empty for a dry run
 * @param sealedThroughBefore the table's sealing marker before, or null
 * @param sealedThroughAfter the marker after (for a dry run: what it would be), or null
 */
public record LateApplyResult(
    String job,
    LatePlan plan,
    boolean dryRun,
    List<SliceRerun> reruns,
    Instant sealedThroughBefore,
    Instant sealedThroughAfter) {

  public LateApplyResult {
    reruns = List.copyOf(reruns);
  }

  public List<SliceRerun> failures() {
    return reruns.stream().filter(SliceRerun::failed).toList();
  }

  /** Why the marker stops where it does after this apply; empty at the last loaded slice. */
  public Optional<String> sealedThroughStoppedBy() {
    return plan.sealedThroughStoppedBy(failures().stream().map(r -> r.planned().slice()).toList());
  }

  /** True when the marker moved (for a dry run: would move). */
  public boolean sealedThroughMoved() {
    return !Objects.equals(sealedThroughBefore, sealedThroughAfter);
  }

  /**
   * The exit code of the first failed rerun; else 2 when a slice with late rows cannot be rerun as
   * it was loaded (as its rerun would have failed); else 0.
   */
  public int exitCode() {
    return failures().stream()
        .map(SliceRerun::exitCode)
        .findFirst()
        .orElse(
            plan.slices().stream().anyMatch(s -> s.action() == LateAction.CANNOT_RERUN)
                ? ExitCodes.INVALID_INPUT
                : ExitCodes.OK);
  }
}
