package dev.floe.catalog.error;

/** Process exit codes of the floe CLI; documented in the README and in `floe --help`. */
public final class ExitCodes {
  public static final int OK = 0;
  public static final int UNEXPECTED = 1;
  public static final int INVALID_INPUT = 2;
  public static final int CHECK_FAILED = 3;
  public static final int COMMIT_CONFLICT = 4;
  public static final int COMMIT_STATE_UNKNOWN = 5;
  public static final int TIMED_OUT = 6;

  private ExitCodes() {}
}
