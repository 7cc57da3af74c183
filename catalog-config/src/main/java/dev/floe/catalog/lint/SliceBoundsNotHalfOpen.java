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
          "A query (outside comments and strings) that compares :slice_start with > or :slice_end"
              + " with <=, or reads BETWEEN them: a slice is [start, end), so the rows at the"
              + " start are lost or those at the end fail the run.");

  /** Each wrong comparison, either way round, and what it does. */
  private static final List<Wrong> WRONG =
      List.of(
          new Wrong(
              "(?<![<>!=])>\\s*:slice_start\\b|:slice_start\\s*<(?![=>])",
              "keeps the rows at the slice's start out (the slice is replaced without them); use"
                  + " >= :slice_start"),
          new Wrong(
              "<=\\s*:slice_end\\b|:slice_end\\s*>=",
              "reads the rows at the slice's end, which belong to the next slice and fail the run;"
                  + " use < :slice_end"),
          new Wrong(
              "(?i)\\bbetween\\s+:slice_start\\s+and\\s+:slice_end\\b",
              "reads the rows at the slice's end (BETWEEN includes it), which belong to the next"
                  + " slice and fail the run; use >= :slice_start AND < :slice_end"));

  private record Wrong(String regex, String why) {
    Pattern pattern() {
      return Pattern.compile(regex);
    }
  }

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    String query = manifest.query();
    if (!manifest.is(ManifestKind.JOB) || query == null) {
      return List.of();
    }
    String code = QueryText.of(query).code();
    List<Finding> findings = new ArrayList<>();
    for (Wrong wrong : WRONG) {
      Matcher m = wrong.pattern().matcher(code);
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
