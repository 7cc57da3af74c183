package dev.floe.flink.job;

import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Text constants Flink's planner made from bytes that are not UTF-8. It folds a constant expression
 * that turns bytes into text ({@code FROM_BASE64('YWL/Yw==')}, {@code DECODE(X'FF', 'UTF-8')},
 * {@code CAST(X'6162FF63' AS STRING)}) into a Java string while planning, and the decoding replaces
 * every byte that is not UTF-8 with U+FFFD, without an error. The same bytes read from a column
 * reach Floe's writers unchanged, which refuse them (exit 3); folded, they would be committed
 * changed, and a later run with other such bytes would hash equal and be a no-op.
 *
 * <p>Found in the plans, not the text: the logical plan already holds the folded casts; the
 * optimized one, built only when the logical plan calls {@code FROM_BASE64} or {@code DECODE}
 * (explaining costs about a second), holds the rest. A statement whose own text holds U+FFFD, or an
 * escape of it ({@code U&'\FFFD'}), is left alone: the character is then meant. A constant whose
 * well-formed bytes spell U+FFFD ({@code FROM_BASE64('77+9')}) cannot be told apart and is refused
 * too.
 */
public final class FoldedText {
  private static final Pattern BYTES_TO_TEXT = Pattern.compile("\\b(FROM_BASE64|DECODE)\\(");
  private static final char REPLACEMENT = '\uFFFD';

  private FoldedText() {}

  /**
   * The folded text constant holding U+FFFD (quoted as the plan prints it), or empty when the query
   * has none or its text holds U+FFFD itself.
   *
   * @param queryText the statement as the user wrote it (slice parameters bound)
   * @param logicalPlan Calcite's logical plan ({@link QueryInspector.Inspection#plan()})
   * @param optimizedPlan the optimized plan, asked for only when a call may have been folded late
   */
  public static Optional<String> lossyConstant(
      String queryText, String logicalPlan, Supplier<String> optimizedPlan) {
    if (queryText.indexOf(REPLACEMENT) >= 0
        || queryText.toUpperCase(Locale.ROOT).contains("FFFD")) {
      return Optional.empty();
    }
    String plan = logicalPlan;
    if (plan.indexOf(REPLACEMENT) < 0) {
      if (!BYTES_TO_TEXT.matcher(plan).find()) {
        return Optional.empty();
      }
      plan = optimizedPlan.get();
    }
    int at = plan.indexOf(REPLACEMENT);
    if (at < 0) {
      return Optional.empty();
    }
    int start = plan.lastIndexOf('\'', at);
    int end = plan.indexOf('\'', at);
    return Optional.of(
        start >= 0 && end > at
            ? plan.substring(start, end + 1).replace("\uFFFD", "\\uFFFD")
            : "\\uFFFD");
  }

  /**
   * The reason to refuse a query whose plan holds {@code constant} (see {@link #lossyConstant}).
   */
  public static String reason(String constant) {
    return "Flink's planner folded a constant expression that turns bytes into text (FROM_BASE64,"
        + " DECODE or a CAST of a binary constant) into "
        + constant
        + ", replacing the bytes that are not UTF-8 with U+FFFD without an error; read the bytes"
        + " from a table's column (Floe refuses text that is not UTF-8 there), or keep them in a"
        + " BINARY column";
  }
}
