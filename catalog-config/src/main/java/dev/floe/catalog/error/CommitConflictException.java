package dev.floe.catalog.error;

/**
 * Another run committed the same slice after this one started, from the same or newer source data,
 * with different content: this run's result is stale and was not committed. Exit code 4.
 */
public class CommitConflictException extends FloeException {

  public CommitConflictException(String message) {
    super(message);
  }

  public CommitConflictException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public int exitCode() {
    return ExitCodes.COMMIT_CONFLICT;
  }
}
