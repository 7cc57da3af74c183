package dev.floe.catalog.lint;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A query that compares the slice's bounds other than as the half-open interval {@code [start,
 * end)} every run replaces: {@code > :slice_start} leaves the rows at the start out (the slice is
 * replaced without them), and {@code <= :slice_end} or {@code BETWEEN :slice_start AND :slice_end}
 * reads the rows at the end, which lie in the next slice and fail the run.
 */
final class SliceBoundsNotHalfOpen implements Check {
  static final Rule RULE =
      new Rule(
          "slice-bounds-not-half-open",
          Severity.ERROR,
          "A query (outside comments and strings) that compares the slice column with"
              + " > :slice_start or <= :slice_end, or reads it BETWEEN them: a slice is [start,"
              + " end), so the rows at the start are lost or those at the end fail the run.");

  /**
   * Each wrong comparison of the slice column ({@code COL}) with a bound used as it is, either way
   * round, and what it does. A bound with arithmetic ({@code :slice_end - INTERVAL '1' DAY}) or
   * another column ({@code valid_to > :slice_start}, an overlap test) is not the slice's filter.
   */
  private static final List<Wrong> WRONG =
      List.of(
          new Wrong(
              "COL\\s*>(?!=)\\s*:slice_start\\b(?!\\s*[-+*/|])|(?<![-+*/|]\\s{0,9})"
                  + ":slice_start\\s*<(?![=>])\\s*COL",
              "keeps the rows at the slice's start out (the slice is replaced without them); use"
                  + " >= :slice_start"),
          new Wrong(
              "COL\\s*<=\\s*:slice_end\\b(?!\\s*[-+*/|])|(?<![-+*/|]\\s{0,9}):slice_end\\s*>=\\s*COL",
              "reads the rows at the slice's end, which belong to the next slice and fail the run;"
                  + " use < :slice_end"),
          new Wrong(
              "COL\\s+between\\s+:slice_start\\s+and\\s+:slice_end\\b(?!\\s*[-+*/|])",
              "reads the rows at the slice's end (BETWEEN includes it), which belong to the next"
                  + " slice and fail the run; use >= :slice_start AND < :slice_end"));

  /** A comparison and why it is wrong; {@code COL} stands for the slice column as SQL writes it. */
  private record Wrong(String regex, String why) {
    Pattern pattern(String column) {
      // The column, perhaps behind a table alias, each part perhaps quoted.
      String reference =
          "(?<![\\w`\"])(?:[`\"]?\\w+[`\"]?\\s*\\.\\s*)*[`\"]?"
              + Pattern.quote(column)
              + "[`\"]?(?![\\w`\"])";
      return Pattern.compile(
          regex.replace("COL", "(?:" + reference + ")"), Pattern.CASE_INSENSITIVE);
    }
  }

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    String query = manifest.query();
    String column = manifest.sliceColumn();
    if (!manifest.is(ManifestKind.JOB) || query == null || column == null) {
      return List.of();
    }
    String code = QueryText.of(query).code();
    List<Finding> findings = new ArrayList<>();
    for (Wrong wrong : WRONG) {
      Matcher m = wrong.pattern(column).matcher(code);
      while (m.find()) {
        findings.add(
            RULE.atLine(
                manifest,
                "query",
                manifest.lines().valueLine("query", m.start()),
                "Cannot load the slice exactly: '%s' %s",
                m.group().replaceAll("\\s+", " "),
                wrong.why()));
      }
    }
    return findings;
  }
}
