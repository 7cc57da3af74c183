package dev.floe.catalog.window;

/** What {@code floe late apply} does with one loaded slice. */
public enum LateAction {
  /** Nothing arrived after the run (or nothing the slice still takes). */
  NONE("none"),
  /**
   * The window is open and late rows arrived, or their count is unknown, and this job loaded what
   * the slice holds: rerun the slice.
   */
  RERUN("rerun"),
  /** The slice is sealed and the policy is {@code after_window: report}: list, do not load. */
  REPORT("report"),
  /** The slice is sealed, late rows arrived, and the policy is {@code after_window: reopen}. */
  RERUN_REOPENED("rerun (reopened)"),
  /**
   * Another job loaded what the slice holds now (its latest load, or a newer load of an overlapping
   * slice): listed, never rerun by this job, whose query would replace that job's rows.
   */
  OTHER_JOB("other-job"),
  /**
   * Late rows would rerun the slice, but an operator reverted a newer run of it by this job:
   * listed, never rerun by {@code floe late apply}, which must not undo the revert ({@code floe
   * run} loads the slice again when the operator decides).
   */
  REVERTED("reverted"),
  /**
   * Late rows would rerun the slice, but the job can no longer run it as it was loaded (a day after
   * the table was repartitioned by month): listed with the reason, never rerun, instead of a rerun
   * that {@code floe late apply} would fail on every time.
   */
  CANNOT_RERUN("cannot-rerun");

  private final String text;

  LateAction(String text) {
    this.text = text;
  }

  /** How the CLI and {@code --json} name the action. */
  public String text() {
    return text;
  }

  /** True for the actions {@code floe late apply} reruns. */
  public boolean reruns() {
    return this == RERUN || this == RERUN_REOPENED;
  }
}
