package dev.floe.flink.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * A Floe command that failed inside a Flink cluster. It carries the exit code {@code bin/floe}
 * would have returned; the reason is already on the JobManager's stderr.
 */
public final class ClusterRunFailedException extends RuntimeException {
  private static final String CATALOG_PROPERTY = "--catalog-property";

  private final int exitCode;

  public ClusterRunFailedException(List<String> args, int exitCode) {
    super(
        "Cannot finish `floe "
            + String.join(" ", withoutPropertyValues(args))
            + "`: it ended with exit code "
            + exitCode
            + " (the reason is in the JobManager log)");
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }

  /**
   * The command line with every {@code --catalog-property} value hidden: this message reaches the
   * JobManager log, the REST answer and the operator's status, where a secret must not.
   */
  static List<String> withoutPropertyValues(List<String> args) {
    List<String> shown = new ArrayList<>(args.size());
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg.equals(CATALOG_PROPERTY) && i + 1 < args.size()) {
        shown.add(arg);
        shown.add(keyOnly(args.get(++i)));
      } else if (arg.startsWith(CATALOG_PROPERTY + "=")) {
        shown.add(CATALOG_PROPERTY + "=" + keyOnly(arg.substring(CATALOG_PROPERTY.length() + 1)));
      } else {
        shown.add(arg);
      }
    }
    return shown;
  }

  private static String keyOnly(String keyValue) {
    int equals = keyValue.indexOf('=');
    return (equals < 0 ? keyValue : keyValue.substring(0, equals)) + "=******";
  }
}
