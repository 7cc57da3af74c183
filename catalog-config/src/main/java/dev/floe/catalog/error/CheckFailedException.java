package dev.floe.catalog.error;

/** A data check on the new slice failed; nothing was committed. Exit code 3. */
public class CheckFailedException extends FloeException {

  public CheckFailedException(String message) {
    super(message);
  }

  @Override
  public int exitCode() {
    return ExitCodes.CHECK_FAILED;
  }
}
