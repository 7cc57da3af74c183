package dev.floe.catalog.lint;

import dev.floe.catalog.job.NondeterministicFunctions;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A wall-clock or random function in a job's query: a rerun would process another slice or write
 * other rows. A text scan that skips comments and string literals; the run itself checks the
 * planned query (views included), so this is the early warning, not the guard.
 */
final class NondeterministicQuery implements Check {
  static final Rule RULE =
      new Rule(
          "nondeterministic-query",
          Severity.ERROR,
          "A wall-clock or random function in a job's query (CURRENT_DATE, NOW(), RAND(), UUID(),"
              + " UNIX_TIMESTAMP() without arguments, ...), outside comments and strings, unless"
              + " allow_nondeterministic: true.");

  private static final Pattern CALL = Pattern.compile("(?<![\\w.$])([A-Z_][A-Z0-9_]*)\\s*(\\()?");

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    String query = manifest.query();
    if (!manifest.is(ManifestKind.JOB)
        || query == null
        || manifest.isTrue("allow_nondeterministic")) {
      return List.of();
    }
    QueryText text = QueryText.of(query);
    String code = text.codeWithoutIdentifiers().toUpperCase(Locale.ROOT);
    List<Finding> findings = new ArrayList<>();
    Set<String> reported = new LinkedHashSet<>();
    Matcher call = CALL.matcher(code);
    while (call.find()) {
      String name = call.group(1);
      boolean parenthesis = call.group(2) != null;
      String function = function(name, parenthesis, code, call.end());
      if (function == null) {
        continue;
      }
      int line = manifest.lines().valueLine("query", call.start());
      if (reported.add(function + "@" + line)) {
        findings.add(
            RULE.atLine(
                manifest,
                "query",
                line,
                "Cannot rerun safely: the query calls %s, which %s; take the slice from"
                    + " :slice_start and :slice_end (or set allow_nondeterministic: true)",
                function,
                NondeterministicFunctions.RANDOM.contains(name)
                    ? "returns other values on every run"
                    : "reads the wall clock"));
      }
    }
    return findings;
  }

  /** How the call is named in {@link NondeterministicFunctions#NAMES}, or null when it is not. */
  private static String function(String name, boolean parenthesis, String code, int after) {
    List<String> names = NondeterministicFunctions.NAMES;
    if (names.contains(name)) {
      if (parenthesis) {
        return name + "()";
      }
      return NondeterministicFunctions.WITHOUT_PARENTHESES.contains(name) ? name : null;
    }
    if (parenthesis
        && names.contains(name + "()")
        && code.substring(after).matches("(?s)\\s*\\).*")) {
      return name + "()";
    }
    return null;
  }
}
