package dev.floe.flink.job;

/**
 * Defaults of {@code floe run} that both the picocli flags and programmatic runs ({@link
 * RunRequest#of}) use. The flags themselves are declared (and documented) by their picocli
 * annotations in {@code RunCommand}; only the values both sides need live here.
 */
public final class JobOptions {
  /** {@code --max-conflict-retries}; text, because picocli's {@code defaultValue} takes text. */
  public static final String DEFAULT_MAX_CONFLICT_RETRIES = "3";

  private JobOptions() {}

  static int defaultMaxConflictRetries() {
    return Integer.parseInt(DEFAULT_MAX_CONFLICT_RETRIES);
  }
}
