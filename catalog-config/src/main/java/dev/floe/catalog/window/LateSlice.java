package dev.floe.catalog.window;

import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.catalog.spec.LateDataSpec;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/**
 * One loaded slice of a late-data plan: its window state as of the plan's instant, the rows its
 * sources received after the snapshots its latest run read, and what to do about them. A slice
 * whose content another job loaded is listed with {@link LateAction#OTHER_JOB}, its late rows not
 * counted.
 *
 * @param slice the slice
 * @param state open or sealed as of the plan's instant, or sealed because it ends at or before the
 *     table's {@code floe.sealed-through}
 * @param sealsAt when the slice's late-data window closes, or null when the table has none
 * @param action what {@code floe late apply} does with it
 * @param note one sentence saying why
 * @param latest the load whose content the slice holds now (its lineage names the sources read)
 * @param lateRows per source of that load: rows that arrived after the snapshot it read; empty for
 *     a slice of another job (not counted)
 * @param loadedBy the job whose load the slice holds now
 */
public record LateSlice(
    Slice slice,
    WindowState state,
    Instant sealsAt,
    LateAction action,
    String note,
    SliceLoad latest,
    List<LateRowCount> lateRows,
    String loadedBy) {

  public LateSlice {
    lateRows = List.copyOf(lateRows);
  }

  /**
   * Decides the action for a slice this job loaded. Open: late rows, or a count that cannot be
   * known, mean rerun (the job reruns its own query over its own slice: a whole-slice overwrite,
   * and an unchanged slice becomes a no-op). Sealed: late rows are reported, or rerun when the
   * policy reopens sealed slices. A sealed slice is reopened only for rows known to have arrived:
   * an unknown count there (e.g. the source's old snapshots were expired) would otherwise reopen
   * every old slice at once.
   *
   * <p>A slice that ends at or before {@code sealedThrough} is sealed whatever {@code asOf} says:
   * the marker declared it final, so an apply with an older as-of (a retried or backfilled
   * scheduler task) must not see it open again and rewrite it.
   *
   * @param sealedThrough the table's {@code floe.sealed-through} now, or null
   */
  public static LateSlice of(
      Slice slice,
      SliceLoad latest,
      List<LateRowCount> lateRows,
      LateDataWindow window,
      Instant asOf,
      Instant sealedThrough) {
    Instant sealsAt = window.sealsAt(slice).orElse(null);
    boolean windowClosed = window.state(slice, asOf) == WindowState.SEALED;
    WindowState state = state(slice, window, asOf, sealedThrough);
    long known = lateRows.stream().mapToLong(c -> c.count().orElse(0L)).sum();
    Optional<String> unknown =
        lateRows.stream().filter(c -> !c.known()).map(LateRowCount::describe).findFirst();
    String rows = known + (known == 1 ? " late row" : " late rows");
    LateAction action;
    String note;
    if (state == WindowState.OPEN) {
      String open = sealsAt == null ? "open (no late-data window)" : "open until " + sealsAt;
      if (unknown.isPresent()) {
        action = LateAction.RERUN;
        note =
            "late rows unknown ("
                + unknown.get()
                + "); this job loaded it, so it is rerun (a whole-slice overwrite; unchanged, it"
                + " is a no-op); "
                + open;
      } else if (known > 0) {
        action = LateAction.RERUN;
        note = rows + "; " + open;
      } else {
        action = LateAction.NONE;
        note = "no late rows; " + open;
      }
    } else {
      String sealed =
          windowClosed
              ? "sealed since " + sealsAt
              : "sealed by "
                  + FloeTableProperties.SEALED_THROUGH
                  + "="
                  + SealedThrough.format(sealedThrough)
                  + (sealsAt == null ? "" : " (its window closes at " + sealsAt + ")");
      boolean reopen =
          window
              .policy()
              .map(p -> p.afterWindow() == LateDataSpec.AfterWindow.REOPEN)
              .orElse(false);
      if (known > 0 && reopen) {
        action = LateAction.RERUN_REOPENED;
        note = rows + "; " + sealed + ", reopened (after_window: reopen)";
      } else if (known > 0) {
        action = LateAction.REPORT;
        note = rows + "; " + sealed + ": reported, not loaded (after_window: report)";
      } else if (unknown.isPresent()) {
        action = LateAction.REPORT;
        note =
            "late rows unknown ("
                + unknown.get()
                + "); "
                + sealed
                + ": reported, not loaded"
                + (reopen
                    ? " (a sealed slice is reopened only for rows known to have arrived)"
                    : "");
      } else {
        action = LateAction.NONE;
        note = "no late rows; " + sealed;
      }
    }
    return new LateSlice(
        slice, state, sealsAt, action, note, latest, lateRows, latest.lineage().job());
  }

  /**
   * A slice whose content another job loaded: listed with its state (it still counts for the
   * sealing marker, which is the table's), never rerun by {@code job}, and its late rows are not
   * counted (they are {@code owner}'s to fold in, with its own query).
   *
   * @param latest the newest load of this slice
   * @param owner the job whose load the slice holds now
   * @param job the job the plan is for
   */
  public static LateSlice ofOtherJob(
      Slice slice,
      SliceLoad latest,
      String owner,
      String job,
      LateDataWindow window,
      Instant asOf,
      Instant sealedThrough) {
    WindowState state = state(slice, window, asOf, sealedThrough);
    String note =
        "loaded by job "
            + owner
            + (owner.equals(latest.lineage().job())
                ? ""
                : " (a newer load of an overlapping slice)")
            + ", not by "
            + job
            + ": never rerun by "
            + job
            + ", whose query would replace "
            + owner
            + "'s rows; its late rows are for `floe late` with "
            + owner
            + "'s manifest";
    return new LateSlice(
        slice,
        state,
        window.sealsAt(slice).orElse(null),
        LateAction.OTHER_JOB,
        note,
        latest,
        List.of(),
        owner);
  }

  /**
   * This slice, held because the job cannot run it any more: {@code reason} says why (the slice
   * resolver's refusal). An action that reruns becomes {@link LateAction#CANNOT_RERUN}; any other
   * stays.
   */
  public LateSlice cannotRerun(String reason) {
    if (!action.reruns()) {
      return this;
    }
    return held(LateAction.CANNOT_RERUN, "; it cannot be rerun as loaded: " + reason);
  }

  /** This slice with {@code action} instead of a rerun, and why appended to its note. */
  private LateSlice held(LateAction action, String why) {
    return new LateSlice(slice, state, sealsAt, action, note + why, latest, lateRows, loadedBy);
  }

  /**
   * This slice, held: an operator reverted {@code revertedRun} (of {@code revertedSlice}, this
   * slice or one overlapping it), a newer run by the same job, after the load it holds. A rerun
   * would load the reverted run's rows again, so an action that reruns becomes {@link
   * LateAction#REVERTED}; any other stays.
   */
  public LateSlice heldByRevert(String revertedRun, String revertedSlice) {
    if (!action.reruns()) {
      return this;
    }
    return held(
        LateAction.REVERTED,
        "; run "
            + revertedRun
            + (revertedSlice.equals(slice.label())
                ? " of this slice"
                : " (slice " + revertedSlice + ", overlapping this one)")
            + " was reverted after this load, so it is not rerun: `floe run --slice` loads it"
            + " again when that is wanted");
  }

  /**
   * This slice, not rerun: it covers {@code sealedInside}, sealed slices loaded after it whose late
   * rows are reported, not loaded; rerunning this slice would read those rows and write them into
   * the sealed slices. Becomes {@link LateAction#REPORT}.
   */
  public LateSlice heldBySealed(List<String> sealedInside) {
    return new LateSlice(
        slice,
        state,
        sealsAt,
        LateAction.REPORT,
        note
            + "; not rerun: it holds "
            + String.join(", ", sealedInside)
            + ", sealed, whose late rows are reported, not loaded, and a rerun would load them;"
            + " rerun the open parts with `floe run --slice` when that is wanted",
        latest,
        lateRows,
        loadedBy);
  }

  /** Sealed when its window has passed as of {@code asOf} or it is behind the marker. */
  private static WindowState state(
      Slice slice, LateDataWindow window, Instant asOf, Instant sealedThrough) {
    boolean windowClosed = window.state(slice, asOf) == WindowState.SEALED;
    boolean behindMarker =
        sealedThrough != null && !slice.end().toInstant(ZoneOffset.UTC).isAfter(sealedThrough);
    return windowClosed || behindMarker ? WindowState.SEALED : WindowState.OPEN;
  }

  /** True when the plan's job loaded what the slice holds (so its late rows were counted). */
  public boolean ownedByJob() {
    return action != LateAction.OTHER_JOB;
  }

  /** The late rows counted exactly, over all sources. */
  public long knownLateRows() {
    return lateRows.stream().mapToLong(c -> c.count().orElse(0L)).sum();
  }

  /** True when the late rows of at least one source cannot be known. */
  public boolean lateRowsUnknown() {
    return lateRows.stream().anyMatch(c -> !c.known());
  }

  /**
   * E.g. {@code 3}, {@code unknown}, {@code 2 + unknown} when one source cannot be counted, or
   * {@code -} for another job's slice (not counted).
   */
  public String lateRowsText() {
    if (!ownedByJob()) {
      return "-";
    }
    long known = knownLateRows();
    if (!lateRowsUnknown()) {
      return String.valueOf(known);
    }
    return known > 0 ? known + " + unknown" : "unknown";
  }
}
