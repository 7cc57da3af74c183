package dev.floe.catalog.window;

/** Whether a slice still accepts late rows at a given instant. */
public enum WindowState {
  /** Before slice end + late-data window, or the table has no late-data policy. */
  OPEN,
  /**
   * At or after slice end + late-data window, or the slice ends at or before the table's {@code
   * floe.sealed-through}: the slice is final.
   */
  SEALED
}
