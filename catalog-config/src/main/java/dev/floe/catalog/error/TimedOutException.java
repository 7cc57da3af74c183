package dev.floe.catalog.error;

/**
 * A task ran past its explicit timeout ({@code timeout:} in a job manifest, {@code --timeout}, or a
 * backfill's {@code --overall-timeout}): its Flink job was cancelled, or refused to start its
 * commit, and nothing of it was committed; the files it wrote were deleted. Rerunning it is safe.
 * Exit code 6.
 */
public class TimedOutException extends FloeException {

  public TimedOutException(String message) {
    super(message);
  }

  public TimedOutException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public int exitCode() {
    return ExitCodes.TIMED_OUT;
  }
}
