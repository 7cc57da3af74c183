package dev.floe.flink.job;

import dev.floe.catalog.config.Redaction;
import dev.floe.catalog.error.FloeException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.flink.util.SerializedThrowable;

/** Reads a Flink job's failure: Floe's own exception inside it, or a one-line root cause. */
public final class JobFailures {
  private JobFailures() {}

  /** Finds Floe's own exception in a job failure, also when Flink serialized it on the way. */
  public static FloeException findFloeException(Throwable failure) {
    return (FloeException) first(failure, t -> t instanceof FloeException, t -> false);
  }

  /**
   * The first throwable in {@code failure}'s cause chain that {@code wanted} accepts, looking also
   * inside the exceptions Flink serialized on the way from a task; null when there is none. The
   * walk ends at a throwable {@code end} accepts, without looking at it or below it.
   */
  private static Throwable first(
      Throwable failure, Predicate<Throwable> wanted, Predicate<Throwable> end) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (end.test(t)) {
        return null;
      }
      if (wanted.test(t)) {
        return t;
      }
      if (t instanceof SerializedThrowable serialized) {
        Throwable original = serialized.deserializeError(JobFailures.class.getClassLoader());
        if (original != serialized) {
          Throwable found = first(original, wanted, end);
          if (found != null) {
            return found;
          }
        }
      }
    }
    return null;
  }

  /**
   * The error a query raised while evaluating its own expressions (a division by zero, a cast or a
   * date that cannot be computed), as one line, when that is what made {@code failure}; empty for
   * any other failure. It is the user's SQL that is wrong, not Floe or the cluster: exit 2, from
   * {@code floe run} and {@code floe sql} alike, whether the planner met it folding a constant or a
   * task computing a row.
   *
   * <p>Such an error is raised in the query's own code: a class Flink generated for it, which has
   * no package ({@code BatchExecCalc$5}), or the planner's expression reducer. The same exception
   * raised by Iceberg, Hadoop or Floe (a table property or a summary value that is not a number) is
   * not the query's, even when a generated class is further down the stack.
   *
   * <p>An exception Floe threw is Floe's own verdict, and what lies below it is that verdict's
   * evidence: the search stops there.
   */
  public static java.util.Optional<String> raisedByTheQuery(Throwable failure) {
    return java.util.Optional.ofNullable(
            first(
                failure,
                t -> isEvaluationError(t) && raisedInTheQuerysCode(t),
                JobFailures::thrownByFloe))
        .map(t -> firstLine(t.getMessage() == null ? t.toString() : t.getMessage()));
  }

  private static boolean isEvaluationError(Throwable t) {
    return t instanceof ArithmeticException
        || t instanceof java.time.DateTimeException
        || t instanceof NumberFormatException
        || t.getClass().getName().equals("org.apache.flink.table.api.TableRuntimeException");
  }

  // Where Flink's planner computes a query's constant expressions while it plans it.
  private static final String EXPRESSION_REDUCER =
      "org.apache.flink.table.planner.codegen.ExpressionReducer";

  private static final List<String> NOT_THE_QUERY =
      List.of("dev.floe.", "org.apache.iceberg.", "org.apache.hadoop.");

  /**
   * Read from where {@code t} was thrown: the query's code comes before any library that is not.
   */
  private static boolean raisedInTheQuerysCode(Throwable t) {
    for (StackTraceElement frame : t.getStackTrace()) {
      String name = frame.getClassName();
      if (name.indexOf('.') < 0 || name.startsWith(EXPRESSION_REDUCER)) {
        return true;
      }
      if (NOT_THE_QUERY.stream().anyMatch(name::startsWith)) {
        return false;
      }
    }
    return false;
  }

  private static boolean thrownByFloe(Throwable t) {
    StackTraceElement[] frames = t.getStackTrace();
    return frames.length > 0 && frames[0].getClassName().startsWith("dev.floe.");
  }

  /** The first line of the innermost cause's message. */
  public static String rootMessage(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return firstLine(root.getMessage() == null ? root.toString() : root.getMessage());
  }

  /**
   * The root cause's first line, widened to the deepest message around it that says more about it:
   * "Connection refused" becomes "Unable to execute HTTP request: Connect to 127.0.0.1:9000 [...]
   * failed: Connection refused", which names what could not be reached. A wrapper that only repeats
   * the root with its class name in front is not more.
   */
  public static String rootMessageInContext(Throwable failure) {
    List<String> lines = new ArrayList<>();
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      lines.add(firstLine(t.getMessage() == null ? "" : t.getMessage()));
    }
    String root = rootMessage(failure);
    for (int i = lines.size() - 2; i >= 0; i--) {
      String line = lines.get(i);
      if (line.length() > root.length()
          && line.contains(root)
          && !EXCEPTION_PREFIX.matcher(line).lookingAt()) {
        return line;
      }
    }
    return root;
  }

  /** {@code java.net.ConnectException: ...}: a wrapper's message that is its cause's toString. */
  private static final Pattern EXCEPTION_PREFIX =
      Pattern.compile("[a-z][\\w$]*(\\.[\\w$]+)+(Exception|Error|Throwable)\\b");

  /**
   * The first line of a message, passwords masked ({@link Redaction}): what Floe quotes from a
   * failure also reaches stdout (a backfill's slice outcomes) and reports. Empty for null.
   */
  public static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int newline = message.indexOf('\n');
    return Redaction.redact(newline < 0 ? message : message.substring(0, newline));
  }
}
