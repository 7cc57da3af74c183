package dev.floe.bench;

/**
 * One way of loading the slice. The harness times {@link #execute()} only and calls {@link
 * #verify()} after every run, measured or not: a fast wrong result must stop the benchmark.
 */
interface WritePath {
  /** A short label for the results table. */
  String name();

  /** Rows the slice holds after a run (0 for the empty slice). */
  long rows();

  /** Rows one run writes: {@link #rows()}, or 0 for a run that writes none (a no-op rerun). */
  default long rowsWritten() {
    return rows();
  }

  /**
   * Sets up one run, outside the timing; the harness calls it right before every {@link
   * #execute()}.
   */
  default void prepare() {}

  /** The method whose calls the profiler reports as client-side phases, {@code class.method}. */
  String entryMethod();

  /** Loads the slice once; this is what is timed. */
  void execute() throws Exception;

  /**
   * Checks the run just executed really replaced the slice with the expected rows.
   *
   * @throws IllegalStateException when it did not
   */
  void verify();
}
