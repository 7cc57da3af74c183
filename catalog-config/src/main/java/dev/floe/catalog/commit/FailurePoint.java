package dev.floe.catalog.commit;

/**
 * Where a run may be told to fail on purpose, to prove atomicity: the tests (and an operator
 * rehearsing a failure with {@code --inject-failure}) inject one and check that the table holds
 * exactly the old or exactly the new content, and that a rerun ends as a clean run would.
 *
 * <p>The commit points ({@link #BEFORE_COMMIT}, {@link #LOST_REQUEST}, {@link #LOST_RESPONSE},
 * {@link #AFTER_COMMIT}) are implemented once, in {@link RunCommit}, so every operation that
 * commits reaches them; the writing points are implemented by the writers of the operations that
 * write data files.
 */
public enum FailurePoint {
  NONE,
  /** After the job was planned (slice resolved, sources pinned), before any row is written. */
  AFTER_PLANNING,
  /** After the first data file of the run was written, while others are still being written. */
  AFTER_SOME_FILES,
  /** After every data file was written, before checks and the commit. */
  AFTER_ALL_FILES,
  /** After every data file is written and all checks passed, right before the catalog commit. */
  BEFORE_COMMIT,
  /**
   * The commit never reached the catalog and no answer came (a connection dropped on the way): Floe
   * cannot tell whether it landed, and the history does not hold the run, so the outcome is unknown
   * (exit 5) and the files are kept; a rerun commits.
   */
  LOST_REQUEST,
  /**
   * The catalog committed, but the answer never reached Floe (a dropped connection): the commit
   * core must find the run in the table's history and report it committed, never commit twice.
   */
  LOST_RESPONSE,
  /** The commit succeeded and was seen; the process dies before anything else (effects) happens. */
  AFTER_COMMIT;

  /** Throws the injected failure when {@code point} is this one. */
  public void failIf(FailurePoint point, String where) {
    if (this == point) {
      throw new InjectedFailureException(this, where);
    }
  }
}
