package dev.floe.catalog.error;

/** Bad usage, manifest, slice or query: nothing was committed. Exit code 2. */
public class InvalidInputException extends FloeException {

  public InvalidInputException(String message) {
    super(message);
  }

  public InvalidInputException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Formats like Iceberg's Preconditions: {@code fail("Cannot x: %s", value)}. */
  public static InvalidInputException of(String format, Object... args) {
    return new InvalidInputException(String.format(format, args));
  }

  public static void check(boolean condition, String format, Object... args) {
    if (!condition) {
      throw of(format, args);
    }
  }

  @Override
  public int exitCode() {
    return ExitCodes.INVALID_INPUT;
  }
}
