package dev.floe.flink.job;

import dev.floe.catalog.config.Redaction;
import dev.floe.catalog.error.FloeException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.util.SerializedThrowable;

/** Reads a Flink job's failure: Floe's own exception inside it, or a one-line root cause. */
public final class JobFailures {
  private JobFailures() {}

  /** Finds Floe's own exception in a job failure, also when Flink serialized it on the way. */
  public static FloeException findFloeException(Throwable failure) {
    return (FloeException) first(failure, t -> t instanceof FloeException);
  }

  /**
   * Whether {@code failure} says the Flink job was cancelled (by an operator, the web UI or the
   * cluster), as Flink's client reports a job that ended CANCELED.
   */
  public static boolean wasCancelled(Throwable failure) {
    return first(
            failure,
            t ->
                t.getClass()
                    .getName()
                    .equals("org.apache.flink.runtime.client.JobCancellationException"))
        != null;
  }

  /**
   * The first throwable in {@code failure}'s cause chain that {@code wanted} accepts, looking also
   * inside the exceptions Flink serialized on the way from a task; null when there is none.
   */
  private static Throwable first(Throwable failure, Predicate<Throwable> wanted) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (wanted.test(t)) {
        return t;
      }
      if (t instanceof SerializedThrowable serialized) {
        Throwable original = serialized.deserializeError(JobFailures.class.getClassLoader());
        if (original != serialized) {
          Throwable found = first(original, wanted);
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
   * <p>Such an error is raised by the query's own code: a class Flink generated for it, which has
   * no package ({@code BatchExecCalc$5}), or the planner's expression reducer.
   *
   * <ul>
   *   <li>Raised by a value function that code called (a cast, a date format, a regular expression,
   *       a {@code LIKE} pattern, a charset, JSON), with only the JDK and the table runtime's value
   *       functions between the throw and the query's code: an arithmetic, date, number, argument
   *       or encoding error, or Flink's {@code TableException}/{@code TableRuntimeException}; from
   *       {@code LIKE}'s pattern code, the bare {@code RuntimeException} it raises for an invalid
   *       escape.
   *   <li>Raised by the generated code itself: only an arithmetic or date error, {@code ELEMENT} of
   *       a longer array, or {@code SHA2} with a bit length that names no digest. Flink's own
   *       failures in generated code (a wrapped exception, an internal assertion such as "ProbeRow
   *       should not be null") are not the query's.
   *   <li>Raised by the expression reducer itself: only an arithmetic error ({@code 1 / 0}).
   * </ul>
   *
   * The same exception raised anywhere else (Iceberg, Parquet, Hadoop, Floe, Flink's network stack;
   * a table property or a summary value that is not a number) is not the query's, even when a
   * generated class is further down. A Floe exception that wraps the query's error does not hide
   * it.
   */
  public static java.util.Optional<String> raisedByTheQuery(Throwable failure) {
    return java.util.Optional.ofNullable(first(failure, JobFailures::raisedByTheQuerysCode))
        .map(JobFailures::describe);
  }

  /**
   * Iceberg's refusal of one of the query's read options (a snapshot, ref or time its table does
   * not have, a value that is not a number; {@link ReadOptionRejections}), as one line, when that
   * is what made {@code failure}; empty for any other failure. The statement names what does not
   * exist: exit 2, from {@code floe run} and {@code floe sql} alike, whether the source planned its
   * splits in the client or in the job.
   */
  public static java.util.Optional<String> refusedReadOption(Throwable failure) {
    return java.util.Optional.ofNullable(first(failure, ReadOptionRejections::test))
        .map(ReadOptionRejections::describe);
  }

  /**
   * The user's query as the reason {@code failure} happened, as one line: an error its own code
   * raised ({@link #raisedByTheQuery}), a read option Iceberg refused ({@link #refusedReadOption}),
   * or a constant division Flink's planner cannot fold ({@link #unfoldedConstantDivision}); empty
   * for any other failure. Exit 2.
   */
  public static java.util.Optional<String> causedByTheQuery(Throwable failure) {
    return raisedByTheQuery(failure)
        .or(() -> refusedReadOption(failure))
        .or(() -> unfoldedConstantDivision(failure));
  }

  /**
   * Flink 2.1's planner fails with a {@code ClassCastException} on any constant division whose
   * divisor is not a literal ({@code 10 / (1 + 1)}, or {@code 10 / (id + 1)} with {@code WHERE id =
   * 1}): before folding it, its expression reducer checks the divisor for zero by taking it for a
   * literal. The query is valid, but only a rewrite gets it planned, so this says how (exit 2)
   * instead of passing on the cast error.
   */
  static java.util.Optional<String> unfoldedConstantDivision(Throwable failure) {
    return java.util.Optional.ofNullable(
            first(
                failure,
                t ->
                    t instanceof ClassCastException
                        && t.getStackTrace().length > 0
                        && t.getStackTrace()[0].getClassName().equals(EXPRESSION_REDUCER)
                        && t.getStackTrace()[0].getMethodName().contains("skipAndValidateExprs")))
        .map(
            t ->
                "Flink's planner cannot compute a constant division whose divisor is an expression"
                    + " (a Flink bug, e.g. 10 / (1 + 1), or 10 / (id + 1) with WHERE id = 1);"
                    + " write the divisor as a number");
  }

  /** Code that computes the query's values. */
  private static final String EXPRESSION_REDUCER =
      "org.apache.flink.table.planner.codegen.ExpressionReducer";

  /** Where {@code LIKE} and {@code SIMILAR TO} turn their pattern into a regular expression. */
  private static final String LIKE_PATTERNS = "org.apache.flink.table.functions.SqlLikeUtils";

  /**
   * What the query's code calls to compute a value, and nothing else: packages (ending in '.') and
   * single classes (with their nested classes).
   */
  private static final List<String> VALUE_FUNCTIONS =
      List.of(
          "java.",
          // Double.parseDouble and Float.parseFloat parse in here
          "jdk.internal.math.",
          // MessageDigest.getInstance looks an algorithm up in here (SHA2's bit length)
          "sun.security.jca.",
          // casts from strings, and decimals; not the row writers and converters beside them
          "org.apache.flink.table.data.binary.",
          "org.apache.flink.table.data.DecimalData",
          "org.apache.flink.table.data.DecimalDataUtils",
          "org.apache.flink.table.runtime.functions.",
          LIKE_PATTERNS,
          "org.apache.flink.table.utils.");

  private static boolean isValueFunction(String className) {
    for (String entry : VALUE_FUNCTIONS) {
      if (entry.endsWith(".")
          ? className.startsWith(entry)
          : className.equals(entry) || className.startsWith(entry + "$")) {
        return true;
      }
    }
    return false;
  }

  private static boolean raisedByTheQuerysCode(Throwable t) {
    StackTraceElement[] frames = t.getStackTrace();
    for (int i = 0; i < frames.length; i++) {
      String name = frames[i].getClassName();
      boolean generated = name.indexOf('.') < 0;
      if (generated || name.startsWith(EXPRESSION_REDUCER)) {
        if (i > 0) {
          return isValueError(t);
        }
        return generated
            ? t instanceof ArithmeticException
                || t instanceof java.time.DateTimeException
                || isElementOfALongerArray(t)
                || isUnknownDigest(t)
            : t instanceof ArithmeticException;
      }
      if (!isValueFunction(name)) {
        return false;
      }
    }
    return false;
  }

  /**
   * What the code Flink generates for {@code ELEMENT(array)} throws when the array has more than
   * one element: a bare {@code RuntimeException} with this message. Flink's internal assertions in
   * generated code throw the same class ("ProbeRow should not be null"), so the message decides.
   */
  private static boolean isElementOfALongerArray(Throwable t) {
    return isBare(t) && "Array has more than one element.".equals(t.getMessage());
  }

  /**
   * What the code Flink generates for {@code SHA2(s, n)} with a constant {@code n} throws when it
   * gets ready to compute it and "SHA-" + n names no digest (only 224, 256, 384 and 512 do).
   */
  private static boolean isUnknownDigest(Throwable t) {
    return isBare(t) && "Unsupported algorithm.".equals(t.getMessage());
  }

  /**
   * What {@code SHA2(s, n)} with {@code n} from a row raises when "SHA-" + n names no digest: only
   * that message, for a length that is none of SHA-2's. A digest the JVM lacks for another reason
   * (MD5 or SHA-256 missing from a restricted provider list) is the machine's, not the query's.
   */
  private static boolean isUnknownShaTwoLength(Throwable t) {
    if (!(t instanceof java.security.NoSuchAlgorithmException) || t.getMessage() == null) {
      return false;
    }
    Matcher digest = UNKNOWN_SHA.matcher(t.getMessage());
    return digest.matches() && !SHA_TWO_LENGTHS.contains(digest.group(1));
  }

  private static final Pattern UNKNOWN_SHA =
      Pattern.compile("SHA-(-?\\d{1,10}) MessageDigest not available");
  private static final List<String> SHA_TWO_LENGTHS = List.of("224", "256", "384", "512");

  /** A plain {@code RuntimeException} without a cause: Flink's way to fail with a message only. */
  private static boolean isBare(Throwable t) {
    return t.getClass() == RuntimeException.class && t.getCause() == null;
  }

  /**
   * A {@code LIKE} or {@code SIMILAR TO} pattern with an invalid escape: {@code SqlLikeUtils}
   * raises a bare {@code RuntimeException} for it, and only for an invalid pattern.
   */
  private static boolean isInvalidLikePattern(Throwable t) {
    StackTraceElement[] frames = t.getStackTrace();
    return isBare(t) && frames.length > 0 && frames[0].getClassName().equals(LIKE_PATTERNS);
  }

  /** What a value function raises for a value it cannot compute. */
  private static boolean isValueError(Throwable t) {
    if (isInvalidLikePattern(t)) {
      return true;
    }
    if (t instanceof ArithmeticException
        || t instanceof java.time.DateTimeException
        // NumberFormatException, PatternSyntaxException, an unknown charset or date pattern
        || t instanceof IllegalArgumentException
        || t instanceof java.io.UnsupportedEncodingException
        || isUnknownShaTwoLength(t)) {
      return true;
    }
    for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
      // a cast to BOOLEAN throws TableException; other casts and JSON TableRuntimeException
      if (c.getName().equals("org.apache.flink.table.api.TableRuntimeException")
          || c.getName().equals("org.apache.flink.table.api.TableException")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The error's first line without the class names a wrapper put in front ({@code Unrecognized
   * token 'x'} of {@code com.fasterxml...JsonParseException: Unrecognized token 'x'}). A message
   * that is only the name of an exception class (a wrapper's, whose cause had no message) is named
   * by that class's simple name, as an error without a message is by its own; any other text, such
   * as a charset's name, stays whole (unless it is the name of such a class, {@code
   * java.lang.Error}).
   */
  private static String describe(Throwable t) {
    String line = firstLine(t.getMessage());
    String name = nameOf(t.getClass());
    Matcher prefix = EXCEPTION_NAME.matcher(line);
    int start = 0;
    while (start < line.length() && prefix.region(start, line.length()).lookingAt()) {
      name = prefix.group(1);
      start = prefix.end();
    }
    String rest = line.substring(start);
    if (rest.isBlank()) {
      return name;
    }
    Class<?> named = throwableNamed(rest);
    return named == null ? rest : nameOf(named);
  }

  /**
   * A class name and the separator after it. Bounded, so that a long dotted message (a charset or a
   * pattern the user wrote) cannot exhaust the stack.
   */
  private static final Pattern EXCEPTION_NAME =
      Pattern.compile("(?:[a-z][\\w$]*\\.){1,64}([\\w$]*(?:Exception|Error)): ");

  private static final Pattern CLASS_NAME = Pattern.compile("(?:[a-z][\\w$]*\\.){1,64}[\\w$]+");

  /** The exception class {@code text} names, if it is one this JVM has; null otherwise. */
  private static Class<?> throwableNamed(String text) {
    if (!CLASS_NAME.matcher(text).matches()) {
      return null;
    }
    try {
      Class<?> c = Class.forName(text, false, JobFailures.class.getClassLoader());
      return Throwable.class.isAssignableFrom(c) ? c : null;
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }

  /** The simple name; the full one for a class that has none (anonymous). */
  private static String nameOf(Class<?> c) {
    return c.getSimpleName().isEmpty() ? c.getName() : c.getSimpleName();
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
