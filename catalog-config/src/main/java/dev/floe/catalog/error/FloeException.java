package dev.floe.catalog.error;

/**
 * Base of Floe's own failures. Each subtype maps to one process exit code, so scripts and
 * schedulers can tell a bad manifest from a failed check from a commit conflict.
 */
public abstract class FloeException extends RuntimeException {

  protected FloeException(String message) {
    super(message);
  }

  protected FloeException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The process exit code the CLI returns for this failure. */
  public abstract int exitCode();
}
