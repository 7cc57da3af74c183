package dev.floe.catalog.error;

/**
 * A server the command needs (S3, the catalog database, the REST catalog) could not be reached, so
 * nothing was done and nothing committed. Exit code 1. The message is one line, "Cannot &lt;do
 * x&gt;: cannot reach &lt;what&gt; at &lt;where&gt;: &lt;why&gt;"; {@link #during} puts the
 * command's own action in front of the same reason.
 */
public class UnreachableException extends FloeException {
  private final String reason;

  /**
   * @param action what could not be done, e.g. "open catalog floe"
   * @param reason why, e.g. "cannot reach S3 at http://127.0.0.1:9000: connection refused"
   */
  public UnreachableException(String action, String reason, Throwable cause) {
    super("Cannot " + action + ": " + reason, cause);
    this.reason = reason;
  }

  /** What could not be reached and why, without the action. */
  public String reason() {
    return reason;
  }

  /** The same failure, told as the failure of {@code action} (e.g. "run job for 2026-10-03"). */
  public UnreachableException during(String action) {
    return new UnreachableException(action, reason, getCause());
  }

  @Override
  public int exitCode() {
    return ExitCodes.UNEXPECTED;
  }
}
