package dev.floe.catalog.spec;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a slice keeps accepting late rows, and what happens to rows that arrive later still.
 *
 * @param window how long after a slice ends late rows are still folded in by a rerun
 * @param afterWindow what to do with rows that arrive after the window
 */
public record LateDataSpec(Duration window, AfterWindow afterWindow) {

  /** What to do with rows that arrive after the late-data window. */
  public enum AfterWindow {
    /** List them (e.g. in {@code floe late}) but leave the closed slice as it is. */
    REPORT,
    /** Reopen the slice: the next rerun rewrites it with the late rows. */
    REOPEN
  }

  public LateDataSpec {
    Objects.requireNonNull(window, "window");
    Objects.requireNonNull(afterWindow, "afterWindow");
  }
}
