package dev.floe.flink.job;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Text constants Flink's planner made from bytes that are not UTF-8. It folds a constant expression
 * that turns bytes into text ({@code FROM_BASE64('YWL/Yw==')}, {@code DECODE(X'FF', 'UTF-8')},
 * {@code CAST(X'6162FF63' AS STRING)}, {@code URL_DECODE('%FF')}) into a Java string while
 * planning, and the decoding replaces every byte that is not UTF-8 with U+FFFD, without an error.
 * Folded, they would be committed changed, and a later run with other such bytes would hash equal
 * and be a no-op.
 *
 * <p>Found in the plans, not the text: the logical plan already holds the folded casts; the
 * optimized one, built only when the logical plan makes or decodes bytes (explaining costs about a
 * second), holds the rest. A text the statement writes itself, with the character or a {@code
 * U&'\FFFD'} escape, is left alone: the character is then meant. Not seen: a U+FFFD a view defined
 * by an earlier statement holds (refused: write it in the statement), a constant whose well-formed
 * bytes spell U+FFFD ({@code FROM_BASE64('77+9')}: refused too), and a CAST of a binary column that
 * runs in the tasks (Flink decodes it there the same way).
 */
public final class FoldedText {
  // Calls that make bytes or decode them, and binary values: a constant through them may be
  // folded late, so the optimized plan is read too when the logical plan has one.
  private static final Pattern BYTES =
      Pattern.compile("\\b(FROM_BASE64|DECODE|URL_DECODE|UNHEX|ENCODE)\\(|X'|BINARY|BYTES");
  // A text literal of the statement ('...' or U&'...', '' for a quote), and a Unicode escape of a
  // U&'...' literal: \XXXX or \+XXXXXX. Possessive, a run of characters per repetition: a
  // repetition per character overflows the stack on a long literal (see QueryInspector).
  private static final Pattern LITERAL = Pattern.compile("(?i)(U&)?'((?:[^']++|'')*+)'");
  private static final Pattern ESCAPE = Pattern.compile("\\\\(\\+[0-9A-Fa-f]{6}|[0-9A-Fa-f]{4})");
  private static final char REPLACEMENT = '\uFFFD';

  private FoldedText() {}

  /**
   * The folded text constant holding U+FFFD (quoted as the plan prints it), or empty when the query
   * has none, or when each one is a text literal the statement writes itself.
   *
   * @param queryText the statement as the user wrote it (slice parameters bound)
   * @param logicalPlan Calcite's logical plan ({@link QueryInspector.Inspection#plan()})
   * @param optimizedPlan the optimized plan, asked for only when a call may have been folded late
   */
  public static Optional<String> lossyConstant(
      String queryText, String logicalPlan, Supplier<String> optimizedPlan) {
    Optional<String> lossy = notWritten(logicalPlan, queryText);
    if (lossy.isPresent() || !BYTES.matcher(logicalPlan).find()) {
      return lossy;
    }
    return notWritten(optimizedPlan.get(), queryText);
  }

  /** The first literal of {@code plan} holding U+FFFD that is no literal of {@code queryText}. */
  private static Optional<String> notWritten(String plan, String queryText) {
    int at = plan.indexOf(REPLACEMENT);
    Set<String> written = at >= 0 ? literals(queryText) : Set.of();
    while (at >= 0) {
      int start = plan.lastIndexOf('\'', at);
      int end = plan.indexOf('\'', at);
      String text =
          start >= 0 && end > at ? plan.substring(start + 1, end) : String.valueOf(REPLACEMENT);
      // A CHAR literal of a VALUES is padded with spaces to its column's length.
      if (!written.contains(text) && !written.contains(text.stripTrailing())) {
        return Optional.of("'" + text.replace(String.valueOf(REPLACEMENT), "\\uFFFD") + "'");
      }
      at = plan.indexOf(REPLACEMENT, Math.max(at, end) + 1);
    }
    return Optional.empty();
  }

  /** The texts of {@code sql}'s literals, with the escapes of {@code U&'...'} ones decoded. */
  static Set<String> literals(String sql) {
    Set<String> texts = new HashSet<>();
    Matcher literal = LITERAL.matcher(sql);
    while (literal.find()) {
      String text = literal.group(2).replace("''", "'");
      texts.add(literal.group(1) == null ? text : withEscapesDecoded(text));
    }
    return texts;
  }

  private static String withEscapesDecoded(String text) {
    Matcher escape = ESCAPE.matcher(text);
    StringBuilder decoded = new StringBuilder();
    while (escape.find()) {
      int codePoint = Integer.parseInt(escape.group(1).replace("+", ""), 16);
      escape.appendReplacement(
          decoded,
          Matcher.quoteReplacement(
              Character.isValidCodePoint(codePoint)
                  ? Character.toString(codePoint)
                  : escape.group()));
    }
    escape.appendTail(decoded);
    return decoded.toString();
  }

  /**
   * The reason to refuse a query whose plan holds {@code constant} (see {@link #lossyConstant}).
   */
  public static String reason(String constant) {
    return "Flink's planner folded a constant expression that turns bytes into text (FROM_BASE64,"
        + " DECODE, URL_DECODE or a CAST of a binary constant) into "
        + constant
        + ", replacing the bytes that are not UTF-8 with U+FFFD without an error; read the bytes"
        + " from a table's column (Floe refuses text that is not UTF-8 there), keep them in a"
        + " BINARY column, or write U+FFFD in the statement itself (U&'\\FFFD') if it is meant";
  }
}
