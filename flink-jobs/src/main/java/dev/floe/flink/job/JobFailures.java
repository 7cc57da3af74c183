package dev.floe.flink.job;

import dev.floe.catalog.error.FloeException;
import org.apache.flink.util.SerializedThrowable;

/** Reads a Flink job's failure: Floe's own exception inside it, or a one-line root cause. */
public final class JobFailures {
  private JobFailures() {}

  /** Finds Floe's own exception in a job failure, also when Flink serialized it on the way. */
  public static FloeException findFloeException(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof FloeException floe) {
        return floe;
      }
      if (t instanceof SerializedThrowable serialized) {
        Throwable original = serialized.deserializeError(JobFailures.class.getClassLoader());
        if (original != serialized) {
          FloeException floe = findFloeException(original);
          if (floe != null) {
            return floe;
          }
        }
      }
    }
    return null;
  }

  /** The first line of the innermost cause's message. */
  public static String rootMessage(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return firstLine(root.getMessage() == null ? root.toString() : root.getMessage());
  }

  /** The first line of a message; empty for null. */
  public static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
