package dev.floe.catalog.lint;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A query that reads its own target: a rerun reads what the previous run wrote. */
final class QueryReadsTarget implements Check {
  static final Rule RULE =
      new Rule(
          "query-reads-target",
          Severity.ERROR,
          "A job's query names its own target table (outside comments and strings): a rerun"
              + " reads what the previous run wrote, so two runs of one slice can differ.");

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    String query = manifest.query();
    String target = manifest.text("target");
    if (!manifest.is(ManifestKind.JOB) || query == null || target == null || target.isBlank()) {
      return List.of();
    }
    QueryText text = QueryText.of(query);
    Matcher reference = reference(target).matcher(text.code());
    if (!reference.find()) {
      return List.of();
    }
    int line = manifest.lines().valueLine("query", reference.start());
    String written = reference.group().replaceAll("[`\"\\s]", "");
    boolean otherCase = !written.equals(target) && !written.endsWith("." + target);
    return List.of(
        RULE.atLine(
            manifest,
            "query",
            line,
            "Cannot rerun safely: the query reads its own target %s%s, so a rerun reads what the"
                + " last run wrote; read the sources only",
            target,
            otherCase
                ? " (written "
                    + written
                    + ", which is the same table where the catalog ignores case; floe run checks)"
                : ""));
  }

  /**
   * {@code sales.fact_orders} as SQL may write it: any case, each part optionally in backticks or
   * double quotes, optionally behind a catalog name.
   */
  private static Pattern reference(String target) {
    StringBuilder pattern = new StringBuilder("(?<![\\w.`\"])(?:[`\"]?\\w+[`\"]?\\s*\\.\\s*)?");
    String[] parts = target.split("\\.");
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        pattern.append("\\s*\\.\\s*");
      }
      pattern.append("[`\"]?").append(Pattern.quote(parts[i])).append("[`\"]?");
    }
    pattern.append("(?![\\w`\"])");
    return Pattern.compile(pattern.toString(), Pattern.CASE_INSENSITIVE);
  }
}
