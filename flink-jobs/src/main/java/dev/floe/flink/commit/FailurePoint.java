package dev.floe.flink.commit;

/**
 * Where a run may be told to fail on purpose, to prove atomicity: the tests (and an operator
 * rehearsing a failure) inject one and check that the table did not change.
 */
public enum FailurePoint {
  NONE,
  /** After every data file is written and all checks passed, right before the commit. */
  BEFORE_COMMIT
}
