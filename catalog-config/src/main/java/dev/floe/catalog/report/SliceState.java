package dev.floe.catalog.report;

/** The colour of a slice in the report's heatmap. */
public enum SliceState {
  /** One Floe commit loaded the slice. */
  LOADED("loaded"),
  /** More than one Floe commit loaded the slice. */
  RELOADED("reloaded"),
  /**
   * A source of the slice's latest run received rows of the slice after the snapshot the run read,
   * and the slice still takes them (its window is open, or the policy reopens sealed slices).
   */
  LATE_DATA_PENDING("late data pending"),
  /** The slice's end plus the table's late-data window lies at or before the as-of instant. */
  SEALED("sealed");

  private final String text;

  SliceState(String text) {
    this.text = text;
  }

  /** How the page and the CLI name the state. */
  public String text() {
    return text;
  }
}
