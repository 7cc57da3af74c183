package dev.floe.catalog.error;

/**
 * The catalog did not say whether the commit happened and the run id is not in the table's history.
 * The written files are kept: deleting them could corrupt a commit that did land. Exit code 5.
 */
public class CommitStateUnknownException extends FloeException {

  public CommitStateUnknownException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public int exitCode() {
    return ExitCodes.COMMIT_STATE_UNKNOWN;
  }
}
